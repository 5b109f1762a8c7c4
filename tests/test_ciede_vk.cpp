// SPDX-License-Identifier: BSD-2-Clause-Patent
// The ciede GPU twin: libvmaf's numbers on every golden pair through the
// Engine, and the CPU extractor as oracle on synthetic input of every depth,
// chroma layout and awkward size, including extreme and saturated colours:
// every frame's score identical to the CPU's. Pictures of a few pixels isolate
// single CIEDE2000 evaluations: their sum in double is exact whatever the
// order, so any difference there is a per-pixel one. The 10-bit golden pair
// has pixels whose dE00 depends on how the C library's powf rounds C'^7 (five
// in its ten frames with glibc), which the host settles (ciede_vk.cpp): without
// that, four of its frames would differ in the 11th decimal.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "context/context.h"
#include "feature/ciede/ciede.h"
#include "bench.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "picture/picture.h"
#include "vulkan.h"
#include "gpu/engine.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

MapSink run_gpu(vk::State &st, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist)
{
    return run_engine(st, kCiedeExtractor, options_for(kCiedeExtractor), ref, dist);
}

MapSink run_cpu(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist)
{
    return run_extractor(kCiedeExtractor, options_for(kCiedeExtractor), ref, dist);
}

// |a - b|, 0 when both are the same infinity.
double diff(double a, double b)
{
    if (std::isinf(a) || std::isinf(b)) return a == b ? 0.0 : INFINITY;
    return std::fabs(a - b);
}

struct Comparison {
    double max_diff = 0;
    size_t frames = 0, identical = 0;
};

Comparison compare(const MapSink &gpu, const MapSink &cpu)
{
    Comparison c;
    REQUIRE(gpu.scores.count("ciede2000"));
    REQUIRE(cpu.scores.count("ciede2000"));
    const auto &g = gpu.scores.at("ciede2000"), &e = cpu.scores.at("ciede2000");
    REQUIRE(g.size() == e.size());
    for (const auto &[i, v] : e) {
        const double d = diff(g.at(i), v);
        c.max_diff = std::max(c.max_diff, d);
        c.frames++;
        c.identical += g.at(i) == v;
    }
    return c;
}

// Frames mixing smooth texture, noise and extremes: frame kinds cycle through
// uniform noise over the whole sample range (saturated and out-of-gamut
// colours), textured video-range content with a small distortion, all black
// against all white, and the corners of the YUV cube.
void synthetic(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned frames, uint32_t seed,
               std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    std::mt19937 rng(seed);
    const unsigned maxv = (1u << bpc) - 1;
    const unsigned s = 1u << (bpc - 8);
    for (unsigned f = 0; f < frames; f++) {
        const unsigned kind = f % 4;
        auto gen = [&](bool distorted) {
            return [&, distorted](unsigned pl, unsigned x, unsigned y) -> unsigned {
                switch (kind) {
                case 0: return unsigned(rng() % (maxv + 1));
                case 1: {
                    const double v = pl ? 128 + 40 * std::sin(0.3 * x + f) : 120 + 80 * std::cos(0.2 * x + 0.3 * y);
                    const int n = distorted ? int(rng() % 9) - 4 : 0;
                    return unsigned(std::clamp(int(v * s) + n, 0, int(maxv)));
                }
                case 2: return distorted ? maxv : 0u;
                default: {
                    const unsigned corner = (x + 3 * y + pl + (distorted ? 1 : 0)) % 3;
                    return corner == 0 ? 0u : corner == 1 ? maxv : 16 * s + unsigned(rng() % (220 * s));
                }
                }
            };
        };
        ref->push_back(make_picture(fmt, bpc, w, h, gen(false)));
        dist->push_back(make_picture(fmt, bpc, w, h, gen(true)));
    }
}

}  // namespace

TEST_CASE("ciede on the GPU matches libvmaf on every golden pair", "[ciede][vulkan][golden]")
{
    auto st = validated_state();
    REQUIRE(st->float64());  // the kernel needs doubles (lavapipe has them)
    double worst_libvmaf = 0, worst_cpu = 0;
    for (const auto &pair : golden_pairs()) {
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const MapSink gpu = run_gpu(*st, ref, dist);
        REQUIRE(gpu.scores.count("ciede2000"));
        const auto &got = gpu.scores.at("ciede2000");
        for (const char *suffix : {".libvmaf.more.json", ".libvmaf.aom_ctc_v7.0.json"}) {
            const auto expected = load_expected(data_dir() + "/" + pair + suffix);
            if (!expected.frames.front().count("ciede2000")) continue;
            REQUIRE(got.size() == expected.frames.size());
            double max_diff = 0;
            for (size_t i = 0; i < expected.frames.size(); i++) {
                const double e = expected.frames[i].at("ciede2000");  // NaN: libvmaf's null, +inf here
                const double g = got.at(unsigned(i));
                max_diff = std::max(max_diff, std::isnan(e) ? (std::isinf(g) && g > 0 ? 0.0 : INFINITY) : diff(g, e));
            }
            INFO(pair << suffix);
            CHECK(max_diff <= 1e-4);
            worst_libvmaf = std::max(worst_libvmaf, max_diff);
        }
        const Comparison c = compare(gpu, run_cpu(ref, dist));
        std::printf("%-32s %zu frames: max|diff| vs CPU %.3g (%zu identical)\n", pair.c_str(), c.frames,
                    c.max_diff, c.identical);
        CHECK(c.identical == c.frames);
        worst_cpu = std::max(worst_cpu, c.max_diff);
        unref_all(ref);
        unref_all(dist);
    }
    std::printf("ciede2000 golden pairs: max|diff| vs libvmaf %.3g, vs CPU %.3g\n", worst_libvmaf, worst_cpu);
    CHECK(worst_cpu == 0);
    check_clean(*st);
}

TEST_CASE("ciede on the GPU: depths, layouts, odd and tiny sizes, extreme colours", "[ciede][vulkan]")
{
    struct Case {
        VmafPixelFormat fmt;
        unsigned bpc, w, h, frames;
    };
    const Case cases[] = {
        {VMAF_PIX_FMT_YUV420P, 8, 37, 23, 8},   {VMAF_PIX_FMT_YUV420P, 10, 37, 23, 8},
        {VMAF_PIX_FMT_YUV420P, 12, 33, 35, 8},  {VMAF_PIX_FMT_YUV420P, 16, 19, 17, 4},
        {VMAF_PIX_FMT_YUV422P, 8, 131, 9, 4},   {VMAF_PIX_FMT_YUV422P, 10, 45, 21, 8},
        {VMAF_PIX_FMT_YUV422P, 12, 7, 66, 4},   {VMAF_PIX_FMT_YUV444P, 8, 40, 33, 8},
        {VMAF_PIX_FMT_YUV444P, 10, 17, 19, 8},  {VMAF_PIX_FMT_YUV444P, 12, 29, 3, 8},
        {VMAF_PIX_FMT_YUV444P, 16, 13, 11, 4},  {VMAF_PIX_FMT_YUV420P, 8, 1, 1, 4},
        {VMAF_PIX_FMT_YUV422P, 10, 1, 5, 4},    {VMAF_PIX_FMT_YUV420P, 10, 3, 3, 4},
        {VMAF_PIX_FMT_YUV444P, 12, 1, 1, 4},    {VMAF_PIX_FMT_YUV420P, 8, 70, 1, 4},
        {VMAF_PIX_FMT_YUV444P, 12, 256, 128, 4}, {VMAF_PIX_FMT_YUV420P, 10, 200, 96, 4},
    };
    for (unsigned frames_in_flight : {1u, 3u}) {
        auto st = validated_state(frames_in_flight);
        REQUIRE(st->float64());  // the kernel needs doubles (lavapipe has them)
        for (const Case &c : cases) {
            std::vector<VmafPicture> ref, dist;
            synthetic(c.fmt, c.bpc, c.w, c.h, c.frames, c.w * 131 + c.h + c.bpc, &ref, &dist);
            INFO("fmt " << c.fmt << " " << c.bpc << "-bit " << c.w << "x" << c.h << " in flight " << frames_in_flight);
            const Comparison cmp = compare(run_gpu(*st, ref, dist), run_cpu(ref, dist));
            if (frames_in_flight == 3)
                std::printf("synthetic %4ux%-3u %2u-bit fmt %d: max|diff| vs CPU %.3g (%zu of %zu frames identical)\n",
                            c.w, c.h, c.bpc, int(c.fmt), cmp.max_diff, cmp.identical, cmp.frames);
            CHECK(cmp.identical == cmp.frames);
            unref_all(ref);
            unref_all(dist);
        }
        check_clean(*st);
    }
}

TEST_CASE("ciede on the GPU: single pixels of random colours equal the CPU's", "[ciede][vulkan]")
{
    // 4x4 pictures, 4:4:4: sixteen independent evaluations per frame, over the
    // whole sample range at 8 and 10 bits and near grey (small hue angles,
    // chroma near zero, where atan2 and the hue wrap are delicate).
    auto st = validated_state();
    REQUIRE(st->float64());  // the kernel needs doubles (lavapipe has them)
    for (unsigned bpc : {8u, 10u}) {
        for (bool near_grey : {false, true}) {
            std::mt19937 rng(bpc * 7 + near_grey);
            const unsigned maxv = (1u << bpc) - 1, mid = 1u << (bpc - 1);
            std::vector<VmafPicture> ref, dist;
            for (unsigned f = 0; f < 64; f++) {
                auto gen = [&](unsigned pl, unsigned, unsigned) -> unsigned {
                    if (!near_grey) return unsigned(rng() % (maxv + 1));
                    return pl ? mid + unsigned(rng() % 5) - 2 : unsigned(rng() % (maxv + 1));
                };
                ref.push_back(make_picture(VMAF_PIX_FMT_YUV444P, bpc, 4, 4, gen));
                dist.push_back(make_picture(VMAF_PIX_FMT_YUV444P, bpc, 4, 4, gen));
            }
            const Comparison cmp = compare(run_gpu(*st, ref, dist), run_cpu(ref, dist));
            std::printf("4x4 %2u-bit %s: %zu of %zu frames identical, max|diff| %.3g\n", bpc,
                        near_grey ? "near grey" : "any colour", cmp.identical, cmp.frames, cmp.max_diff);
            CHECK(cmp.identical == cmp.frames);
            unref_all(ref);
            unref_all(dist);
        }
    }
    check_clean(*st);
}

TEST_CASE("ciede on the GPU: flat areas of a colour pair whose dE00 hangs on powf's rounding", "[ciede][vulkan]")
{
    // Pixel pairs of the 10-bit golden pair whose dE00 depends on how powf
    // rounds C'^7 (glibc rounds it the other way from the exact value), as
    // flat areas: every pixel of a tile needs settling, with one or two
    // colour pairs per tile, and some tiles with a third pair; plus noise.
    struct Yuv {
        unsigned y, u, v;
    };
    const Yuv pairs[3][2] = {{{181, 541, 500}, {186, 536, 493}},
                             {{387, 589, 464}, {388, 586, 470}},
                             {{274, 568, 480}, {273, 568, 482}}};
    auto st = validated_state();
    REQUIRE(st->float64());
    std::vector<VmafPicture> ref, dist;
    for (unsigned f = 0; f < 4; f++) {
        std::mt19937 rng(f);
        auto gen = [&](bool d) {
            return [&, d](unsigned pl, unsigned x, unsigned y) -> unsigned {
                unsigned k = f == 0 ? 0 : f == 1 ? (x / 8) % 2 : (x / 8 + y / 8) % 3;
                if (f == 3 && y >= 48) return 64 + unsigned(rng() % 800);  // and some noise
                const Yuv &c = pairs[k][d ? 1 : 0];
                return pl == 0 ? c.y : pl == 1 ? c.u : c.v;
            };
        };
        ref.push_back(make_picture(VMAF_PIX_FMT_YUV444P, 10, 72, 64, gen(false)));
        dist.push_back(make_picture(VMAF_PIX_FMT_YUV444P, 10, 72, 64, gen(true)));
    }
    const Comparison cmp = compare(run_gpu(*st, ref, dist), run_cpu(ref, dist));
    std::printf("flat powf-sensitive colour pairs: %zu of %zu frames identical, max|diff| %.3g\n", cmp.identical,
                cmp.frames, cmp.max_diff);
    CHECK(cmp.identical == cmp.frames);
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

TEST_CASE("ciede on the GPU: identical pictures score +infinity", "[ciede][vulkan]")
{
    auto st = validated_state();
    REQUIRE(st->float64());  // the kernel needs doubles (lavapipe has them)
    std::vector<VmafPicture> ref, dist;
    synthetic(VMAF_PIX_FMT_YUV420P, 10, 24, 18, 2, 5, &ref, &dist);
    const MapSink gpu = run_gpu(*st, ref, ref);
    REQUIRE(gpu.scores.at("ciede2000").size() == 2);
    for (const auto &[i, v] : gpu.scores.at("ciede2000")) CHECK((std::isinf(v) && v > 0));
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

TEST_CASE("a context with an imported state runs ciede on the GPU, as the CPU context scores it",
          "[ciede][vulkan][golden]")
{
    // The 10-bit pair: the one with pixels the host settles. Through the
    // internal import the C shim uses, to see the submissions.
    const std::string pair = "rocket_320x240_10bit_crf30";
    auto st = validated_state();
    const ContextScores on_gpu = score_in_context(*st, "ciede", pair, "ciede2000");
    const ContextScores on_cpu = score_in_context(*st, "ciede", pair, "ciede2000", /*on_cpu=*/true);
    CHECK(on_gpu.submissions == on_gpu.values.size());  // one submission per frame on the GPU
    CHECK(on_cpu.submissions == 0);
    const auto &gpu = on_gpu.values, &cpu = on_cpu.values;
    const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.more.json");
    REQUIRE(gpu.size() == expected.frames.size());
    for (size_t i = 0; i < gpu.size(); i++) {
        INFO("frame " << i);
        CHECK(gpu[i] == cpu[i]);
        CHECK(std::fabs(gpu[i] - expected.frames[i].at("ciede2000")) <= 1e-4);
    }
    check_clean(*st);
}

// Not run by default: `test_ciede_vk "[bench]"`. Frames per second of ciede
// through the engine next to the CPU extractor (tests/support/bench.h).
TEST_CASE("ciede throughput, GPU engine and CPU extractor", "[.][bench]")
{
    ThroughputBench b(kCiedeExtractor, options_for(kCiedeExtractor), {"ciede2000"},
                      [](unsigned bpc, unsigned w, unsigned h, auto *ref, auto *dist) {
                          synthetic(VMAF_PIX_FMT_YUV420P, bpc, w, h, 2, 9, ref, dist);
                      });
    run_throughput_bench(b);
}
