// SPDX-License-Identifier: BSD-2-Clause-Patent
// <libvmaf/libvmaf_vulkan.h>: argument checks, then api/vulkan_device.h (states,
// devices) or the context's own Vulkan paths (context/gpu_frames.h).
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <new>

#include "api/export.h"
#include "api/guarded.h"
#include "context/context.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "util/log.h"
#include "api/vulkan_device.h"

struct VmafVulkanState {
    vmaf::vk::State *state;
};

VMAF_EXPORT int vmaf_vulkan_state_init(VmafVulkanState **state, VmafVulkanConfiguration cfg)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!state) return -EINVAL;
        *state = nullptr;
        for (uint64_t r : cfg.reserved) {
            if (r) {
                vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_state_init: reserved fields must be zero\n");
                return -EINVAL;
            }
        }
        if (cfg.device_index < VMAF_VULKAN_DEVICE_AUTO) return -EINVAL;
        vmaf::vk::State *s = nullptr;
        if (int err = vmaf::vk::state_create(cfg, &s)) return err;
        *state = new (std::nothrow) VmafVulkanState{s};
        if (!*state) {
            vmaf::vk::state_destroy(s);
            return -ENOMEM;
        }
        return 0;
    });
}

VMAF_EXPORT int vmaf_vulkan_import_state(VmafContext *vmaf, VmafVulkanState *state)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf || !state) return -EINVAL;
        return vmaf::context_import_vulkan_state(vmaf, state->state);
    });
}

VMAF_EXPORT int vmaf_vulkan_state_free(VmafVulkanState **state)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!state) return -EINVAL;
        if (*state) {
            if (const unsigned n = vmaf::vk::state_users((*state)->state)) {
                vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_state_free: %u context(s) still use this state; "
                                                "close them first\n", n);
                return -EBUSY;
            }
            vmaf::vk::state_destroy((*state)->state);
            delete *state;
            *state = nullptr;
        }
        return 0;
    });
}

VMAF_EXPORT int vmaf_vulkan_list_devices(VmafVulkanDeviceInfo *devices, unsigned capacity, unsigned *count)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!count || (capacity && !devices)) return -EINVAL;
        *count = 0;
        return vmaf::vk::list_devices(devices, capacity, count);
    });
}

VMAF_EXPORT int vmaf_vulkan_state_device_info(const VmafVulkanState *state, VmafVulkanDeviceInfo *info)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!state || !info) return -EINVAL;
        return vmaf::vk::device_info(state->state, info);
    });
}

VMAF_EXPORT int vmaf_vulkan_available(void)
{
    return vmaf::api::guarded(__func__, [&] {
        return vmaf::vk::available();
    });
}

namespace {

// Takes the side as a number: a caller may pass any value, and the lambdas of
// the exports must not load an out-of-range enum (undefined behaviour).
bool side_ok(unsigned side)
{
    if (side == VMAF_VULKAN_IMPORT_REFERENCE || side == VMAF_VULKAN_IMPORT_DISTORTED) return true;
    vmaf::log(VMAF_LOG_LEVEL_ERROR, "Vulkan import: side must be VMAF_VULKAN_IMPORT_REFERENCE or _DISTORTED\n");
    return false;
}

}  // namespace

VMAF_EXPORT int vmaf_vulkan_preallocate_pictures(VmafContext *vmaf, VmafVulkanPictureConfiguration cfg)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf) return -EINVAL;
        return vmaf->ctx.vulkan_preallocate_pictures(cfg);
    });
}

VMAF_EXPORT int vmaf_vulkan_picture_fetch(VmafContext *vmaf, VmafPicture *pic)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf || !pic) return -EINVAL;
        return vmaf->ctx.vulkan_fetch_picture(pic);
    });
}

VMAF_EXPORT int vmaf_vulkan_wait_compute(VmafContext *vmaf)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf) return -EINVAL;
        return vmaf->ctx.vulkan_wait_compute();
    });
}

VMAF_EXPORT int vmaf_vulkan_read_imported_pictures(VmafContext *vmaf, unsigned index)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf) return -EINVAL;
        return vmaf->ctx.vulkan_read_imported(index);
    });
}

VMAF_EXPORT int vmaf_vulkan_import_va_surface(VmafContext *vmaf, VmafVulkanImportSide side, void *va_display,
                                              unsigned va_surface, unsigned index)
{
    const unsigned raw_side = static_cast<unsigned>(side);
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf || !side_ok(raw_side)) return -EINVAL;
        vmaf::GpuImport src;
        src.kind = vmaf::GpuImport::Kind::VaSurface;
        src.va_display = va_display;
        src.va_surface = va_surface;
        return vmaf->ctx.vulkan_import(raw_side, src, index);
    });
}

#ifdef VK_VERSION_1_0

VMAF_EXPORT int vmaf_vulkan_enable_device_features(VkPhysicalDeviceFeatures2 *features,
                                                   const VkPhysicalDeviceFeatures2 *supported)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!features) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_enable_device_features: features is NULL\n");
            return -EINVAL;
        }
        return vmaf::vk::enable_device_features(features, supported);
    });
}

VMAF_EXPORT int vmaf_vulkan_state_init_external(VmafVulkanState **state, VmafVulkanExternalHandles handles)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!state) return -EINVAL;
        *state = nullptr;
        for (uint64_t r : handles.reserved) {
            if (r) {
                vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_state_init_external: reserved fields must be zero\n");
                return -EINVAL;
            }
        }
        if (handles.n_enabled_extensions && !handles.enabled_extensions) return -EINVAL;
        vmaf::vk::State *s = nullptr;
        if (int err = vmaf::vk::state_adopt(handles, &s)) return err;
        *state = new (std::nothrow) VmafVulkanState{s};
        if (!*state) {
            vmaf::vk::state_destroy(s);
            return -ENOMEM;
        }
        return 0;
    });
}

VMAF_EXPORT int vmaf_vulkan_import_image(VmafContext *vmaf, VmafVulkanImportSide side, const VmafVulkanImage *image,
                                         unsigned index)
{
    const unsigned raw_side = static_cast<unsigned>(side);
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf || !image || !side_ok(raw_side)) return -EINVAL;
        vmaf::GpuImport src;
        src.kind = vmaf::GpuImport::Kind::Image;
        src.image = image;
        return vmaf->ctx.vulkan_import(raw_side, src, index);
    });
}

VMAF_EXPORT int vmaf_vulkan_import_external(VmafContext *vmaf, VmafVulkanImportSide side,
                                            const VmafVulkanExternalPicture *picture, unsigned index)
{
    const unsigned raw_side = static_cast<unsigned>(side);
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf || !picture || !side_ok(raw_side)) return -EINVAL;
        vmaf::GpuImport src;
        src.kind = vmaf::GpuImport::Kind::External;
        src.external = picture;
        return vmaf->ctx.vulkan_import(raw_side, src, index);
    });
}

#endif

VMAF_EXPORT int vmaf_vulkan_context_stats(VmafContext *vmaf, VmafVulkanContextStats *stats)
{
    return vmaf::api::guarded(__func__, [&] {
        // The members up to has_state are the least a caller's struct holds.
        constexpr size_t least = offsetof(VmafVulkanContextStats, has_state) + sizeof(int);
        if (!vmaf || !stats || stats->size < least) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_context_stats: %s\n",
                      !vmaf || !stats ? "vmaf and stats must not be NULL"
                                      : "stats->size must be set to sizeof(VmafVulkanContextStats)");
            return -EINVAL;
        }
        VmafVulkanContextStats all{};
        if (int err = vmaf::vk::context_stats(vmaf->ctx.vulkan_state(), vmaf->ctx.vulkan_engine(), &all)) return err;
        const size_t size = stats->size;
        all.size = size;
        std::memcpy(stats, &all, std::min(size, sizeof all));
        return 0;
    });
}

VMAF_EXPORT int vmaf_vulkan_profile_enable(VmafContext *vmaf)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_profile_enable: vmaf must not be NULL\n");
            return -EINVAL;
        }
        vmaf::vk::State *state = vmaf->ctx.vulkan_state();
        if (!state) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_profile_enable: the context has no Vulkan state "
                                            "(vmaf_vulkan_import_state first)\n");
            return vmaf_vulkan_available() == -ENOSYS ? -ENOSYS : -ENODEV;
        }
        if (vmaf->ctx.vulkan_engine()) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_profile_enable: the GPU engine already started "
                                            "(enable it before the first picture)\n");
            return -EBUSY;
        }
        vmaf::vk::profile_enable(state);
        return 0;
    });
}

VMAF_EXPORT int vmaf_vulkan_profile(VmafContext *vmaf, uint64_t *frames, double *total_ms,
                                    VmafVulkanProfileInterval *intervals, unsigned capacity, unsigned *count)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf || !count || (capacity && !intervals)) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_profile: vmaf and count must not be NULL, nor intervals "
                                            "with a capacity (%u)\n", capacity);
            return -EINVAL;
        }
        return vmaf::vk::profile_read(vmaf->ctx.vulkan_engine(), frames, total_ms, intervals, capacity, count);
    });
}

VMAF_EXPORT int vmaf_vulkan_feature_on_gpu(VmafContext *vmaf, const char *extractor)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf || !extractor) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_feature_on_gpu: vmaf and extractor must not be NULL\n");
            return -EINVAL;
        }
        return vmaf::vk::feature_on_gpu(vmaf->ctx.vulkan_engine(), extractor);
    });
}
