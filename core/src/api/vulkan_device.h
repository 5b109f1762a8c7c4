// SPDX-License-Identifier: BSD-2-Clause-Patent
// What the C shims of <libvmaf/libvmaf_vulkan.h> (api/vulkan_api.cpp) call for
// states and devices: api/vulkan_device.cpp with Vulkan, api/vulkan_stubs.cpp
// without. A context's Vulkan paths are its own (context/gpu_frames.h).
#pragma once

#include "libvmaf/libvmaf_vulkan.h"

namespace vmaf::vk {

class State;
class Engine;

int state_create(const VmafVulkanConfiguration &cfg, State **out);
void state_destroy(State *state);
// Contexts that imported the state and are still open.
unsigned state_users(const State *state);
int list_devices(VmafVulkanDeviceInfo *devices, unsigned capacity, unsigned *count);
int device_info(const State *state, VmafVulkanDeviceInfo *info);
int available();
// A context's GPU figures (`engine` null before it starts): every member of
// `out` but size.
int context_stats(State *state, const Engine *engine, VmafVulkanContextStats *out);
void profile_enable(State *state);
int profile_read(const Engine *engine, uint64_t *frames, double *total_ms, VmafVulkanProfileInterval *intervals,
                 unsigned capacity, unsigned *count);
// 1 when the engine runs the extractor, else 0.
int feature_on_gpu(const Engine *engine, const char *extractor);
#ifdef VK_VERSION_1_0
int state_adopt(const VmafVulkanExternalHandles &handles, State **out);
int enable_device_features(VkPhysicalDeviceFeatures2 *features, const VkPhysicalDeviceFeatures2 *supported);
#endif

}  // namespace vmaf::vk
