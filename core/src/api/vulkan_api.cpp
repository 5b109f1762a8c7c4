// <libvmaf/libvmaf_vulkan.h>: argument checks, then vulkan/api.h.
#include <cerrno>
#include <new>

#include "api/export.h"
#include "context/context.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "util/log.h"
#include "vulkan/api.h"

struct VmafVulkanState {
    vmaf::vk::State *state;
};

VMAF_EXPORT int vmaf_vulkan_state_init(VmafVulkanState **state, VmafVulkanConfiguration cfg)
{
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
}

VMAF_EXPORT int vmaf_vulkan_import_state(VmafContext *vmaf, VmafVulkanState *state)
{
    if (!vmaf || !state) return -EINVAL;
    return vmaf::context_import_vulkan_state(vmaf, state->state);
}

VMAF_EXPORT int vmaf_vulkan_state_free(VmafVulkanState **state)
{
    if (!state) return -EINVAL;
    if (*state) {
        vmaf::vk::state_destroy((*state)->state);
        delete *state;
        *state = nullptr;
    }
    return 0;
}

VMAF_EXPORT int vmaf_vulkan_list_devices(VmafVulkanDeviceInfo *devices, unsigned capacity, unsigned *count)
{
    if (!count || (capacity && !devices)) return -EINVAL;
    *count = 0;
    return vmaf::vk::list_devices(devices, capacity, count);
}

VMAF_EXPORT int vmaf_vulkan_available(void)
{
    return vmaf::vk::available();
}

// The zero-copy entry points: declared, implemented in the commits that follow.
namespace {
int not_yet(const char *what)
{
    vmaf::log(VMAF_LOG_LEVEL_ERROR, "%s: not implemented yet\n", what);
    return -ENOSYS;
}
}  // namespace

VMAF_EXPORT int vmaf_vulkan_state_init_external(VmafVulkanState **, VmafVulkanExternalHandles)
{
    return not_yet("vmaf_vulkan_state_init_external");
}
VMAF_EXPORT int vmaf_vulkan_preallocate_pictures(VmafContext *, VmafVulkanPictureConfiguration)
{
    return not_yet("vmaf_vulkan_preallocate_pictures");
}
VMAF_EXPORT int vmaf_vulkan_picture_fetch(VmafContext *, VmafPicture *) { return not_yet("vmaf_vulkan_picture_fetch"); }
VMAF_EXPORT int vmaf_vulkan_wait_compute(VmafContext *) { return not_yet("vmaf_vulkan_wait_compute"); }
VMAF_EXPORT int vmaf_vulkan_read_imported_pictures(VmafContext *, unsigned)
{
    return not_yet("vmaf_vulkan_read_imported_pictures");
}
VMAF_EXPORT int vmaf_vulkan_import_image(VmafContext *, VmafVulkanImportSide, const VmafVulkanImage *, unsigned)
{
    return not_yet("vmaf_vulkan_import_image");
}
VMAF_EXPORT int vmaf_vulkan_import_external(VmafContext *, VmafVulkanImportSide, const VmafVulkanExternalPicture *,
                                            unsigned)
{
    return not_yet("vmaf_vulkan_import_external");
}
VMAF_EXPORT int vmaf_vulkan_import_va_surface(VmafContext *, VmafVulkanImportSide, void *, unsigned, unsigned)
{
    return not_yet("vmaf_vulkan_import_va_surface");
}
