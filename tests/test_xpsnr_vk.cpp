// SPDX-License-Identifier: BSD-2-Clause-Patent
// The XPSNR GPU twin: bit-identical to the CPU extractor (itself checked against
// FFmpeg's filter in test_xpsnr) on every golden pair, through the Engine and
// through a context, and on synthetic pictures of every format, depth and path
// of the filter (small pictures, thin border blocks, second-order temporal
// difference, 2x2 sums above 2048x1152).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "feature/xpsnr/xpsnr.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "options.h"
#include "picture/picture.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

MapSink run_gpu(vk::State &st, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist,
                const FeatureOptions &opts)
{
    return run_engine(st, kXpsnrExtractor, opts, ref, dist, /*check_second_flush=*/true);
}

MapSink run_cpu(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist,
                const FeatureOptions &opts)
{
    return run_extractor(kXpsnrExtractor, opts, ref, dist);
}

// `n` frames: the reference a moving gradient on the left half and noise on the
// right (so block weights differ and some sit at the activity floor), the
// distorted one the reference plus noise of +-spread; samples up to the depth's
// maximum (16-bit ones above 32767, which the filter takes as negative).
void synthetic(std::mt19937 &rng, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned n,
               std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    ref->resize(n);
    dist->resize(n);
    const int maxv = int((1u << bpc) - 1);
    for (unsigned f = 0; f < n; f++) {
        REQUIRE(picture_alloc(&(*ref)[f], fmt, bpc, w, h) == 0);
        REQUIRE(picture_alloc(&(*dist)[f], fmt, bpc, w, h) == 0);
        const int spread = 1 + int(f % 3) * 4;
        for (unsigned p = 0; p < plane_count(fmt); p++) {
            const VmafPicture &r = (*ref)[f];
            for (unsigned y = 0; y < r.h[p]; y++)
                for (unsigned x = 0; x < r.w[p]; x++) {
                    const int a = x < r.w[p] / 2 ? int((x * 3 + y * 5 + f * 7) * unsigned(maxv) / 1024) % (maxv + 1)
                                                 : int(rng() % unsigned(maxv + 1));
                    const int b = std::clamp(a + int(rng() % unsigned(2 * spread + 1)) - spread, 0, maxv);
                    auto *ra = static_cast<uint8_t *>((*ref)[f].data[p]) + y * (*ref)[f].stride[p];
                    auto *rb = static_cast<uint8_t *>((*dist)[f].data[p]) + y * (*dist)[f].stride[p];
                    if (bpc == 8) {
                        ra[x] = uint8_t(a);
                        rb[x] = uint8_t(b);
                    } else {
                        reinterpret_cast<uint16_t *>(ra)[x] = uint16_t(a);
                        reinterpret_cast<uint16_t *>(rb)[x] = uint16_t(b);
                    }
                }
        }
    }
}

}  // namespace

TEST_CASE("xpsnr on the GPU equals the CPU on every golden pair", "[xpsnr][vulkan][golden]")
{
    auto st = validated_state();
    for (const auto &pair : golden_pairs()) {
        INFO(pair);
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const auto opts = options_for(kXpsnrExtractor);
        const MapSink gpu = run_gpu(*st, ref, dist, opts), cpu = run_cpu(ref, dist, opts);
        for (const char *n : {"xpsnr_y", "xpsnr_cb", "xpsnr_cr"}) {
            REQUIRE(gpu.scores.count(n));
            REQUIRE(gpu.scores.at(n).size() == ref.size());
        }
        REQUIRE(gpu.aggregates.size() == 3);
        require_identical(gpu, cpu);
        std::printf("%-32s xpsnr_y frame 0 %.17g, axpsnr_y %.17g (GPU)\n", pair.c_str(), gpu.at("xpsnr_y", 0),
                    gpu.aggregates.at("axpsnr_y"));
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(*st);
}

TEST_CASE("a context with an imported state runs xpsnr on the GPU", "[xpsnr][vulkan]")
{
    auto st = validated_state();
    const std::string pair = "rocket_320x240_10bit_crf30";
    const ContextScores gpu = score_in_context(*st, "xpsnr", pair, "xpsnr_cb");
    const ContextScores cpu = score_in_context(*st, "xpsnr", pair, "xpsnr_cb", /*on_cpu=*/true);
    CHECK(gpu.submissions == gpu.values.size());  // one submission per frame: it ran on the GPU
    CHECK(gpu.values == cpu.values);
    check_clean(*st);
}

TEST_CASE("xpsnr on the GPU: every format, depth and path of the filter", "[xpsnr][vulkan]")
{
    std::mt19937 rng(2024);
    auto st = validated_state();
    struct Case {
        unsigned w, h, frames;
        const char *fps;
    };
    // 40x30: too small to weight (plain SSE). 313x200: 12-sample blocks, the
    // last column 1 wide (no activity, history kept). 176x144 at 60 fps:
    // second-order difference. 700x500: above 640x480 (no smoothing).
    const Case cases[] = {{40, 30, 2, "0"}, {313, 200, 4, "25"}, {176, 144, 4, "60"}, {700, 500, 2, "30"}};
    for (const Case &c : cases)
        for (VmafPixelFormat fmt : {VMAF_PIX_FMT_YUV400P, VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P,
                                    VMAF_PIX_FMT_YUV444P})
            for (unsigned bpc : {8u, 10u, 16u}) {
                INFO(c.w << "x" << c.h << " fps " << c.fps << " fmt " << fmt << " bpc " << bpc);
                std::vector<VmafPicture> ref, dist;
                synthetic(rng, fmt, bpc, c.w, c.h, c.frames, &ref, &dist);
                const auto opts = options_for(kXpsnrExtractor, {{"fps", c.fps}});
                require_identical(run_gpu(*st, ref, dist, opts), run_cpu(ref, dist, opts));
                unref_all(ref);
                unref_all(dist);
            }
    check_clean(*st);
}

TEST_CASE("xpsnr on the GPU above 2048x1152 (2x2 sums), odd and even sizes", "[xpsnr][vulkan]")
{
    std::mt19937 rng(7);
    auto st = validated_state();
    for (auto [w, h, fps] : {std::tuple{2049u, 1153u, "25"}, std::tuple{2560u, 1440u, "50"}}) {
        INFO(w << "x" << h);
        std::vector<VmafPicture> ref, dist;
        synthetic(rng, VMAF_PIX_FMT_YUV420P, 8, w, h, 3, &ref, &dist);
        const auto opts = options_for(kXpsnrExtractor, {{"fps", fps}});
        require_identical(run_gpu(*st, ref, dist, opts), run_cpu(ref, dist, opts));
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(*st);
}
