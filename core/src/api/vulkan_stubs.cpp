// SPDX-License-Identifier: BSD-2-Clause-Patent
// The Vulkan API in a library built without Vulkan: every call fails cleanly.
#include <cerrno>

#include "util/log.h"
#include "api/vulkan_device.h"

namespace vmaf::vk {

namespace {
int unavailable(const char *what)
{
    log(VMAF_LOG_LEVEL_ERROR, "%s: this libvmaf was built without Vulkan\n", what);
    return -ENOSYS;
}
}  // namespace

int state_create(const VmafVulkanConfiguration &, State **) { return unavailable("vmaf_vulkan_state_init"); }
void state_destroy(State *) {}
unsigned state_users(const State *) { return 0; }
int list_devices(VmafVulkanDeviceInfo *, unsigned, unsigned *count)
{
    *count = 0;
    return unavailable("vmaf_vulkan_list_devices");
}
int device_info(const State *, VmafVulkanDeviceInfo *) { return unavailable("vmaf_vulkan_state_device_info"); }
int context_preallocate(VmafContext *, const VmafVulkanPictureConfiguration &)
{
    return unavailable("vmaf_vulkan_preallocate_pictures");
}
int context_fetch(VmafContext *, VmafPicture *) { return unavailable("vmaf_vulkan_picture_fetch"); }
int context_read_imported(VmafContext *, unsigned) { return unavailable("vmaf_vulkan_read_imported_pictures"); }
int context_wait_compute(VmafContext *) { return unavailable("vmaf_vulkan_wait_compute"); }
int context_import_va_surface(VmafContext *, unsigned, void *, unsigned, unsigned)
{
    return unavailable("vmaf_vulkan_import_va_surface");
}
#ifdef VK_VERSION_1_0
int state_adopt(const VmafVulkanExternalHandles &, State **) { return unavailable("vmaf_vulkan_state_init_external"); }
int context_import_image(VmafContext *, unsigned, const VmafVulkanImage &, unsigned)
{
    return unavailable("vmaf_vulkan_import_image");
}
int context_import_external(VmafContext *, unsigned, const VmafVulkanExternalPicture &, unsigned)
{
    return unavailable("vmaf_vulkan_import_external");
}
#endif
int available()
{
    log(VMAF_LOG_LEVEL_INFO, "vmaf_vulkan_available: this libvmaf was built without Vulkan\n");
    return -ENOSYS;
}

}  // namespace vmaf::vk
