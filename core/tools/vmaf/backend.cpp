// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "backend.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "libvmaf/libvmaf_vulkan.h"

namespace vmaf::cli {

namespace {

std::string g_description = "cpu";
bool g_vulkan = false;

// What prepare_context() asked for, and what its thread made.
VmafConfiguration g_cfg{};
bool g_chosen = false;
Backend g_backend = Backend::Cpu;
int g_device = -1;
std::thread g_preparing;
VmafContext *g_prepared = nullptr;
int g_prepared_err = 0;
VmafBackendChoice g_choice{};

VmafBackend library_backend(Backend b)
{
    switch (b) {
    case Backend::Vulkan: return VMAF_BACKEND_VULKAN;
    case Backend::Auto: return VMAF_BACKEND_AUTO;
    default: return VMAF_BACKEND_CPU;
    }
}

void create()
{
    VmafVulkanConfiguration dev{};
    dev.device_index = g_device >= 0 ? g_device : VMAF_VULKAN_DEVICE_AUTO;
    g_prepared_err = vmaf_init_backend(&g_prepared, g_cfg, library_backend(g_backend), dev, &g_choice);
}

}  // namespace

void prepare_context(const VmafConfiguration &cfg, bool chosen, Backend backend, int vulkan_device)
{
    g_cfg = cfg;
    g_chosen = chosen;
    g_backend = backend;
    g_device = vulkan_device;
    if (chosen && backend != Backend::Cpu) g_preparing = std::thread(create);
}

int take_context(VmafContext **vmaf, std::string *err)
{
    *vmaf = nullptr;
    if (!g_chosen) {
        if (int e = vmaf_init(vmaf, g_cfg)) {
            *err = std::string("could not create a VMAF context: ") + std::strerror(-e);
            return kExitSetup;
        }
        return 0;
    }
    if (g_preparing.joinable())
        g_preparing.join();
    else
        create();
    *vmaf = g_prepared;
    g_prepared = nullptr;
    if (g_prepared_err) {
        // The chooser's own line said why the backend cannot be used.
        if (!g_choice.reason[0])
            *err = std::string("could not create a VMAF context: ") + std::strerror(-g_prepared_err);
        return kExitSetup;
    }
    if (g_choice.backend == VMAF_BACKEND_VULKAN) {
        g_vulkan = true;
        g_description = std::string("vulkan (") + g_choice.device.name + ")";
    }
    return 0;
}

void release_backend()
{
    if (g_preparing.joinable()) g_preparing.join();  // made, never taken (the run failed before)
    if (g_prepared) vmaf_close(g_prepared);
    g_prepared = nullptr;
}

bool vulkan_attached()
{
    return g_vulkan;
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
