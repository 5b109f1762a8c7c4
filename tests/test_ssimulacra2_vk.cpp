// SPDX-License-Identifier: BSD-2-Clause-Patent
// The ssimulacra2 GPU twin against the CPU extractor (itself checked against
// libjxl's tool in test_ssimulacra2): within 1e-6 per frame on the first
// frames of every golden pair (8 and 10 bit; 4:2:0, 4:2:2, 4:4:4), with
// libjxl's fused and unfused multiply-adds and another matrix and range; a
// 10-bit pair through a context within 1e-6 of libjxl's own tool; synthetic
// 12- and 16-bit pictures of odd and the smallest sizes; a
// device without doubles and pictures below 8x8 leave the work to the CPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "feature/ssimulacra2/ssimulacra2.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "options.h"
#include "picture/picture.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// The sums of the maps are added in another order than the CPU's (one row
// after another, each row's in double): ADR 0078.
constexpr double kTolerance = 1e-6;
constexpr size_t kFrames = 3;  // per pair: lavapipe is slow

void first_frames(std::vector<VmafPicture> &pics)
{
    for (size_t i = kFrames; i < pics.size(); i++) vmaf_picture_unref(&pics[i]);
    pics.resize(std::min(pics.size(), kFrames));
}

}  // namespace

TEST_CASE("ssimulacra2 on the GPU agrees with the CPU on every golden pair", "[ssimulacra2][vulkan][golden]")
{
    auto st = validated_state();
    double worst = 0;
    for (const auto &pair : golden_pairs()) {
        INFO(pair);
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        first_frames(ref);
        first_frames(dist);
        std::vector<Dict> variants = {{}, {{"libjxl_fma", "0"}}};
        if (pair == "rocket_320x240_10bit_crf30" || pair == "coffee_320x240_crf28")
            variants.push_back({{"matrix", "bt709"}, {"range", "full"}});
        for (const Dict &d : variants) {
            const auto opts = options_for(kSsimulacra2Extractor, d);
            const MapSink gpu = run_engine(*st, kSsimulacra2Extractor, opts, ref, dist, true);
            const MapSink cpu = run_extractor(kSsimulacra2Extractor, opts, ref, dist);
            REQUIRE(gpu.scores.count("ssimulacra2"));
            REQUIRE(gpu.scores.at("ssimulacra2").size() == ref.size());
            const double diff = max_of(compare_scores(gpu, cpu, {kTolerance}));
            worst = std::max(worst, diff);
            std::printf("%-32s %2zu option(s): frame 0 %.10f (GPU), max |GPU - CPU| %.3g\n", pair.c_str(), d.size(),
                        gpu.at("ssimulacra2", 0), diff);
        }
        unref_all(ref);
        unref_all(dist);
    }
    std::printf("ssimulacra2 GPU vs CPU: max |diff| %.3g\n", worst);
    check_clean(*st);
}

TEST_CASE("ssimulacra2 on the GPU: 12 and 16 bits, odd and smallest sizes", "[ssimulacra2][vulkan]")
{
    std::mt19937 rng(75);
    auto st = validated_state();
    struct Case {
        VmafPixelFormat fmt;
        unsigned bpc, w, h;
    };
    // 37x29: four scales, the last 5x4 (narrower than the blur's radius);
    // 8x8: two scales; 67x41 4:2:2: odd chroma blocks.
    const Case cases[] = {{VMAF_PIX_FMT_YUV444P, 12, 37, 29},
                          {VMAF_PIX_FMT_YUV420P, 16, 8, 8},
                          {VMAF_PIX_FMT_YUV422P, 12, 67, 41},
                          {VMAF_PIX_FMT_YUV420P, 16, 67, 41}};
    for (const Case &c : cases) {
        INFO(c.w << "x" << c.h << " fmt " << c.fmt << " bpc " << c.bpc);
        std::vector<VmafPicture> ref(2), dist(2);
        const unsigned maxv = (1u << c.bpc) - 1;
        for (unsigned f = 0; f < 2; f++) {
            REQUIRE(picture_alloc(&ref[f], c.fmt, c.bpc, c.w, c.h) == 0);
            REQUIRE(picture_alloc(&dist[f], c.fmt, c.bpc, c.w, c.h) == 0);
            for (unsigned pl = 0; pl < 3; pl++)
                for (unsigned y = 0; y < ref[f].h[pl]; y++)
                    for (unsigned x = 0; x < ref[f].w[pl]; x++) {
                        const unsigned a = (x * 37 + y * 11 + pl * 1000) * 16 % (maxv + 1);
                        const unsigned b = std::min(maxv, a + unsigned(rng() % (maxv / 16 + 1)));
                        auto *ra = static_cast<uint8_t *>(ref[f].data[pl]) + y * ref[f].stride[pl];
                        auto *rb = static_cast<uint8_t *>(dist[f].data[pl]) + y * dist[f].stride[pl];
                        reinterpret_cast<uint16_t *>(ra)[x] = uint16_t(a);
                        reinterpret_cast<uint16_t *>(rb)[x] = uint16_t(b);
                    }
        }
        for (const char *fma : {"1", "0"}) {
            const auto opts = options_for(kSsimulacra2Extractor, {{"libjxl_fma", fma}, {"range", "full"}});
            const MapSink gpu = run_engine(*st, kSsimulacra2Extractor, opts, ref, dist);
            const MapSink cpu = run_extractor(kSsimulacra2Extractor, opts, ref, dist);
            const double diff = max_of(compare_scores(gpu, cpu, {kTolerance}));
            std::printf("%ux%u fmt %d %u-bit libjxl_fma=%s: frame 0 %.10f (GPU), max |GPU - CPU| %.3g\n", c.w, c.h,
                        int(c.fmt), c.bpc, fma, gpu.at("ssimulacra2", 0), diff);
        }
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(*st);
}

TEST_CASE("ssimulacra2 leaves devices without doubles and pictures below 8x8 to the CPU", "[ssimulacra2][vulkan]")
{
    auto own = validated_state();
    vk::FeatureChain no_float64;
    std::unique_ptr<vk::State> st = adopt_without_float64(*own, &no_float64);
    const auto opts = options_for(kSsimulacra2Extractor);
    FrameFormat fmt{};
    fmt.pix_fmt = VMAF_PIX_FMT_YUV420P;
    fmt.bpc = 8;
    fmt.w = 64;
    fmt.h = 48;
    CHECK(vk::Engine::supports(*own, fmt, kSsimulacra2Extractor, opts));
    CHECK(!vk::Engine::supports(*st, fmt, kSsimulacra2Extractor, opts));
    for (auto [w, h] : {std::pair{7u, 48u}, std::pair{64u, 7u}}) {
        fmt.w = w;
        fmt.h = h;
        CHECK(!vk::Engine::supports(*own, fmt, kSsimulacra2Extractor, opts));
        CHECK(kSsimulacra2Extractor.create(opts)->init(fmt) == -EINVAL);  // the CPU's clear error
    }
    check_clean(*own);
}

TEST_CASE("a context with an imported state runs ssimulacra2 on the GPU, as libjxl's tool scores",
          "[ssimulacra2][vulkan][golden]")
{
    auto st = validated_state();
    const std::string pair = "rocket_320x240_10bit_crf30";
    const ContextScores gpu = score_in_context(*st, "ssimulacra2", pair, "ssimulacra2");
    CHECK(gpu.submissions == gpu.values.size() + 1);  // the constants at init, then one per frame
    // libjxl's own tool (test_ssimulacra2 holds the CPU extractor to the same bound).
    const Expected e = load_expected(data_dir() + "/" + pair + ".ssimulacra2.json");
    REQUIRE(e.frames.size() == gpu.values.size());
    double diff = 0;
    for (size_t i = 0; i < gpu.values.size(); i++) {
        INFO("frame " << i);
        const double d = std::fabs(gpu.values[i] - e.frames[i].at("ssimulacra2"));
        CHECK(d <= kTolerance);
        diff = std::max(diff, d);
    }
    std::printf("%s through a context on the GPU: max |GPU - libjxl| %.3g over %zu frames\n", pair.c_str(), diff,
                gpu.values.size());
    check_clean(*st);
}
