// The Vulkan side of the public API: configuration -> State, device listing.
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/log.h"
#include "vulkan/api.h"
#include "vulkan/context.h"

namespace vmaf::vk {

int state_create(const VmafVulkanConfiguration &c, State **out)
{
    Config cfg;
    cfg.device_index = c.device_index;
    if (c.device_name) cfg.device_name = c.device_name;
    cfg.validation = c.enable_validation != 0;
    cfg.frames_in_flight = c.frames_in_flight ? c.frames_in_flight : kDefaultFramesInFlight;
    std::unique_ptr<State> s;
    if (int err = State::create(cfg, &s)) return err;
    *out = s.release();
    return 0;
}

void state_destroy(State *state) { delete state; }

int list_devices(VmafVulkanDeviceInfo *devices, unsigned capacity, unsigned *count)
{
    std::vector<DeviceInfo> all;
    if (int err = State::list_devices(&all)) return err;
    *count = unsigned(all.size());
    for (unsigned i = 0; i < std::min(capacity, *count); i++) {
        VmafVulkanDeviceInfo &d = devices[i];
        std::memset(&d, 0, sizeof(d));
        std::strncpy(d.name, all[i].name.c_str(), sizeof(d.name) - 1);
        d.vendor_id = all[i].vendor_id;
        d.device_id = all[i].device_id;
        d.type = VmafVulkanDeviceType(all[i].type);
        d.api_version = all[i].api_version;
        d.usable = all[i].usable();
    }
    return 0;
}

int available()
{
    std::vector<DeviceInfo> all;
    if (int err = State::list_devices(&all)) return err;
    const int usable = int(std::count_if(all.begin(), all.end(), [](const DeviceInfo &d) { return d.usable(); }));
    if (!usable) {
        log(VMAF_LOG_LEVEL_INFO, "Vulkan: no usable device (%zu listed)\n", all.size());
        return -ENODEV;
    }
    return usable;
}

}  // namespace vmaf::vk
