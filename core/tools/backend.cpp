// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "backend.h"

#include <cstdlib>
#include <cstring>

#if VMAF_CLI_HAVE_VULKAN
#include <cerrno>
#include <cstring>
#include <thread>

#include "libvmaf/libvmaf_vulkan.h"
#endif

namespace vmaf::cli {

namespace {

std::string g_description = "cpu";

#if VMAF_CLI_HAVE_VULKAN
VmafVulkanState *g_state = nullptr;
// prepare_backend()'s thread and what it made: a state, or its error.
std::thread g_preparing;
VmafVulkanState *g_prepared = nullptr;
int g_prepared_err = 0;

int create_state(int index, VmafVulkanState **out)
{
    VmafVulkanConfiguration cfg{};
    cfg.device_index = index >= 0 ? index : VMAF_VULKAN_DEVICE_AUTO;
    return vmaf_vulkan_state_init(out, cfg);
}

// The state prepare_backend() started, or a new one.
int take_state(int index, VmafVulkanState **out)
{
    if (!g_preparing.joinable()) return create_state(index, out);
    g_preparing.join();
    *out = g_prepared;
    g_prepared = nullptr;
    return g_prepared_err;
}

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
    if (int err = take_state(index, &g_state)) {
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

void prepare_backend(Backend backend, int vulkan_device)
{
#if VMAF_CLI_HAVE_VULKAN
    if (backend == Backend::Cpu || g_preparing.joinable() || g_state) return;
    g_preparing = std::thread([vulkan_device] { g_prepared_err = create_state(vulkan_device, &g_prepared); });
#else
    (void)backend;
    (void)vulkan_device;
#endif
}

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
    if (g_preparing.joinable()) g_preparing.join();  // made, never attached (the run failed before)
    if (g_prepared) vmaf_vulkan_state_free(&g_prepared);
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
