// SPDX-License-Identifier: BSD-2-Clause-Patent
// vmaf_init_backend() (<libvmaf/libvmaf_vulkan.h>): argument checks, a context,
// then the one backend chooser (context/backend_select.h).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "api/export.h"
#include "api/guarded.h"
#include "api/vulkan_device.h"
#include "context/backend_select.h"
#include "context/context.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "util/log.h"

VMAF_EXPORT int vmaf_init_backend(VmafContext **vmaf, VmafConfiguration cfg, VmafBackend backend,
                                  VmafVulkanConfiguration device, VmafBackendChoice *chosen)
{
    // Taken as a number: a caller may pass any value, and the lambda must not
    // load an out-of-range enum.
    const unsigned raw = static_cast<unsigned>(backend);
    return vmaf::api::guarded(__func__, [&] {
        if (chosen) *chosen = VmafBackendChoice{};
        if (!vmaf) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_init_backend: vmaf is NULL\n");
            return -EINVAL;
        }
        *vmaf = nullptr;
        if (cfg.n_threads > 1024) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_init_backend: n_threads %u is out of range\n", cfg.n_threads);
            return -EINVAL;
        }
        vmaf::BackendRequest req;
        switch (raw) {
        case VMAF_BACKEND_CPU: req.mode = vmaf::BackendMode::Cpu; req.asker = "backend cpu"; break;
        case VMAF_BACKEND_VULKAN: req.mode = vmaf::BackendMode::Vulkan; req.asker = "backend vulkan"; break;
        case VMAF_BACKEND_AUTO: req.mode = vmaf::BackendMode::Auto; req.asker = "backend auto"; break;
        default:
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_init_backend: backend %u is not a backend; the values are "
                                            "VMAF_BACKEND_CPU, VMAF_BACKEND_VULKAN and VMAF_BACKEND_AUTO\n", raw);
            return -EINVAL;
        }
        if (req.mode != vmaf::BackendMode::Cpu) {
            if (device.device_index < VMAF_VULKAN_DEVICE_AUTO) {
                vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_init_backend: device_index %d is not a device; the values "
                                                "are 0 and up, or VMAF_VULKAN_DEVICE_AUTO (-1) for any\n",
                          device.device_index);
                return -EINVAL;
            }
            for (uint64_t r : device.reserved) {
                if (r) {
                    vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_init_backend: the device's reserved fields must be zero\n");
                    return -EINVAL;
                }
            }
            req.device = device;
        }
        std::unique_ptr<VmafContext> ctx(new VmafContext(cfg));
        vmaf::BackendOutcome out;
        const int err = vmaf::choose_backend(ctx->ctx, req, &out);
        if (chosen) {
            std::snprintf(chosen->reason, sizeof chosen->reason, "%s", out.reason.c_str());
            if (out.vulkan) {
                chosen->backend = VMAF_BACKEND_VULKAN;
                if (vmaf::vk::device_info(ctx->ctx.vulkan_state(), &chosen->device) != 0)
                    std::snprintf(chosen->device.name, sizeof chosen->device.name, "%s", out.device_name.c_str());
            }
        }
        if (err) return err;
        *vmaf = ctx.release();
        return 0;
    });
}
