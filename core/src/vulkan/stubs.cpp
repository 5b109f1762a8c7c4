// The Vulkan API in a library built without Vulkan: every call fails cleanly.
#include <cerrno>

#include "util/log.h"
#include "vulkan/api.h"

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
int list_devices(VmafVulkanDeviceInfo *, unsigned, unsigned *count)
{
    *count = 0;
    return unavailable("vmaf_vulkan_list_devices");
}
int available()
{
    log(VMAF_LOG_LEVEL_INFO, "vmaf_vulkan_available: this libvmaf was built without Vulkan\n");
    return -ENOSYS;
}

}  // namespace vmaf::vk
