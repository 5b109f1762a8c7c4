// SPDX-License-Identifier: BSD-2-Clause-Patent
// VA-API surfaces as DMA-BUFs (vmaf_vulkan_import_va_surface). Built with libva's
// headers when the meson option vaapi finds them; otherwise vaapi_built() is false
// and the import says so. Nothing links libva: the first import opens it at run time
// (dlopen, kLibva), so the library loads where libva is not installed (adr/0070).
#pragma once

#include "libvmaf/libvmaf_vulkan.h"

namespace vmaf::vk {

bool vaapi_built();

// The libva the import opens.
inline constexpr const char *kLibva = "libva.so.2";

// Opens `soname` and finds the libva entry points the import calls; closes it again.
// 0, or -ENOSYS with one error line naming the library and why (absent, or lacking
// a function): what an import answers on a machine without libva. -ENOSYS also
// where vaapi_built() is false.
int probe_libva(const char *soname);

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

// vaSyncSurface, then vaExportSurfaceHandle (read-only, composed layers), through
// kLibva, opened on the first call and kept open. -EINVAL for a null display or a
// surface libva rejects, -ENOSYS when kLibva cannot be opened (probe_libva), -ENOTSUP
// for a layout the library does not read, -EIO for other libva failures.
int export_va_surface(void *display, unsigned surface, VaExport *out);
#endif

}  // namespace vmaf::vk
