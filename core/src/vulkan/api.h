// What the C shims of <libvmaf/libvmaf_vulkan.h> (api/vulkan_api.cpp) call:
// vulkan/device_api.cpp with Vulkan, vulkan/stubs.cpp without.
#pragma once

#include "libvmaf/libvmaf_vulkan.h"

namespace vmaf::vk {

class State;

int state_create(const VmafVulkanConfiguration &cfg, State **out);
void state_destroy(State *state);
int list_devices(VmafVulkanDeviceInfo *devices, unsigned capacity, unsigned *count);
int available();

}  // namespace vmaf::vk
