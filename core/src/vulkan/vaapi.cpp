// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/vaapi.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "util/log.h"

#if VMAF_HAVE_VAAPI
#include <dlfcn.h>

#include <mutex>
#include <string>
#include <type_traits>

// Only for the types and prototypes: the functions are reached through dlsym.
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

constexpr const char *kWhat = "vmaf_vulkan_import_va_surface";

// The libva functions the import calls, with libva's own prototypes.
struct Libva {
    void *handle = nullptr;
    decltype(&vaSyncSurface) sync_surface = nullptr;
    decltype(&vaExportSurfaceHandle) export_surface_handle = nullptr;
    decltype(&vaErrorStr) error_str = nullptr;
};

// Opens `soname` and resolves every function into `lib`: an empty string, or why not
// (the handle is then closed again).
std::string open_libva(const char *soname, Libva *lib)
{
    void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        return std::string("cannot open ") + soname + " (" + (e ? e : "no reason given") +
               "); importing VA-API surfaces needs libva 2 installed";
    }
    const auto resolve = [h, soname](const char *name, auto *slot) -> std::string {
        dlerror();
        void *p = dlsym(h, name);
        if (!p) return std::string(soname) + " has no " + name + " (libva 2.1 or later is needed)";
        *slot = reinterpret_cast<std::remove_pointer_t<decltype(slot)>>(p);
        return {};
    };
    std::string why = resolve("vaSyncSurface", &lib->sync_surface);
    if (why.empty()) why = resolve("vaExportSurfaceHandle", &lib->export_surface_handle);
    if (why.empty()) why = resolve("vaErrorStr", &lib->error_str);
    if (!why.empty()) {
        dlclose(h);
        *lib = Libva{};
        return why;
    }
    lib->handle = h;
    return {};
}

// kLibva, opened on the first import and kept for the process (as volk keeps the
// Vulkan loader); null after the error line when it cannot be opened.
const Libva *libva()
{
    static std::once_flag once;
    static Libva lib;
    static std::string why;
    std::call_once(once, [] { why = open_libva(kLibva, &lib); });
    if (!why.empty()) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: %s\n", kWhat, why.c_str());
        return nullptr;
    }
    return &lib;
}

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

int va_failed(const Libva &va, const char *call, VAStatus s)
{
    log(VMAF_LOG_LEVEL_ERROR, "%s: %s: %s\n", kWhat, call, va.error_str(s));
    const bool bad_argument = s == VA_STATUS_ERROR_INVALID_DISPLAY || s == VA_STATUS_ERROR_INVALID_SURFACE;
    return bad_argument ? -EINVAL : -EIO;
}

}  // namespace

int probe_libva(const char *soname)
{
    Libva lib;
    const std::string why = open_libva(soname, &lib);
    if (!why.empty()) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: %s\n", kWhat, why.c_str());
        return -ENOSYS;
    }
    dlclose(lib.handle);
    return 0;
}

int export_va_surface(void *display, unsigned surface, VaExport *out)
{
    if (!display) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: no VADisplay\n", kWhat);
        return -EINVAL;
    }
    const Libva *va = libva();
    if (!va) return -ENOSYS;
    const VADisplay dpy = display;
    if (VAStatus s = va->sync_surface(dpy, surface); s != VA_STATUS_SUCCESS)
        return va_failed(*va, "vaSyncSurface", s);
    VADRMPRIMESurfaceDescriptor d{};
    const VAStatus s = va->export_surface_handle(dpy, surface, VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME_2,
                                                 VA_EXPORT_SURFACE_READ_ONLY | VA_EXPORT_SURFACE_COMPOSED_LAYERS,
                                                 &d);
    if (s != VA_STATUS_SUCCESS) return va_failed(*va, "vaExportSurfaceHandle", s);

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
                                  "library reads\n", kWhat, d.fourcc, d.num_layers, d.num_objects);
        return -ENOTSUP;
    }
    for (unsigned i = 1; i < p.n_objects; i++) {
        if (d.objects[i].drm_format_modifier != d.objects[0].drm_format_modifier) {
            log(VMAF_LOG_LEVEL_ERROR, "%s: the surface's objects have different modifiers\n", kWhat);
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

int probe_libva(const char *) { return -ENOSYS; }

int export_va_surface(void *, unsigned, VaExport *) { return -ENOSYS; }

#endif

}  // namespace vmaf::vk
