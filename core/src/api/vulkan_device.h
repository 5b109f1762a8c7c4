// SPDX-License-Identifier: BSD-2-Clause-Patent
// What the C shims of <libvmaf/libvmaf_vulkan.h> (api/vulkan_api.cpp) call for
// states and devices: api/vulkan_device.cpp with Vulkan, api/vulkan_stubs.cpp
// without. A context's Vulkan paths are its own (context/gpu_frames.h).
#pragma once

#include "libvmaf/libvmaf_vulkan.h"

namespace vmaf::vk {

class State;

int state_create(const VmafVulkanConfiguration &cfg, State **out);
void state_destroy(State *state);
// Contexts that imported the state and are still open.
unsigned state_users(const State *state);
int list_devices(VmafVulkanDeviceInfo *devices, unsigned capacity, unsigned *count);
int device_info(const State *state, VmafVulkanDeviceInfo *info);
int available();
#ifdef VK_VERSION_1_0
int state_adopt(const VmafVulkanExternalHandles &handles, State **out);
int enable_device_features(VkPhysicalDeviceFeatures2 *features, const VkPhysicalDeviceFeatures2 *supported);
#endif

}  // namespace vmaf::vk
