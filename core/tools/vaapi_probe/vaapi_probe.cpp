// SPDX-License-Identifier: BSD-2-Clause-Patent
// vmaf_vaapi_probe: what this machine offers for scoring VA-API surfaces on the
// GPU. For each DRM render node: the VA driver, its decode profiles, whether NV12
// and P010 surfaces export as DRM PRIME 2 DMA-BUFs (and with which layout), and
// the whole path end to end: two identical surfaces imported into the Vulkan
// backend through vmaf_vulkan_import_va_surface(), whose PSNR must be the cap.
//
//   vmaf_vaapi_probe [--device /dev/dri/renderD128] [--vulkan_device N]
//
// Exit status: 0 when at least one node imports end to end, 1 when none does,
// 2 when there is no render node (or the one named cannot be opened).
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <va/va.h>
#include <va/va_drm.h>
#include <va/va_drmcommon.h>
#include <va/va_str.h>

#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_vulkan.h"

namespace {

std::vector<std::string> render_nodes()
{
    std::vector<std::string> nodes;
    DIR *d = opendir("/dev/dri");
    if (!d) return nodes;
    while (const dirent *e = readdir(d))
        if (!std::strncmp(e->d_name, "renderD", 7)) nodes.push_back(std::string("/dev/dri/") + e->d_name);
    closedir(d);
    std::sort(nodes.begin(), nodes.end());
    return nodes;
}

std::string fourcc_name(uint32_t f)
{
    std::string s;
    for (int i = 0; i < 4; i++) s += char((f >> (8 * i)) & 0xff);
    return s;
}

std::vector<std::string> decode_profiles(VADisplay dpy)
{
    std::vector<VAProfile> profiles(size_t(std::max(vaMaxNumProfiles(dpy), 1)));
    int n = 0;
    std::vector<std::string> out;
    if (vaQueryConfigProfiles(dpy, profiles.data(), &n) != VA_STATUS_SUCCESS) return out;
    std::vector<VAEntrypoint> eps(size_t(std::max(vaMaxNumEntrypoints(dpy), 1)));
    for (int i = 0; i < n; i++) {
        int m = 0;
        if (vaQueryConfigEntrypoints(dpy, profiles[size_t(i)], eps.data(), &m) != VA_STATUS_SUCCESS) continue;
        if (std::find(eps.begin(), eps.begin() + m, VAEntrypointVLD) != eps.begin() + m)
            out.push_back(vaProfileStr(profiles[size_t(i)]));
    }
    return out;
}

// A surface of `rt_format` / `fourcc`, 256x128, or VA_INVALID_SURFACE.
VASurfaceID make_surface(VADisplay dpy, unsigned rt_format, uint32_t fourcc)
{
    VASurfaceAttrib attr{};
    attr.type = VASurfaceAttribPixelFormat;
    attr.flags = VA_SURFACE_ATTRIB_SETTABLE;
    attr.value.type = VAGenericValueTypeInteger;
    attr.value.value.i = int(fourcc);
    VASurfaceID s = VA_INVALID_SURFACE;
    if (vaCreateSurfaces(dpy, rt_format, 256, 128, &s, 1, &attr, 1) != VA_STATUS_SUCCESS) return VA_INVALID_SURFACE;
    return s;
}

// How the surface exports, printed; false when it does not.
bool describe_export(VADisplay dpy, VASurfaceID s)
{
    VADRMPRIMESurfaceDescriptor d{};
    const VAStatus st = vaExportSurfaceHandle(dpy, s, VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME_2,
                                              VA_EXPORT_SURFACE_READ_ONLY | VA_EXPORT_SURFACE_COMPOSED_LAYERS, &d);
    if (st != VA_STATUS_SUCCESS) {
        std::printf("      export as DRM PRIME 2: no (%s)\n", vaErrorStr(st));
        return false;
    }
    std::printf("      export as DRM PRIME 2: %s, %u object(s), modifier 0x%016llx%s\n", fourcc_name(d.fourcc).c_str(),
                d.num_objects, (unsigned long long)d.objects[0].drm_format_modifier,
                d.objects[0].drm_format_modifier == VMAF_VULKAN_DRM_FORMAT_MOD_LINEAR ? " (linear)" : " (tiled)");
    for (uint32_t i = 0; i < d.num_objects; i++) close(d.objects[i].fd);
    return true;
}

// Both sides of one frame from the same surface: PSNR-Y must be its cap.
bool import_end_to_end(VADisplay dpy, VASurfaceID s, int vulkan_device)
{
    VmafVulkanConfiguration vc{};
    vc.device_index = vulkan_device;
    VmafVulkanState *state = nullptr;
    if (int err = vmaf_vulkan_state_init(&state, vc)) {
        std::printf("      import: no Vulkan device (%s)\n", std::strerror(-err));
        return false;
    }
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    VmafContext *vmaf = nullptr;
    bool ok = false;
    double psnr = 0;
    int err = vmaf_init(&vmaf, cfg);
    if (!err) err = vmaf_vulkan_import_state(vmaf, state);
    if (!err) err = vmaf_use_feature(vmaf, "psnr", nullptr);
    if (!err) err = vmaf_vulkan_import_va_surface(vmaf, VMAF_VULKAN_IMPORT_REFERENCE, dpy, s, 0);
    if (!err) err = vmaf_vulkan_import_va_surface(vmaf, VMAF_VULKAN_IMPORT_DISTORTED, dpy, s, 0);
    if (!err) err = vmaf_vulkan_read_imported_pictures(vmaf, 0);
    if (!err) err = vmaf_read_pictures(vmaf, nullptr, nullptr, 0);
    if (!err) err = vmaf_feature_score_at_index(vmaf, "psnr_y", &psnr, 0);
    if (err) {
        std::printf("      import: failed (%s)\n", std::strerror(-err));
    } else {
        // Identical pictures score libvmaf's PSNR cap: 60 dB at 8 bits, more above.
        ok = psnr >= 60.0;
        std::printf("      import: %s (psnr_y %.4f on identical surfaces, the cap is at least 60)\n",
                    ok ? "ok" : "WRONG SCORE", psnr);
    }
    if (vmaf) vmaf_close(vmaf);
    vmaf_vulkan_state_free(&state);
    return ok;
}

bool probe_node(const std::string &node, int vulkan_device)
{
    std::printf("%s\n", node.c_str());
    const int fd = open(node.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        std::printf("  cannot open: %s\n", std::strerror(errno));
        return false;
    }
    bool any = false;
    VADisplay dpy = vaGetDisplayDRM(fd);
    int major = 0, minor = 0;
    if (!dpy || vaInitialize(dpy, &major, &minor) != VA_STATUS_SUCCESS) {
        std::printf("  VA-API: no driver initialises on this node\n");
        if (dpy) vaTerminate(dpy);
        close(fd);
        return false;
    }
    std::printf("  VA-API %d.%d, driver: %s\n", major, minor, vaQueryVendorString(dpy));
    const std::vector<std::string> profiles = decode_profiles(dpy);
    std::printf("  decode profiles (%zu):", profiles.size());
    for (const std::string &p : profiles) std::printf(" %s", p.c_str());
    std::printf("\n");
    struct {
        const char *name;
        unsigned rt_format;
        uint32_t fourcc;
    } const kinds[] = {
        {"NV12", VA_RT_FORMAT_YUV420, VA_FOURCC_NV12},
        {"P010", VA_RT_FORMAT_YUV420_10, VA_FOURCC_P010},
    };
    for (const auto &k : kinds) {
        std::printf("    %s surfaces:\n", k.name);
        const VASurfaceID s = make_surface(dpy, k.rt_format, k.fourcc);
        if (s == VA_INVALID_SURFACE) {
            std::printf("      not created by this driver\n");
            continue;
        }
        if (describe_export(dpy, s)) any |= import_end_to_end(dpy, s, vulkan_device);
        vaDestroySurfaces(dpy, const_cast<VASurfaceID *>(&s), 1);
    }
    vaTerminate(dpy);
    close(fd);
    return any;
}

}  // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> nodes;
    int vulkan_device = VMAF_VULKAN_DEVICE_AUTO;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--device" && i + 1 < argc) {
            nodes.push_back(argv[++i]);
        } else if (a == "--vulkan_device" && i + 1 < argc) {
            const char *v = argv[++i];
            if (!*v || std::strlen(v) > 3 || std::strspn(v, "0123456789") != std::strlen(v) ||
                std::atoi(v) > 255) {
                std::fprintf(stderr, "%s: --vulkan_device %s: expected an index from 0 to 255\n", argv[0], v);
                return 2;
            }
            vulkan_device = std::atoi(v);
        } else {
            std::fprintf(stderr, "usage: %s [--device /dev/dri/renderDN] [--vulkan_device N]\n", argv[0]);
            return a == "-h" || a == "--help" ? 0 : 2;
        }
    }
    if (nodes.empty()) nodes = render_nodes();
    if (nodes.empty()) {
        std::fprintf(stderr, "vmaf_vaapi_probe: no DRM render node (/dev/dri/renderD*): VA-API surfaces cannot be "
                             "decoded or imported on this machine\n");
        return 2;
    }
    bool any = false, opened = false;
    for (const std::string &n : nodes) {
        if (access(n.c_str(), F_OK) == 0) opened = true;
        any |= probe_node(n, vulkan_device);
    }
    if (!opened) {
        std::fprintf(stderr, "vmaf_vaapi_probe: no such render node\n");
        return 2;
    }
    std::printf("%s\n", any ? "VA-API import: works on this machine"
                            : "VA-API import: does not work on this machine (see above)");
    return any ? 0 : 1;
}
