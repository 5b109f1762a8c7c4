#include "vulkan/vaapi.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "util/log.h"

#if VMAF_HAVE_VAAPI
#include <va/va.h>
#include <va/va_drmcommon.h>
#endif

namespace vmaf::vk {

VaExport::~VaExport()
{
    for (unsigned i = 0; i < picture.n_objects; i++)
        if (picture.objects[i].fd >= 0) close(picture.objects[i].fd);
}

#if VMAF_HAVE_VAAPI

bool vaapi_built() { return true; }

namespace {

// The surface formats the library reads: chroma layout, depth, planes.
struct VaFormat {
    uint32_t fourcc;
    VmafPixelFormat pix_fmt;
    unsigned bpc, planes;
    bool msb_aligned, swap_chroma;
};

constexpr VaFormat kVaFormats[] = {
    {VA_FOURCC_NV12, VMAF_PIX_FMT_YUV420P, 8, 2, false, false},
    {VA_FOURCC_P010, VMAF_PIX_FMT_YUV420P, 10, 2, true, false},
    {VA_FOURCC_P012, VMAF_PIX_FMT_YUV420P, 12, 2, true, false},
    {VA_FOURCC_P016, VMAF_PIX_FMT_YUV420P, 16, 2, true, false},
    {VA_FOURCC_I420, VMAF_PIX_FMT_YUV420P, 8, 3, false, false},
    {VA_FOURCC_YV12, VMAF_PIX_FMT_YUV420P, 8, 3, false, true},
    {VA_FOURCC_444P, VMAF_PIX_FMT_YUV444P, 8, 3, false, false},
    {VA_FOURCC_Y800, VMAF_PIX_FMT_YUV400P, 8, 1, false, false},
};

int va_failed(const char *call, VAStatus s)
{
    log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_va_surface: %s: %s\n", call, vaErrorStr(s));
    const bool bad_argument = s == VA_STATUS_ERROR_INVALID_DISPLAY || s == VA_STATUS_ERROR_INVALID_SURFACE;
    return bad_argument ? -EINVAL : -EIO;
}

}  // namespace

int export_va_surface(void *display, unsigned surface, VaExport *out)
{
    constexpr const char *what = "vmaf_vulkan_import_va_surface";
    if (!display) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: no VADisplay\n", what);
        return -EINVAL;
    }
    const VADisplay dpy = display;
    if (VAStatus s = vaSyncSurface(dpy, surface); s != VA_STATUS_SUCCESS) return va_failed("vaSyncSurface", s);
    VADRMPRIMESurfaceDescriptor d{};
    const VAStatus s = vaExportSurfaceHandle(dpy, surface, VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME_2,
                                             VA_EXPORT_SURFACE_READ_ONLY | VA_EXPORT_SURFACE_COMPOSED_LAYERS, &d);
    if (s != VA_STATUS_SUCCESS) return va_failed("vaExportSurfaceHandle", s);

    // From here the fds are ours: `out` closes them.
    VmafVulkanExternalPicture &p = out->picture;
    p.type = VMAF_VULKAN_EXTERNAL_MEMORY_DMA_BUF;
    p.n_objects = std::min<uint32_t>(d.num_objects, VMAF_VULKAN_MAX_IMAGES);
    for (uint32_t i = d.num_objects; i-- > p.n_objects;) close(d.objects[i].fd);  // more than we describe
    for (unsigned i = 0; i < p.n_objects; i++) {
        p.objects[i].fd = d.objects[i].fd;
        p.objects[i].size = d.objects[i].size;
    }
    const VaFormat *f = nullptr;
    for (const VaFormat &v : kVaFormats)
        if (v.fourcc == d.fourcc) f = &v;
    if (!f || d.num_layers != 1 || d.layers[0].num_planes != f->planes || d.num_objects > VMAF_VULKAN_MAX_IMAGES) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: surface fourcc 0x%08x with %u layer(s), %u object(s) is not a layout the "
                                  "library reads\n", what, d.fourcc, d.num_layers, d.num_objects);
        return -ENOTSUP;
    }
    for (unsigned i = 1; i < p.n_objects; i++) {
        if (d.objects[i].drm_format_modifier != d.objects[0].drm_format_modifier) {
            log(VMAF_LOG_LEVEL_ERROR, "%s: the surface's objects have different modifiers\n", what);
            return -ENOTSUP;
        }
    }
    p.drm_format_modifier = d.objects[0].drm_format_modifier;
    p.width = d.width;
    p.height = d.height;
    p.bpc = f->bpc;
    p.pix_fmt = f->pix_fmt;
    p.msb_aligned = f->msb_aligned;
    p.n_planes = f->planes;
    for (unsigned i = 0; i < f->planes; i++) {
        // YV12 stores Cr before Cb.
        const unsigned from = f->swap_chroma && i ? 3 - i : i;
        p.planes[i].object = d.layers[0].object_index[from];
        p.planes[i].offset = d.layers[0].offset[from];
        p.planes[i].pitch = d.layers[0].pitch[from];
    }
    return 0;
}

#else

bool vaapi_built() { return false; }

int export_va_surface(void *, unsigned, VaExport *) { return -ENOSYS; }

#endif

}  // namespace vmaf::vk
