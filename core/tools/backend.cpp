#include "backend.h"

#include <cstdlib>
#include <cstring>

#if VMAF_CLI_HAVE_VULKAN
#include <cerrno>
#include <cstring>

#include "libvmaf/libvmaf_vulkan.h"
#endif

namespace vmaf::cli {

namespace {

std::string g_description = "cpu";

#if VMAF_CLI_HAVE_VULKAN
VmafVulkanState *g_state = nullptr;

// The state's own device (listing the devices again would create a second
// Vulkan instance: tens of milliseconds of a short run's start-up).
std::string device_name(const VmafVulkanState *state)
{
    VmafVulkanDeviceInfo info;
    return vmaf_vulkan_state_device_info(state, &info) == 0 ? info.name : "?";
}

// Create a device state (device `index`, or the library's automatic choice)
// and import it into the context.
int attach_vulkan(VmafContext *vmaf, int index, std::string *why)
{
    VmafVulkanConfiguration cfg{};
    cfg.device_index = index >= 0 ? index : VMAF_VULKAN_DEVICE_AUTO;
    if (int err = vmaf_vulkan_state_init(&g_state, cfg)) {
        *why = err == -ENODEV ? "no usable Vulkan device (no loader, no driver, or no device "
                                "with what the kernels need)"
                              : std::string("could not create a Vulkan device: ") + std::strerror(-err);
        return kExitSetup;
    }
    if (int err = vmaf_vulkan_import_state(vmaf, g_state)) {
        vmaf_vulkan_state_free(&g_state);
        *why = std::string("could not use the Vulkan device: ") + std::strerror(-err);
        return kExitSetup;
    }
    g_description = "vulkan (" + device_name(g_state) + ")";
    return 0;
}
#else
int attach_vulkan(VmafContext *, int, std::string *why)
{
    *why = "this vmaf was built without Vulkan (reconfigure with -Dvulkan=enabled)";
    return kExitSetup;
}
#endif

}  // namespace

int attach_backend(VmafContext *vmaf, Backend backend, int vulkan_device, std::string *err)
{
    if (backend == Backend::Cpu) return 0;
    std::string why;
    if (attach_vulkan(vmaf, vulkan_device, &why) == 0) return 0;
    if (backend == Backend::Auto) return 0;  // the CPU computes everything
    *err = "--backend vulkan: " + why;
    return kExitSetup;
}

void release_backend()
{
#if VMAF_CLI_HAVE_VULKAN
    if (g_state) vmaf_vulkan_state_free(&g_state);
#endif
}

bool vulkan_attached()
{
#if VMAF_CLI_HAVE_VULKAN
    return g_state != nullptr;
#else
    return false;
#endif
}

bool device_pictures_wanted()
{
    const char *v = std::getenv("VMAF_CLI_PICTURES");
    if (v && std::strcmp(v, "host") == 0) return false;
    if (v && std::strcmp(v, "device") == 0) return true;
    return true;
}

const std::string &backend_description()
{
    return g_description;
}

}  // namespace vmaf::cli
