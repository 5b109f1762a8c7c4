// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/shared_device.h"

#include <cerrno>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "picture/picture.h"
#include "util/env.h"
#include "util/log.h"
#include "os/os.h"
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
    std::set<State *> own;                    // own_state_create()'s, each for one context
    uint64_t created = 0;
    long pid = 0;            // the process whose states by_choice holds
    bool hooks = false;      // call_around_fork and call_at_exit registered
};

Registry &registry()
{
    static Registry *r = new Registry;  // never destroyed: contexts may outlive static destructors
    return *r;
}

// A child of fork() shares its parent's states' memory but not their device:
// the driver's threads, queues and file descriptors belong to the parent.
// Using them hangs or corrupts the parent's work; destroying them would too.
// The child forgets them (never freed in it) and makes its own. Under the lock.
void forget_parents_states(Registry &r)
{
    const long pid = os::process_id();
    if (r.pid == pid) return;
    if (r.pid != 0 && !r.by_choice.empty()) {
        for (auto &[key, sh] : r.by_choice) (void)sh.state.release();
        r.by_choice.clear();
        r.own.clear();  // never freed in the child either
        forget_spare_storage();  // some are imported by the parent's device
        log(VMAF_LOG_LEVEL_DEBUG, "Vulkan: a child process: the parent's device is left alone, this process "
                                  "makes its own\n");
    }
    r.pid = pid;
}

// Taken around fork(), so that no child starts with the lock held by a thread
// it does not have.
void lock_for_fork() { registry().mutex.lock(); }
void unlock_after_fork() { registry().mutex.unlock(); }

// At exit the idle states go while the driver is still loaded: its own
// destructors run after this (it was loaded before the hook was registered).
// States that contexts still use are left, as before.
void trim_at_exit() { (void)shared_state_trim(); }

}  // namespace

int shared_state_acquire(State **out)
{
    *out = nullptr;
    const char *dev = env_get("VMAF_VULKAN_DEVICE");
    const std::string key = dev ? dev : "";
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    forget_parents_states(r);
    Shared &s = r.by_choice[key];
    if (!s.state) {
        Config cfg;  // the device from VMAF_VULKAN_DEVICE, validation from VMAF_VULKAN_VALIDATION
        if (int err = State::create(cfg, &s.state)) {
            r.by_choice.erase(key);
            return err;
        }
        r.created++;
        if (!r.hooks) {
            // After the driver is loaded, so that the exit hook runs before its
            // destructors.
            r.hooks = true;
            os::call_around_fork(lock_for_fork, unlock_after_fork);
            os::call_at_exit(trim_at_exit);
        }
    } else if (s.state->hung()) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: the process's device is hung; no new context can use it\n");
        return -EIO;
    }
    s.refs++;
    *out = s.state.get();
    return 0;
}

int own_state_create(const Config &cfg, State **out)
{
    *out = nullptr;
    std::unique_ptr<State> s;
    if (int err = State::create(cfg, &s)) return err;
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    forget_parents_states(r);
    r.own.insert(s.get());
    *out = s.release();
    return 0;
}

void shared_state_release(State *state)
{
    if (!state) return;
    std::unique_ptr<State> hung, own;
    {
        Registry &r = registry();
        std::lock_guard lock(r.mutex);
        if (r.pid != os::process_id()) return;  // a parent's state, in a child: not ours to touch
        if (r.own.erase(state)) {
            own.reset(state);
            if (state->hung()) hung = std::move(own);
        }
        for (auto it = r.by_choice.begin(); it != r.by_choice.end(); ++it) {
            if (it->second.state.get() != state) continue;
            if (--it->second.refs == 0 && state->hung()) {
                hung = std::move(it->second.state);
                r.by_choice.erase(it);
            }
            break;
        }
    }
    if (hung) {
        // Destroying a device the GPU still works for is undefined: keep it.
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: the GPU is hung: the process's device is not destroyed\n");
        (void)hung.release();
    }
    // own (if any) is destroyed here, outside the lock: its pipeline cache is written first
}

unsigned shared_state_trim()
{
    std::vector<std::unique_ptr<State>> idle;
    {
        Registry &r = registry();
        std::lock_guard lock(r.mutex);
        if (r.pid != os::process_id()) return 0;  // a child's exit leaves its parent's states alone
        for (auto it = r.by_choice.begin(); it != r.by_choice.end();) {
            if (it->second.refs == 0) {
                idle.push_back(std::move(it->second.state));
                it = r.by_choice.erase(it);
            } else {
                ++it;
            }
        }
    }
    // Destroyed outside the lock: waiting for each device and writing its
    // pipeline cache hold up no other context.
    const unsigned n = unsigned(idle.size());
    idle.clear();
    return n;
}

SharedStateStats shared_state_stats()
{
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    SharedStateStats s;
    s.created = r.created;
    if (r.pid != 0 && r.pid != os::process_id()) return s;
    for (const auto &[key, sh] : r.by_choice) {
        s.live++;
        s.references += sh.refs;
        if (!sh.refs) s.idle++;
    }
    return s;
}

}  // namespace vmaf::vk
