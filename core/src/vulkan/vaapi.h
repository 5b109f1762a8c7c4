// VA-API surfaces as DMA-BUFs (vmaf_vulkan_import_va_surface). Built with libva
// when the meson option vaapi finds it; otherwise vaapi_built() is false and the
// import says so.
#pragma once

#include "libvmaf/libvmaf_vulkan.h"

namespace vmaf::vk {

bool vaapi_built();

#ifdef VK_VERSION_1_0
// A surface exported as DRM PRIME 2 and described for vmaf_vulkan_import_external;
// closes the exported fds when it goes.
struct VaExport {
    VmafVulkanExternalPicture picture{};
    VaExport() = default;
    ~VaExport();
    VaExport(const VaExport &) = delete;
    VaExport &operator=(const VaExport &) = delete;
};

// vaSyncSurface, then vaExportSurfaceHandle (read-only, composed layers).
// -EINVAL for a null display or a surface libva rejects, -ENOTSUP for a layout
// the library does not read, -EIO for other libva failures.
int export_va_surface(void *display, unsigned surface, VaExport *out);
#endif

}  // namespace vmaf::vk
