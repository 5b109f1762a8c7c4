#include "backend.h"

namespace vmaf::cli {

namespace {

std::string g_description = "cpu";

// The Vulkan half of attach_backend. Builds with Vulkan create a device state
// (the device given by index, or the first suitable one), import it into the
// context, and set g_description; until that is wired, and in builds without
// Vulkan, this reports why Vulkan cannot be used.
int attach_vulkan(VmafContext *, int, std::string *why)
{
#if VMAF_CLI_HAVE_VULKAN
    *why = "the vmaf tool does not drive the Vulkan backend yet";
#else
    *why = "this vmaf was built without Vulkan (reconfigure with -Dvulkan=enabled)";
#endif
    return kExitSetup;
}

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

void release_backend() {}

const std::string &backend_description()
{
    return g_description;
}

}  // namespace vmaf::cli
