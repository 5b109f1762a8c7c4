#include "vulkan/shared_device.h"

#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "util/env.h"
#include "util/log.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

struct Shared {
    std::unique_ptr<State> state;
    unsigned refs = 0;
};

struct Registry {
    std::mutex mutex;
    std::map<std::string, Shared> by_choice;  // VMAF_VULKAN_DEVICE's value ("" for the automatic choice)
    uint64_t created = 0;
};

Registry &registry()
{
    static Registry *r = new Registry;  // never destroyed: contexts may outlive static destructors
    return *r;
}

}  // namespace

int shared_state_acquire(State **out)
{
    *out = nullptr;
    const char *dev = std::getenv("VMAF_VULKAN_DEVICE");
    const std::string key = dev ? dev : "";
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    Shared &s = r.by_choice[key];
    if (!s.state) {
        Config cfg;  // the device from VMAF_VULKAN_DEVICE, validation from VMAF_VULKAN_VALIDATION
        if (int err = State::create(cfg, &s.state)) {
            r.by_choice.erase(key);
            return err;
        }
        r.created++;
    } else if (s.state->hung()) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: the process's device is hung; no new context can use it\n");
        return -EIO;
    }
    s.refs++;
    *out = s.state.get();
    return 0;
}

void shared_state_release(State *state)
{
    if (!state) return;
    std::unique_ptr<State> last;
    {
        Registry &r = registry();
        std::lock_guard lock(r.mutex);
        for (auto it = r.by_choice.begin(); it != r.by_choice.end(); ++it) {
            if (it->second.state.get() != state) continue;
            if (--it->second.refs == 0) {
                last = std::move(it->second.state);
                r.by_choice.erase(it);
            }
            break;
        }
    }
    if (last && last->hung()) {
        // Destroying a device the GPU still works for is undefined: keep it.
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: the GPU is hung: the process's device is not destroyed\n");
        (void)last.release();
    }
    // `last` (if any) goes here, outside the lock: waiting for the device and
    // writing the pipeline cache do not hold up other contexts.
}

SharedStateStats shared_state_stats()
{
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    SharedStateStats s;
    s.created = r.created;
    for (const auto &[key, sh] : r.by_choice) {
        s.live++;
        s.references += sh.refs;
    }
    return s;
}

}  // namespace vmaf::vk
