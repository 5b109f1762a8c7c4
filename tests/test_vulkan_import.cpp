// SPDX-License-Identifier: BSD-2-Clause-Patent
// Zero-copy inputs of the Vulkan backend, through the public API on a device the
// test creates and the library adopts (validation layer on the test's instance,
// zero messages required):
//   - golden frames uploaded into VkImages of every layout the device supports
//     (planar, interleaved chroma, multi-plane, msb-aligned 10-bit, 4:0:0),
//     synchronized by timeline semaphores, imported: scores identical to the host
//     path (vmaf_read_pictures) on the same device;
//   - device picture pools: identical scores, and fetch never deadlocks;
//   - lifetimes and refusals: freeing with frames in flight, frames waiting on a
//     semaphore signalled later, wrong geometry, missing semaphore, images
//     destroyed after their frame, CPU features, mixed picture backings.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "golden.h"
#include "stderr_capture.h"
#include "test_vulkan_import_harness.h"
#include "vulkan/device_picture.h"
#include "gpu/engine.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// Under the sanitizers the contexts of every feature run three (open_context):
// each import path below still runs, at a fraction of the dispatches.
constexpr bool kFew = true;

// Import every frame of `pair` as `c`, through a ring of `ring` image sets; the
// scores must be `want`'s.
void run_imported(Harness &h, VmafVulkanState *state, const Pair &pair, const ImageCase &c, const Scores &want,
                  VkImageLayout final_layout, bool psnr_only = false, unsigned ring = 3, Read read = Read::Copy)
{
    INFO("case " << c.name << (read == Read::Sampled ? ", sampled" : ", copied"));
    VmafContext *ctx = open_context(state, psnr_only, kFew);
    {
        const auto sets = import_through_ring(h, ctx, pair, c, final_layout, ring, read);
        require_identical(scores_of(ctx), want, unsigned(pair.ref.size()));
        REQUIRE(vmaf_close(ctx) == 0);
    }  // the sets wait for the library's last signals before they go
    h.check_clean();
}

const ImageCase k8bit420[] = {
    {"3 x R8", Layout::Planar, {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_UNORM, VK_FORMAT_R8_UNORM}, false},
    {"R8 + R8G8 (NV12)", Layout::Interleaved, {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_UNORM}, false},
    {"G8_B8R8_2PLANE_420 (NV12)", Layout::MultiPlane, {VK_FORMAT_G8_B8R8_2PLANE_420_UNORM}, false},
    {"G8_B8_R8_3PLANE_420", Layout::MultiPlane, {VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM}, false},
};
const ImageCase k8bit422[] = {
    {"3 x R8", Layout::Planar, {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_UNORM, VK_FORMAT_R8_UNORM}, false},
    {"R8 + R8G8 (NV16)", Layout::Interleaved, {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_UNORM}, false},
    {"G8_B8R8_2PLANE_422", Layout::MultiPlane, {VK_FORMAT_G8_B8R8_2PLANE_422_UNORM}, false},
    {"G8_B8_R8_3PLANE_422", Layout::MultiPlane, {VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM}, false},
};
const ImageCase k8bit444[] = {
    {"3 x R8", Layout::Planar, {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_UNORM, VK_FORMAT_R8_UNORM}, false},
    {"G8_B8_R8_3PLANE_444", Layout::MultiPlane, {VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM}, false},
};
const ImageCase k10bit420[] = {
    {"3 x R16, lsb", Layout::Planar, {VK_FORMAT_R16_UNORM, VK_FORMAT_R16_UNORM, VK_FORMAT_R16_UNORM}, false},
    {"3 x R16, msb", Layout::Planar, {VK_FORMAT_R16_UNORM, VK_FORMAT_R16_UNORM, VK_FORMAT_R16_UNORM}, true},
    {"R16 + R16G16, msb (P010)", Layout::Interleaved, {VK_FORMAT_R16_UNORM, VK_FORMAT_R16G16_UNORM}, true},
    {"R10X6 + R10X6G10X6 (P010)", Layout::Interleaved,
     {VK_FORMAT_R10X6_UNORM_PACK16, VK_FORMAT_R10X6G10X6_UNORM_2PACK16}, false},
    {"G10X6_B10X6R10X6_2PLANE_420 (P010)", Layout::MultiPlane,
     {VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16}, false},
    {"G16_B16_R16_3PLANE_420, lsb", Layout::MultiPlane, {VK_FORMAT_G16_B16_R16_3PLANE_420_UNORM}, false},
};

// Each case copied, and sampled where the device samples its formats.
void run_cases(Harness &h, VmafVulkanState *state, const char *pair_name, std::span<const ImageCase> cases,
               unsigned *run, unsigned *skipped, unsigned *sampled)
{
    const Pair pair = load_pair(pair_name);
    const Scores want = host_scores(state, pair, false, kFew);
    for (const ImageCase &c : cases) {
        if (!case_supported(h, c)) {
            WARN(pair_name << ": " << c.name << ": the device cannot copy these formats; not run");
            ++*skipped;
            continue;
        }
        run_imported(h, state, pair, c, want, VK_IMAGE_LAYOUT_UNDEFINED);
        ++*run;
        if (!case_sampled(h, c)) {
            WARN(pair_name << ": " << c.name << ": the device cannot sample these formats; not run sampled");
            continue;
        }
        run_imported(h, state, pair, c, want, VK_IMAGE_LAYOUT_UNDEFINED, false, 3, Read::Sampled);
        ++*sampled;
    }
}

}  // namespace

TEST_CASE("an adopted device: imported VkImages of every supported layout score like host pictures",
          "[vulkan][import][golden]")
{
    Harness h;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);
    unsigned run = 0, skipped = 0, sampled = 0;
    run_cases(h, state, "chelsea_322x186_rescale", k8bit420, &run, &skipped, &sampled);
    run_cases(h, state, "astronaut_320x240_422_crf33", k8bit422, &run, &skipped, &sampled);
    run_cases(h, state, "coffee_320x240_444_crf30", k8bit444, &run, &skipped, &sampled);
    run_cases(h, state, "rocket_320x240_10bit_crf30", k10bit420, &run, &skipped, &sampled);
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    // Every submission of the library went through the caller's queue lock.
    CHECK(h.locks() > 0);
    CHECK(h.locks() == h.unlocks());
    h.check_clean();
    INFO(run << " layouts run, " << skipped << " not supported by the device, " << sampled << " sampled");
    CHECK(run >= 7);  // planar, interleaved and msb-aligned layouts run on every device
    CHECK(sampled >= 7);  // R8, R8G8, R16 and R16G16 are sampled on every device
}

TEST_CASE("imported 4:0:0 pictures, 8-bit and msb-aligned 10-bit", "[vulkan][import]")
{
    Harness h;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);
    for (const char *name : {"coffee_320x240_crf28", "rocket_320x240_10bit_crf30"}) {
        const Pair pair = load_pair(name, true);
        const Scores want = host_scores(state, pair, true);
        const bool deep = pair.ref[0].bpc > 8;
        const ImageCase c{deep ? "R16, msb" : "R8", Layout::Mono,
                          {deep ? VK_FORMAT_R16_UNORM : VK_FORMAT_R8_UNORM}, deep};
        run_imported(h, state, pair, c, want, VK_IMAGE_LAYOUT_GENERAL, true, 1);
        run_imported(h, state, pair, c, want, VK_IMAGE_LAYOUT_GENERAL, true, 1, Read::Sampled);
    }
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    h.check_clean();
}

TEST_CASE("images left in a final layout, one frame in flight at most", "[vulkan][import]")
{
    Harness h;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles(1)) == 0);
    const Pair pair = load_pair("testsrc2_320x240_crf45");
    const Scores want = host_scores(state, pair, false, kFew);
    run_imported(h, state, pair, k8bit420[1], want, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, false, 2);
    run_imported(h, state, pair, k8bit420[1], want, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, false, 2, Read::Sampled);
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    h.check_clean();
}

TEST_CASE("VMAF_VULKAN_STATS: a context of imported pictures prints its line when it closes", "[vulkan][import]")
{
    Harness h;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);
    const Pair pair = load_pair("testsrc2_320x240_crf45");
    const Scores want = host_scores(state, pair, false, kFew);
    // Read when the context closes.
    REQUIRE(setenv("VMAF_VULKAN_STATS", "1", 1) == 0);
    std::string text;
    {
        StderrCapture cap;
        run_imported(h, state, pair, k8bit420[1], want, VK_IMAGE_LAYOUT_GENERAL);
        text = cap.text();
    }
    unsetenv("VMAF_VULKAN_STATS");
    INFO(text);
    // Every imported frame counted, as host pictures are.
    CHECK(text.find("Vulkan stats: " + std::to_string(pair.ref.size()) + " frames in ") != std::string::npos);
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    h.check_clean();
}

TEST_CASE("device picture pools: scores of host pictures, fetch never deadlocks", "[vulkan][import]")
{
    Harness h;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);
    const Pair pair = load_pair("coffee_320x240_crf28");
    const Scores want = host_scores(state, pair, false, kFew);
    const VmafPicture &like = pair.ref[0];

    for (VmafVulkanPicturePreallocationMethod method :
         {VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE, VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_HOST,
          VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_NONE}) {
        INFO("method " << int(method));
        VmafContext *ctx = open_context(state, false, kFew);
        VmafVulkanPictureConfiguration pc{};
        pc.pic_params = {like.w[0], like.h[0], like.bpc, like.pix_fmt};
        pc.pic_cnt = 2;  // fewer than the frames in flight need: fetch must collect
        pc.pic_prealloc_method = method;
        REQUIRE(vmaf_vulkan_preallocate_pictures(ctx, pc) == 0);
        CHECK(vmaf_vulkan_preallocate_pictures(ctx, pc) == -EBUSY);
        for (size_t i = 0; i < pair.ref.size(); i++) {
            VmafPicture r, d;
            REQUIRE(vmaf_vulkan_picture_fetch(ctx, &r) == 0);
            REQUIRE(vmaf_vulkan_picture_fetch(ctx, &d) == 0);
            CHECK((vk::device_picture(r) != nullptr) == (method == VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE));
            for (unsigned p = 0; p < 3; p++) {
                const size_t row = size_t(like.w[p]) * (like.bpc > 8 ? 2 : 1);
                for (unsigned y = 0; y < like.h[p]; y++) {
                    std::memcpy(static_cast<uint8_t *>(r.data[p]) + y * r.stride[p],
                                static_cast<const uint8_t *>(pair.ref[i].data[p]) + y * pair.ref[i].stride[p], row);
                    std::memcpy(static_cast<uint8_t *>(d.data[p]) + y * d.stride[p],
                                static_cast<const uint8_t *>(pair.dist[i].data[p]) + y * pair.dist[i].stride[p], row);
                }
            }
            REQUIRE(vmaf_read_pictures(ctx, &r, &d, unsigned(i)) == 0);
        }
        REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
        require_identical(scores_of(ctx), want, unsigned(pair.ref.size()));
        REQUIRE(vmaf_close(ctx) == 0);
    }
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    h.check_clean();
}

TEST_CASE("picture backings never mix", "[vulkan][import]")
{
    Harness h;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);
    const Pair pair = load_pair("coffee_320x240_crf28");
    const VmafPicture &like = pair.ref[0];
    VmafVulkanPictureConfiguration pc{};
    pc.pic_params = {like.w[0], like.h[0], like.bpc, like.pix_fmt};
    pc.pic_cnt = 4;
    pc.pic_prealloc_method = VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE;

    SECTION("a device and a host picture in one frame")
    {
        VmafContext *ctx = open_context(state, false, kFew);
        REQUIRE(vmaf_vulkan_preallocate_pictures(ctx, pc) == 0);
        VmafPicture r, d;
        REQUIRE(vmaf_vulkan_picture_fetch(ctx, &r) == 0);
        picture_ref(&d, &pair.dist[0]);
        CHECK(vmaf_read_pictures(ctx, &r, &d, 0) == -EINVAL);
        vmaf_picture_unref(&r);
        vmaf_picture_unref(&d);
        REQUIRE(vmaf_close(ctx) == 0);
    }
    SECTION("host pictures after device pictures")
    {
        VmafContext *ctx = open_context(state, false, kFew);
        REQUIRE(vmaf_vulkan_preallocate_pictures(ctx, pc) == 0);
        VmafPicture r, d;
        REQUIRE(vmaf_vulkan_picture_fetch(ctx, &r) == 0);
        REQUIRE(vmaf_vulkan_picture_fetch(ctx, &d) == 0);
        REQUIRE(vmaf_read_pictures(ctx, &r, &d, 0) == 0);
        picture_ref(&r, &pair.ref[1]);
        picture_ref(&d, &pair.dist[1]);
        CHECK(vmaf_read_pictures(ctx, &r, &d, 1) == -EINVAL);
        vmaf_picture_unref(&r);
        vmaf_picture_unref(&d);
        REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
        REQUIRE(vmaf_close(ctx) == 0);
    }
    SECTION("imports after host pictures, host pictures after imports")
    {
        ImageSet set(h, k8bit420[0], like);
        set.upload(like);
        const VmafVulkanImage d = set.describe(VK_IMAGE_LAYOUT_UNDEFINED);

        VmafContext *ctx = open_context(state, false, kFew);
        VmafPicture r, p;
        picture_ref(&r, &pair.ref[0]);
        picture_ref(&p, &pair.dist[0]);
        REQUIRE(vmaf_read_pictures(ctx, &r, &p, 0) == 0);
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &d, 1) == -EINVAL);
        REQUIRE(vmaf_close(ctx) == 0);

        ctx = open_context(state, false, kFew);
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &d, 0) == 0);
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_DISTORTED, &d, 0) == 0);
        REQUIRE(vmaf_vulkan_read_imported_pictures(ctx, 0) == 0);
        set.imported(d);
        picture_ref(&r, &pair.ref[1]);
        picture_ref(&p, &pair.dist[1]);
        CHECK(vmaf_read_pictures(ctx, &r, &p, 1) == -EINVAL);
        vmaf_picture_unref(&r);
        vmaf_picture_unref(&p);
        REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
        REQUIRE(vmaf_close(ctx) == 0);
    }
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    h.check_clean();
}

TEST_CASE("import lifetimes and refusals end cleanly", "[vulkan][import]")
{
    Harness h;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);
    const Pair pair = load_pair("coffee_320x240_crf28");
    const VmafPicture &like = pair.ref[0];
    const ImageCase &c = k8bit420[0];

    SECTION("closing with frames in flight waits for them and signals every semaphore")
    {
        VmafContext *ctx = open_context(state, false, kFew);
        // Three frames, each in image sets of its own, not flushed.
        const auto sets = import_through_ring(h, ctx, pair, c, VK_IMAGE_LAYOUT_UNDEFINED, 3, Read::Copy, 3, false);
        REQUIRE(vmaf_close(ctx) == 0);  // no flush
        for (auto &s : sets)
            for (unsigned i = 0; i < s->images(); i++) CHECK(h.counter(s->semaphore(i)) == s->value(i));
    }
    SECTION("a frame waiting on a semaphore the caller signals later")
    {
        ImageSet r(h, c, like), d(h, c, like);
        r.upload(pair.ref[0]);
        d.upload(pair.dist[0]);
        h.wait(r.semaphore(0), r.value(0));
        // Ask the library to wait for a value only the host will set, later.
        VmafVulkanImage rd = r.describe(VK_IMAGE_LAYOUT_UNDEFINED);
        for (unsigned i = 0; i < 3; i++) {
            rd.sem_value[i] += 5;
            rd.signal_value[i] += 5;
        }
        const VmafVulkanImage dd = d.describe(VK_IMAGE_LAYOUT_UNDEFINED);
        VmafContext *ctx = open_context(state, false, kFew);
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &rd, 0) == 0);
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_DISTORTED, &dd, 0) == 0);
        REQUIRE(vmaf_vulkan_read_imported_pictures(ctx, 0) == 0);
        std::thread later([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            for (unsigned i = 0; i < 3; i++) h.signal(r.semaphore(i), rd.sem_value[i]);
        });
        REQUIRE(vmaf_vulkan_wait_compute(ctx) == 0);  // returns once the host signalled
        later.join();
        double psnr = 0;
        CHECK(vmaf_feature_score_at_index(ctx, "psnr_y", &psnr, 0) == 0);
        r.imported(rd);
        d.imported(dd);
        REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
        REQUIRE(vmaf_close(ctx) == 0);
    }
    SECTION("wrong geometry, missing semaphore, a side twice, a side missing: refused, the context goes on")
    {
        ImageSet r(h, c, like), d(h, c, like);
        r.upload(pair.ref[0]);
        d.upload(pair.dist[0]);
        const VmafVulkanImage rd = r.describe(VK_IMAGE_LAYOUT_UNDEFINED), dd = d.describe(VK_IMAGE_LAYOUT_UNDEFINED);
        VmafContext *ctx = open_context(state, false, kFew);
        const int submissions = h.locks();

        VmafVulkanImage bad = rd;
        bad.sem[1] = VK_NULL_HANDLE;
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &bad, 0) == -EINVAL);
        bad = rd;
        bad.signal_value[0] = bad.sem_value[0];
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &bad, 0) == -EINVAL);
        bad = rd;
        bad.layout[2] = VK_IMAGE_LAYOUT_UNDEFINED;
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &bad, 0) == -EINVAL);
        bad = rd;
        bad.format[1] = VK_FORMAT_R8G8B8A8_UNORM;
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &bad, 0) == -ENOTSUP);
        bad = rd;
        bad.bpc = 10;  // 8-bit images
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &bad, 0) == -EINVAL);
        bad = rd;
        bad.reserved[0] = 1;
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &bad, 0) == -EINVAL);
        CHECK(vmaf_vulkan_import_image(ctx, VmafVulkanImportSide(2), &rd, 0) == -EINVAL);
        CHECK(vmaf_vulkan_read_imported_pictures(ctx, 0) == -EINVAL);  // nothing imported
        CHECK(h.locks() == submissions);  // nothing refused reached the queue

        // The first import fixes the geometry and starts the engine, whose set-up
        // may submit once; refusals after it submit nothing either.
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &rd, 0) == 0);
        const int started = h.locks();
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &rd, 0) == -EINVAL);  // twice
        CHECK(vmaf_vulkan_read_imported_pictures(ctx, 0) == -EINVAL);  // no distorted picture
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_DISTORTED, &dd, 1) == -EINVAL);  // frame 0 pending
        bad = dd;
        bad.width -= 2;
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_DISTORTED, &bad, 0) == -EINVAL);
        bad = dd;
        bad.pix_fmt = VMAF_PIX_FMT_YUV444P;
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_DISTORTED, &bad, 0) == -EINVAL);
        CHECK(h.locks() == started);

        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_DISTORTED, &dd, 0) == 0);
        REQUIRE(vmaf_vulkan_read_imported_pictures(ctx, 0) == 0);
        r.imported(rd);
        d.imported(dd);
        CHECK(vmaf_vulkan_read_imported_pictures(ctx, 0) == -EINVAL);  // already read
        REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
        double psnr = 0;
        CHECK(vmaf_feature_score_at_index(ctx, "psnr_y", &psnr, 0) == 0);
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &rd, 1) == -EINVAL);  // flushed
        REQUIRE(vmaf_close(ctx) == 0);
    }
    SECTION("one image on both sides, described two ways: refused before anything is submitted")
    {
        ImageSet s(h, c, like, Read::Sampled);
        s.upload(pair.ref[0]);
        VmafContext *ctx = open_context(state, false, kFew);
        const VmafVulkanImage a = s.describe(VK_IMAGE_LAYOUT_UNDEFINED);
        VmafVulkanImage b = a;
        b.final_layout[0] = VK_IMAGE_LAYOUT_GENERAL;  // another final layout
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &a, 0) == 0);
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_DISTORTED, &b, 0) == 0);
        int submissions = h.locks();  // the engine's set-up is done
        CHECK(vmaf_vulkan_read_imported_pictures(ctx, 0) == -EINVAL);
        CHECK(h.locks() == submissions);
        REQUIRE(vmaf_close(ctx) == 0);

        ctx = open_context(state, false, kFew);
        b = a;
        b.usage = 0;  // the same image said to be copied
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &a, 0) == 0);
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_DISTORTED, &b, 0) == 0);
        submissions = h.locks();
        CHECK(vmaf_vulkan_read_imported_pictures(ctx, 0) == -EINVAL);
        CHECK(h.locks() == submissions);
        REQUIRE(vmaf_close(ctx) == 0);
    }
    SECTION("images destroyed once their frame is done; a frame imported on one side is dropped at flush")
    {
        VmafContext *ctx = open_context(state, false, kFew);
        // Two frames through one image set a side, not flushed.
        const auto sets = import_through_ring(h, ctx, pair, c, VK_IMAGE_LAYOUT_UNDEFINED, 1, Read::Copy, 2, false);
        REQUIRE(vmaf_vulkan_wait_compute(ctx) == 0);
        // The caller frees its frames: the library holds nothing of them.
        for (const auto &s : sets) s->destroy_images();
        auto r2 = std::make_unique<ImageSet>(h, c, like);
        r2->upload(pair.ref[2]);
        const VmafVulkanImage rd = r2->describe(VK_IMAGE_LAYOUT_UNDEFINED);
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &rd, 2) == 0);
        REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);  // frame 2 has no distorted side
        double psnr = 0;
        CHECK(vmaf_feature_score_at_index(ctx, "psnr_y", &psnr, 1) == 0);
        CHECK(vmaf_feature_score_at_index(ctx, "psnr_y", &psnr, 2) != 0);
        REQUIRE(vmaf_close(ctx) == 0);
        // Frame 2 was never submitted: its semaphore ends where the upload leaves
        // it (the upload may still be running on a loaded machine: wait for it),
        // never at the library's signal value.
        h.wait(r2->semaphore(0), r2->value(0));
        CHECK(h.counter(r2->semaphore(0)) == r2->value(0));
    }
    SECTION("features without a GPU twin run on the CPU from host copies of imported frames")
    {
        // float_psnr and float_motion (temporal, with its reference history)
        // have no GPU twin: they run on the CPU from host copies. Beside them a
        // second configuration of vif and of motion runs on the GPU with its
        // own series. The scores equal the CPU's from host pictures, frame by
        // frame.
        auto use = [](VmafContext *ctx) {
            REQUIRE(vmaf_use_feature(ctx, "float_psnr", nullptr) == 0);
            REQUIRE(vmaf_use_feature(ctx, "float_motion", nullptr) == 0);
            REQUIRE(vmaf_use_feature(ctx, "vif", nullptr) == 0);
            REQUIRE(vmaf_use_feature(ctx, "motion", nullptr) == 0);
            VmafFeatureDictionary *v = nullptr;
            REQUIRE(vmaf_feature_dictionary_set(&v, "vif_enhn_gain_limit", "1") == 0);
            REQUIRE(vmaf_use_feature(ctx, "vif", v) == 0);
            VmafFeatureDictionary *m = nullptr;
            REQUIRE(vmaf_feature_dictionary_set(&m, "motion_force_zero", "true") == 0);
            REQUIRE(vmaf_use_feature(ctx, "motion", m) == 0);
        };
        Scores want;
        {
            VmafContext *ctx = nullptr;
            REQUIRE(vmaf_init(&ctx, quiet_config()) == 0);
            use(ctx);
            for (size_t i = 0; i < pair.ref.size(); i++) {
                VmafPicture r, d;
                picture_ref(&r, &pair.ref[i]);
                picture_ref(&d, &pair.dist[i]);
                REQUIRE(vmaf_read_pictures(ctx, &r, &d, unsigned(i)) == 0);
            }
            REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
            want = scores_of(ctx);
            REQUIRE(vmaf_close(ctx) == 0);
        }
        REQUIRE(want.series.count("integer_vif_scale0_egl_1"));
        REQUIRE(want.series.count("float_psnr"));
        REQUIRE(want.series.count("motion2"));  // float_motion's
        for (unsigned threads : {0u, 2u}) {
            INFO("threads " << threads);
            VmafConfiguration cfg = quiet_config();
            cfg.n_threads = threads;
            VmafContext *ctx = nullptr;
            REQUIRE(vmaf_init(&ctx, cfg) == 0);
            REQUIRE(vmaf_vulkan_import_state(ctx, state) == 0);
            use(ctx);
            {
                const auto sets = import_through_ring(h, ctx, pair, c, VK_IMAGE_LAYOUT_UNDEFINED, 3, Read::Copy);
                require_identical(scores_of(ctx), want, unsigned(pair.ref.size()));
                REQUIRE(vmaf_close(ctx) == 0);
            }
        }

        ImageSet r(h, c, like);
        r.upload(pair.ref[0]);
        const VmafVulkanImage rd = r.describe(VK_IMAGE_LAYOUT_UNDEFINED);
        VmafContext *ctx = nullptr;
        REQUIRE(vmaf_init(&ctx, quiet_config()) == 0);  // imports without a state at all
        REQUIRE(vmaf_use_feature(ctx, "psnr", nullptr) == 0);
        CHECK(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &rd, 0) == -EINVAL);
        REQUIRE(vmaf_close(ctx) == 0);
    }
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    h.check_clean();
}

TEST_CASE("adopting a device: argument checks", "[vulkan][import]")
{
    Harness h;
    VmafVulkanState *state = nullptr;
    VmafVulkanExternalHandles bad = h.handles();
    bad.device = VK_NULL_HANDLE;
    CHECK(vmaf_vulkan_state_init_external(&state, bad) == -EINVAL);
    bad = h.handles();
    bad.unlock_queue = nullptr;
    CHECK(vmaf_vulkan_state_init_external(&state, bad) == -EINVAL);
    bad = h.handles();
    bad.reserved[3] = 7;
    CHECK(vmaf_vulkan_state_init_external(&state, bad) == -EINVAL);
    bad = h.handles();
    bad.api_version = VK_API_VERSION_1_1;
    CHECK(vmaf_vulkan_state_init_external(&state, bad) == -ENOTSUP);
    bad = h.handles();
    bad.queue_index = 64;
    CHECK(vmaf_vulkan_state_init_external(&state, bad) == -ENOTSUP);
    bad = h.handles();
    bad.max_outstanding_frames = 17;
    CHECK(vmaf_vulkan_state_init_external(&state, bad) == -EINVAL);
    // Features the caller did not enable.
    VkPhysicalDeviceFeatures2 none = vk::make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    bad = h.handles();
    bad.enabled_features = &none;
    CHECK(vmaf_vulkan_state_init_external(&state, bad) == -ENOTSUP);
    CHECK(state == nullptr);
    CHECK(vmaf_vulkan_state_init_external(nullptr, h.handles()) == -EINVAL);

    // Without the lock callbacks, and trusting the physical device's features.
    VmafVulkanExternalHandles plain = h.handles();
    plain.lock_queue = plain.unlock_queue = nullptr;
    plain.enabled_features = nullptr;
    plain.get_instance_proc_addr = nullptr;  // the system loader's
    REQUIRE(vmaf_vulkan_state_init_external(&state, plain) == 0);
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    h.check_clean();
}

TEST_CASE("image format facts", "[vulkan][import]")
{
    const vk::ImageFormatInfo *nv12 = vk::image_format_info(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM);
    REQUIRE(nv12);
    CHECK(nv12->planes == 2);
    CHECK(nv12->bytes == 1);
    CHECK(nv12->ss_x == 1);
    CHECK(nv12->ss_y == 1);
    const vk::ImageFormatInfo *p010 = vk::image_format_info(VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16);
    REQUIRE(p010);
    CHECK(p010->msb_bits == 10);
    CHECK(p010->bytes == 2);
    const vk::ImageFormatInfo *yuv422 = vk::image_format_info(VK_FORMAT_G16_B16_R16_3PLANE_422_UNORM);
    REQUIRE(yuv422);
    CHECK(yuv422->planes == 3);
    CHECK(yuv422->ss_y == 0);
    const vk::ImageFormatInfo *rg = vk::image_format_info(VK_FORMAT_R8G8_UNORM);
    REQUIRE(rg);
    CHECK(rg->components == 2);
    CHECK(vk::image_format_info(VK_FORMAT_R8G8B8A8_UNORM) == nullptr);
}
