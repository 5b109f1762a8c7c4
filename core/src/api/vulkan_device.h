// SPDX-License-Identifier: BSD-2-Clause-Patent
// What the C shims of <libvmaf/libvmaf_vulkan.h> (api/vulkan_api.cpp) call:
// api/vulkan_device.cpp with Vulkan, api/vulkan_stubs.cpp without.
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

// The zero-copy paths of a context (arguments already checked for null).
int context_preallocate(VmafContext *ctx, const VmafVulkanPictureConfiguration &cfg);
int context_fetch(VmafContext *ctx, VmafPicture *pic);
int context_read_imported(VmafContext *ctx, unsigned index);
int context_wait_compute(VmafContext *ctx);
int context_import_va_surface(VmafContext *ctx, unsigned side, void *display, unsigned surface, unsigned index);
#ifdef VK_VERSION_1_0
int state_adopt(const VmafVulkanExternalHandles &handles, State **out);
int context_import_image(VmafContext *ctx, unsigned side, const VmafVulkanImage &img, unsigned index);
int context_import_external(VmafContext *ctx, unsigned side, const VmafVulkanExternalPicture &pic, unsigned index);
#endif

}  // namespace vmaf::vk
