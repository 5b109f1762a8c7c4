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
int context_stats(State *, const Engine *, VmafVulkanContextStats *)
{
    return unavailable("vmaf_vulkan_context_stats");
}
void profile_enable(State *) {}
int profile_read(const Engine *, uint64_t *, double *, VmafVulkanProfileInterval *, unsigned, unsigned *count)
{
    *count = 0;
    return unavailable("vmaf_vulkan_profile");
}
int feature_on_gpu(const Engine *, const char *) { return unavailable("vmaf_vulkan_feature_on_gpu"); }
#ifdef VK_VERSION_1_0
int state_adopt(const VmafVulkanExternalHandles &, State **) { return unavailable("vmaf_vulkan_state_init_external"); }
int enable_device_features(VkPhysicalDeviceFeatures2 *, const VkPhysicalDeviceFeatures2 *)
{
    return unavailable("vmaf_vulkan_enable_device_features");
}
#endif
int available()
{
    log(VMAF_LOG_LEVEL_INFO, "vmaf_vulkan_available: this libvmaf was built without Vulkan\n");
    return -ENOSYS;
}

}  // namespace vmaf::vk
