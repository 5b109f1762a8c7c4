// SPDX-License-Identifier: BSD-2-Clause-Patent
// The Vulkan side of the public API: configuration -> State, device listing.
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/log.h"
#include "api/vulkan_device.h"
#include "vulkan/state.h"

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

int state_adopt(const VmafVulkanExternalHandles &h, State **out)
{
    ExternalDevice ext;
    ext.instance = h.instance;
    ext.physical = h.physical_device;
    ext.device = h.device;
    ext.get_instance_proc_addr = h.get_instance_proc_addr;
    ext.queue_family = h.queue_family_index;
    ext.queue_index = h.queue_index;
    ext.lock = {h.lock_queue, h.unlock_queue, h.lock_opaque};
    ext.enabled_features = h.enabled_features;
    for (unsigned i = 0; i < h.n_enabled_extensions; i++)
        if (h.enabled_extensions[i]) ext.extensions.emplace_back(h.enabled_extensions[i]);
    ext.api_version = h.api_version;
    ext.frames_in_flight = h.max_outstanding_frames ? h.max_outstanding_frames : kDefaultFramesInFlight;
    std::unique_ptr<State> s;
    if (int err = State::adopt(ext, &s)) return err;
    *out = s.release();
    return 0;
}

void state_destroy(State *state)
{
    if (state && state->hung()) {
        // Destroying a device the GPU still works for is undefined: keep it.
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: the GPU is hung: the device of this state is not destroyed\n");
        return;
    }
    delete state;
}
unsigned state_users(const State *state) { return state->attached(); }

namespace {
void describe(const DeviceInfo &in, VmafVulkanDeviceInfo *out)
{
    VmafVulkanDeviceInfo &d = *out;
    std::memset(&d, 0, sizeof(d));
    std::strncpy(d.name, in.name.c_str(), sizeof(d.name) - 1);
    d.vendor_id = in.vendor_id;
    d.device_id = in.device_id;
    d.type = VmafVulkanDeviceType(in.type);
    d.api_version = in.api_version;
    d.usable = in.usable();
    std::memcpy(d.uuid, in.uuid, sizeof(d.uuid));
}
}  // namespace

int list_devices(VmafVulkanDeviceInfo *devices, unsigned capacity, unsigned *count)
{
    std::vector<DeviceInfo> all;
    if (int err = State::list_devices(&all)) return err;
    *count = unsigned(all.size());
    for (unsigned i = 0; i < std::min(capacity, *count); i++) describe(all[i], &devices[i]);
    return 0;
}

int device_info(const State *state, VmafVulkanDeviceInfo *info)
{
    describe(state->info(), info);
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
