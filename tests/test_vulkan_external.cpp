// SPDX-License-Identifier: BSD-2-Clause-Patent
// External memory inputs of the Vulkan backend, through the public API:
//   - pictures written into memory that one VkDevice exports as opaque fds and
//     the library's (adopted) device imports: scores identical to the host path
//     on the same device, in three-plane and interleaved-chroma layouts, 8 and
//     msb-aligned 10-bit, several objects per picture;
//   - refusals: a device without VK_KHR_external_memory_fd or without
//     VK_EXT_external_memory_dma_buf (-ENOTSUP), malformed descriptions (-EINVAL),
//     the fds stay the caller's;
//   - VA-API surfaces: the clean error without a display (or without libva);
//     libva opened at run time: -ENOSYS where it cannot be, and a display libva
//     itself rejects reaching it through the opened library.
// The validation layer is on for both devices; it must report nothing.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include "test_vulkan_import_harness.h"
#include "vulkan/vaapi.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

constexpr size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

// One picture in exported memory: its planes at 256-byte aligned offsets with
// pitches padded past the row (as decoders lay them out), in `objects` buffers.
class ExportedPicture {
public:
    ExportedPicture(Harness &exporter, const VmafPicture &pic, bool interleave, bool msb, unsigned objects)
        : h_(exporter)
    {
        const unsigned bytes = pic.bpc > 8 ? 2 : 1;
        const bool mono = pic.pix_fmt == VMAF_PIX_FMT_YUV400P;
        const unsigned n_planes = mono ? 1 : interleave ? 2 : 3;
        const unsigned shift = msb ? 16 - pic.bpc : 0;
        REQUIRE(objects >= 1);
        REQUIRE(objects <= n_planes);

        desc_.type = VMAF_VULKAN_EXTERNAL_MEMORY_OPAQUE_FD;
        desc_.n_objects = objects;
        desc_.n_planes = n_planes;
        desc_.drm_format_modifier = VMAF_VULKAN_DRM_FORMAT_MOD_LINEAR;
        desc_.width = pic.w[0];
        desc_.height = pic.h[0];
        desc_.bpc = pic.bpc;
        desc_.pix_fmt = pic.pix_fmt;
        desc_.msb_aligned = msb;

        // Plane p goes into object min(p, objects - 1).
        std::vector<size_t> object_size(objects, 0);
        for (unsigned p = 0; p < n_planes; p++) {
            const unsigned o = std::min(p, objects - 1);
            const size_t row = size_t(pic.w[p]) * (interleave && p == 1 ? 2 : 1) * bytes;
            desc_.planes[p].object = o;
            desc_.planes[p].offset = align_up(object_size[o], 256);
            desc_.planes[p].pitch = align_up(row + 12, 64);
            object_size[o] = desc_.planes[p].offset + desc_.planes[p].pitch * pic.h[p];
        }
        for (unsigned o = 0; o < objects; o++) {
            buffers_.push_back(h_.host_buffer(object_size[o], VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true));
            std::memset(buffers_[o].data, 0xa5, object_size[o]);  // padding the library must not read
        }
        for (unsigned p = 0; p < n_planes; p++) {
            const auto &d = desc_.planes[p];
            pack_plane(pic, p, interleave && p == 1, shift, buffers_[d.object].data + d.offset, d.pitch);
        }
        for (unsigned o = 0; o < objects; o++) {
            desc_.objects[o].fd = h_.export_fd(buffers_[o]);
            desc_.objects[o].size = buffers_[o].allocation;
            desc_.objects[o].memory_type_index = buffers_[o].type;
        }
    }
    ~ExportedPicture()
    {
        for (unsigned o = 0; o < desc_.n_objects; o++) close(desc_.objects[o].fd);
        for (Harness::HostBuffer &b : buffers_) h_.destroy(b);
    }
    ExportedPicture(const ExportedPicture &) = delete;
    ExportedPicture &operator=(const ExportedPicture &) = delete;

    const VmafVulkanExternalPicture &desc() const { return desc_; }

private:
    Harness &h_;
    std::vector<Harness::HostBuffer> buffers_;
    VmafVulkanExternalPicture desc_{};
};

struct ExternalCase {
    const char *name;
    bool interleave, msb;
    unsigned objects;
};

// Every frame of `pair` exported by `exporter` and imported by the library on
// `state`'s device; the exported memory lives until the context is flushed.
Scores external_scores(Harness &exporter, VmafVulkanState *state, const Pair &pair, const ExternalCase &c,
                       bool psnr_only = false)
{
    INFO("case " << c.name);
    VmafContext *ctx = open_context(state, psnr_only);
    std::vector<std::unique_ptr<ExportedPicture>> held;
    for (unsigned i = 0; i < pair.ref.size(); i++) {
        for (unsigned side = 0; side < 2; side++) {
            const VmafPicture &pic = side ? pair.dist[i] : pair.ref[i];
            held.push_back(std::make_unique<ExportedPicture>(exporter, pic, c.interleave, c.msb, c.objects));
            const VmafVulkanExternalPicture &d = held.back()->desc();
            REQUIRE(vmaf_vulkan_import_external(ctx, VmafVulkanImportSide(side), &d, i) == 0);
            // The library imported dups: the caller's fds stay open and its own.
            for (unsigned o = 0; o < d.n_objects; o++) CHECK(fcntl(d.objects[o].fd, F_GETFD) != -1);
        }
        REQUIRE(vmaf_vulkan_read_imported_pictures(ctx, i) == 0);
    }
    REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
    Scores s = scores_of(ctx);
    REQUIRE(vmaf_close(ctx) == 0);
    return s;
}

}  // namespace

TEST_CASE("opaque fds exported by another device score like host pictures", "[vulkan][external][golden]")
{
    Harness exporter(true), h(true);
    if (!exporter.has_extension(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME)) {
        WARN("the device has no VK_KHR_external_memory_fd: opaque fd import not run");
        return;
    }
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);

    const ExternalCase k8[] = {
        {"3 planes, one object", false, false, 1},
        {"3 planes, 3 objects", false, false, 3},
        {"NV12: luma and interleaved chroma, 2 objects", true, false, 2},
    };
    const ExternalCase k10[] = {
        {"3 planes of 16-bit lsb samples", false, false, 1},
        {"P010: msb-aligned, interleaved chroma", true, true, 1},
    };
    for (const char *name : {"coffee_320x240_crf28", "chelsea_322x186_rescale"}) {
        const Pair pair = load_pair(name);
        const Scores want = host_scores(state, pair);
        for (const ExternalCase &c : k8)
            require_identical(external_scores(exporter, state, pair, c), want, unsigned(pair.ref.size()));
    }
    {
        const Pair pair = load_pair("rocket_320x240_10bit_crf30");
        const Scores want = host_scores(state, pair);
        for (const ExternalCase &c : k10)
            require_identical(external_scores(exporter, state, pair, c), want, unsigned(pair.ref.size()));
    }
    {
        const Pair pair = load_pair("coffee_320x240_444_crf30");
        const Scores want = host_scores(state, pair);
        require_identical(external_scores(exporter, state, pair, k8[1]), want, unsigned(pair.ref.size()));
    }
    {
        const Pair pair = load_pair("testsrc2_320x240_crf45", true);
        const Scores want = host_scores(state, pair, true);
        require_identical(external_scores(exporter, state, pair, {"4:0:0", false, false, 1}, true), want,
                          unsigned(pair.ref.size()));
    }
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    exporter.check_clean();
    h.check_clean();
}

TEST_CASE("external memory refusals end cleanly", "[vulkan][external]")
{
    Harness exporter(true);
    if (!exporter.has_extension(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME)) {
        WARN("the device has no VK_KHR_external_memory_fd: not run");
        return;
    }
    const Pair pair = load_pair("coffee_320x240_crf28");
    const ExportedPicture good(exporter, pair.ref[0], false, false, 1);

    SECTION("a device without the extensions: -ENOTSUP")
    {
        Harness plain;  // VK_KHR_external_memory_fd not enabled
        VmafVulkanState *state = nullptr;
        REQUIRE(vmaf_vulkan_state_init_external(&state, plain.handles()) == 0);
        VmafContext *ctx = open_context(state);
        CHECK(vmaf_vulkan_import_external(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &good.desc(), 0) == -ENOTSUP);
        VmafVulkanExternalPicture dma = good.desc();
        dma.type = VMAF_VULKAN_EXTERNAL_MEMORY_DMA_BUF;
        CHECK(vmaf_vulkan_import_external(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &dma, 0) == -ENOTSUP);
        REQUIRE(vmaf_close(ctx) == 0);
        REQUIRE(vmaf_vulkan_state_free(&state) == 0);
        plain.check_clean();
    }
    SECTION("malformed descriptions: -EINVAL; the context goes on")
    {
        Harness h(true);
        VmafVulkanState *state = nullptr;
        REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);
        VmafContext *ctx = open_context(state, true);
        const VmafVulkanExternalPicture &d = good.desc();
        std::vector<std::pair<const char *, VmafVulkanExternalPicture>> bad;
        auto add = [&](const char *what, auto &&change) {
            VmafVulkanExternalPicture b = d;
            change(b);
            bad.emplace_back(what, b);
        };
        add("unknown memory type", [](auto &b) {
            const int seven = 7;  // as a C caller could store it
            std::memcpy(&b.type, &seven, sizeof seven);
        });
        add("tiled opaque fd", [](auto &b) { b.drm_format_modifier = 1; });
        add("no objects", [](auto &b) { b.n_objects = 0; });
        add("4 planes", [](auto &b) { b.n_planes = 4; });
        add("negative fd", [](auto &b) { b.objects[0].fd = -1; });
        add("unknown size", [](auto &b) { b.objects[0].size = 0; });
        add("object index", [](auto &b) { b.planes[2].object = 1; });
        add("odd offset", [](auto &b) { b.planes[1].offset += 2; });
        add("short pitch", [](auto &b) { b.planes[0].pitch = 316; });
        add("past the end", [](auto &b) { b.planes[2].offset = b.objects[0].size - 64; });
        add("reserved", [](auto &b) { b.reserved[1] = 1; });
        add("bit depth", [](auto &b) { b.bpc = 7; });
        add("zero width", [](auto &b) { b.width = 0; });
        add("memory type index", [](auto &b) { b.objects[0].memory_type_index = 40; });
        for (const auto &[what, b] : bad) {
            INFO(what);
            CHECK(vmaf_vulkan_import_external(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &b, 0) == -EINVAL);
        }
        CHECK(vmaf_vulkan_import_external(ctx, VMAF_VULKAN_IMPORT_REFERENCE, nullptr, 0) == -EINVAL);
        if (!h.has_extension(VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME)) {
            VmafVulkanExternalPicture dma = d;
            dma.type = VMAF_VULKAN_EXTERNAL_MEMORY_DMA_BUF;
            CHECK(vmaf_vulkan_import_external(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &dma, 0) == -ENOTSUP);
        }
        // After every refusal the good picture still goes through and scores.
        const ExportedPicture dist(exporter, pair.dist[0], false, false, 1);
        REQUIRE(vmaf_vulkan_import_external(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &d, 0) == 0);
        REQUIRE(vmaf_vulkan_import_external(ctx, VMAF_VULKAN_IMPORT_DISTORTED, &dist.desc(), 0) == 0);
        REQUIRE(vmaf_vulkan_read_imported_pictures(ctx, 0) == 0);
        REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
        double psnr = 0;
        REQUIRE(vmaf_feature_score_at_index(ctx, "psnr_y", &psnr, 0) == 0);
        const Expected want = load_expected(data_dir() + "/coffee_320x240_crf28.libvmaf.json");
        CHECK(psnr == Approx(want.frames[0].at("psnr_y")).margin(1e-4));  // libvmaf's frame 0
        REQUIRE(vmaf_close(ctx) == 0);
        REQUIRE(vmaf_vulkan_state_free(&state) == 0);
        h.check_clean();
    }
    exporter.check_clean();
}

TEST_CASE("VA-API surfaces: a clean error without a display", "[vulkan][external]")
{
    Harness h;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);
    VmafContext *ctx = open_context(state, true);
    const int err = vmaf_vulkan_import_va_surface(ctx, VMAF_VULKAN_IMPORT_REFERENCE, nullptr, 0, 0);
    // -ENOSYS where the library was built without libva, else the missing display.
    CHECK((err == -ENOSYS || err == -EINVAL));
    REQUIRE(vmaf_close(ctx) == 0);

    VmafContext *no_state = nullptr;
    REQUIRE(vmaf_init(&no_state, quiet_config()) == 0);
    CHECK(vmaf_vulkan_import_va_surface(no_state, VMAF_VULKAN_IMPORT_REFERENCE, nullptr, 0, 0) < 0);
    REQUIRE(vmaf_close(no_state) == 0);
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    h.check_clean();
}

TEST_CASE("VA-API surfaces: libva is opened at run time", "[vulkan][external]")
{
    if (!vk::vaapi_built()) {
        CHECK(vk::probe_libva(vk::kLibva) == -ENOSYS);
        return;
    }
    // A machine without libva: the name that cannot be opened is all that differs.
    CHECK(vk::probe_libva("libva-absent-for-this-test.so.2") == -ENOSYS);
    // libva's development files (the build had them) come with libva itself.
    REQUIRE(vk::probe_libva(vk::kLibva) == 0);

    // A display libva rejects (its magic number is not there): -EINVAL, which only the
    // opened library's vaSyncSurface can answer for a non-null display.
    Harness h;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);
    VmafContext *ctx = open_context(state, true);
    alignas(16) static unsigned char not_a_display[4096] = {};
    CHECK(vmaf_vulkan_import_va_surface(ctx, VMAF_VULKAN_IMPORT_REFERENCE, not_a_display, 0, 0) == -EINVAL);
    REQUIRE(vmaf_close(ctx) == 0);
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    h.check_clean();
}
