// SPDX-License-Identifier: BSD-2-Clause-Patent
// The PSNR GPU twin: libvmaf's numbers on every golden pair, through the Engine
// and through the public API, and bit-identical to the CPU extractor for every
// option, pixel format and bit depth.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstring>
#include <random>

#include "feature/psnr/psnr.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "picture/picture.h"
#include "bench.h"
#include "vulkan.h"
#include "context/context.h"
#include "gpu/engine.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// Scores of `ref`/`dist` through a GPU Engine running PSNR alone.
MapSink run_gpu(vk::State &st, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist,
                const FeatureOptions &opts)
{
    return run_engine(st, kPsnrExtractor, opts, ref, dist, /*check_second_flush=*/true);
}

// The same through the CPU extractor, the oracle.
MapSink run_cpu(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist,
                const FeatureOptions &opts)
{
    return run_extractor(kPsnrExtractor, opts, ref, dist);
}

}  // namespace

TEST_CASE("psnr on the GPU matches libvmaf on every golden pair", "[psnr][vulkan][golden]")
{
    auto st = validated_state();
    const char *names[] = {"psnr_y", "psnr_cb", "psnr_cr"};
    for (const auto &pair : golden_pairs()) {
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
        REQUIRE(ref.size() == expected.frames.size());
        const auto opts = options_for(kPsnrExtractor);
        const MapSink gpu = run_gpu(*st, ref, dist, opts);
        for (const char *n : names) {
            INFO(pair << " " << n);
            REQUIRE(gpu.scores.count(n));
            REQUIRE(gpu.scores.at(n).size() == expected.frames.size());
            double max_diff = 0;
            for (size_t i = 0; i < expected.frames.size(); i++)
                max_diff = std::max(max_diff, std::fabs(gpu.scores.at(n).at(unsigned(i)) - expected.frames[i].at(n)));
            std::printf("%-32s %-8s max|diff| vs libvmaf %.3g\n", pair.c_str(), n, max_diff);
            CHECK(max_diff <= 1e-4);
        }
        require_identical(gpu, run_cpu(ref, dist, opts));
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(*st);
}

TEST_CASE("psnr on the GPU through the public API", "[psnr][vulkan][golden]")
{
    for (const auto &pair : golden_pairs()) {
        INFO(pair);
        VmafVulkanState *vk = validated_api_state();
        VmafConfiguration cfg{};
        VmafContext *vmaf = nullptr;
        REQUIRE(vmaf_init(&vmaf, cfg) == 0);
        REQUIRE(vmaf_vulkan_import_state(vmaf, vk) == 0);
        REQUIRE(vmaf_use_feature(vmaf, "psnr", nullptr) == 0);
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
        for (size_t i = 0; i < ref.size(); i++)  // the context takes our references
            REQUIRE(vmaf_read_pictures(vmaf, &ref[i], &dist[i], unsigned(i)) == 0);
        REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
        for (const char *n : {"psnr_y", "psnr_cb", "psnr_cr"}) {
            for (size_t i = 0; i < expected.frames.size(); i++) {
                double v = -1;
                REQUIRE(vmaf_feature_score_at_index(vmaf, n, &v, unsigned(i)) == 0);
                CHECK(std::fabs(v - expected.frames[i].at(n)) <= 1e-4);
            }
        }
        REQUIRE(vmaf_close(vmaf) == 0);
        REQUIRE(vmaf_vulkan_state_free(&vk) == 0);
    }
}

TEST_CASE("a context with an imported state runs psnr on the GPU", "[psnr][vulkan]")
{
    auto st = validated_state();
    const std::string pair = "rocket_320x240_10bit_crf30";
    const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
    const ContextScores got = score_in_context(*st, "psnr", pair, "psnr_y");
    CHECK(got.submissions == got.values.size());  // one submission per frame
    for (size_t i = 0; i < got.values.size(); i++) CHECK(got.values[i] == expected.frames[i].at("psnr_y"));
    check_clean(*st);
}

TEST_CASE("psnr options on the GPU are the CPU's to the bit", "[psnr][vulkan]")
{
    auto st = validated_state();
    const std::vector<Dict> option_sets = {
        {{"enable_mse", "true"}, {"enable_apsnr", "true"}},
        {{"enable_chroma", "false"}, {"enable_mse", "true"}},
        {{"min_sse", "0.5"}, {"enable_apsnr", "true"}},
        {{"reduced_hbd_peak", "true"}, {"min_sse", "2"}},
    };
    for (const char *pair : {"coffee_320x240_crf28", "astronaut_320x240_422_crf33", "coffee_320x240_444_crf30",
                             "rocket_320x240_10bit_crf30", "chelsea_176x144_identical", "chelsea_322x186_rescale"}) {
        auto ref = load_y4m(data_dir() + "/" + std::string(pair) + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + std::string(pair) + "_dis.y4m");
        for (const Dict &d : option_sets) {
            INFO(pair << " option set " << (&d - option_sets.data()));
            const auto opts = options_for(kPsnrExtractor, d);
            require_identical(run_gpu(*st, ref, dist, opts), run_cpu(ref, dist, opts));
        }
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(*st);
}

TEST_CASE("psnr on the GPU: every pixel format and depth, odd sizes", "[psnr][vulkan]")
{
    std::mt19937 rng(1234);
    for (unsigned frames_in_flight : {1u, 3u}) {
        auto st = validated_state(frames_in_flight);
        for (VmafPixelFormat fmt : {VMAF_PIX_FMT_YUV400P, VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P,
                                    VMAF_PIX_FMT_YUV444P}) {
            for (unsigned bpc : {8u, 10u, 12u, 16u}) {
                for (auto [w, h] : {std::pair{67u, 35u}, std::pair{1u, 1u}, std::pair{1921u, 3u}}) {
                    INFO("fmt " << fmt << " bpc " << bpc << " " << w << "x" << h << " in flight "
                                << frames_in_flight);
                    // Five frames: more than the ring holds. Distorted = reference
                    // plus noise of a few sizes, clipped to the depth.
                    std::vector<VmafPicture> ref(5), dist(5);
                    const unsigned maxv = (1u << bpc) - 1;
                    for (size_t f = 0; f < ref.size(); f++) {
                        REQUIRE(picture_alloc(&ref[f], fmt, bpc, w, h) == 0);
                        REQUIRE(picture_alloc(&dist[f], fmt, bpc, w, h) == 0);
                        const unsigned spread = f == 4 ? maxv : (8u << f);
                        for (unsigned p = 0; p < plane_count(fmt); p++)
                            for (unsigned y = 0; y < ref[f].h[p]; y++)
                                for (unsigned x = 0; x < ref[f].w[p]; x++) {
                                    const unsigned a = rng() % (maxv + 1);
                                    const int d = int(rng() % (2 * spread + 1)) - int(spread);
                                    const unsigned b = unsigned(std::clamp(int(a) + d, 0, int(maxv)));
                                    auto *ra = static_cast<uint8_t *>(ref[f].data[p]) + y * ref[f].stride[p];
                                    auto *rb = static_cast<uint8_t *>(dist[f].data[p]) + y * dist[f].stride[p];
                                    if (bpc == 8) {
                                        ra[x] = uint8_t(a);
                                        rb[x] = uint8_t(b);
                                    } else {
                                        reinterpret_cast<uint16_t *>(ra)[x] = uint16_t(a);
                                        reinterpret_cast<uint16_t *>(rb)[x] = uint16_t(b);
                                    }
                                }
                    }
                    const auto opts = options_for(kPsnrExtractor, {{"enable_mse", "true"}, {"enable_apsnr", "true"}});
                    require_identical(run_gpu(*st, ref, dist, opts), run_cpu(ref, dist, opts));
                    unref_all(ref);
                    unref_all(dist);
                }
            }
        }
        check_clean(*st);
    }
}

// Not run by default: `test_psnr_vk "[bench]"`. Frames per second of PSNR through
// the engine (upload, kernels, readback, scores) next to the CPU extractor.
TEST_CASE("psnr throughput, GPU engine and CPU extractor", "[.][bench]")
{
    std::mt19937 rng(7);
    ThroughputBench b(kPsnrExtractor, options_for(kPsnrExtractor), {"psnr_y"},
                      [&rng](unsigned bpc, unsigned w, unsigned h, auto *ref, auto *dist) {
                          noise_frames(rng, bpc, w, h, 8, ref, dist);
                      });
    b.cpu_share = 4;
    run_throughput_bench(b);
}
