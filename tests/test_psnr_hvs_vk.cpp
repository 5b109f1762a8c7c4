// SPDX-License-Identifier: BSD-2-Clause-Patent
// The psnr_hvs GPU twin: libvmaf's numbers on every golden pair through the
// Engine, and the CPU extractor as oracle on synthetic pictures (odd sizes,
// tiny planes, 8/10/12-bit extremes, 4:2:0/4:2:2/4:4:4): every score is the
// CPU's to the bit, the serial float sum of each plane included.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "feature/psnr_hvs/psnr_hvs.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "picture/picture.h"
#include "bench.h"
#include "vulkan.h"
#include "context/context.h"
#include "gpu/engine.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

const char *const kNames[] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};

// Scores of `ref`/`dist` through a GPU Engine running psnr_hvs alone.
MapSink run_gpu(vk::State &st, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist)
{
    return run_engine(st, kPsnrHvsExtractor, FeatureOptions{}, ref, dist);
}

// The same through the CPU extractor, the oracle.
MapSink run_cpu(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist)
{
    return run_extractor(kPsnrHvsExtractor, FeatureOptions{}, ref, dist);
}

// |a - b|, 0 when both are the same infinity or both NaN, +inf when only one is finite.
double diff(double a, double b)
{
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0.0 : HUGE_VAL;
    if (std::isinf(a) || std::isinf(b)) return a == b ? 0.0 : HUGE_VAL;
    return std::fabs(a - b);
}

struct Worst {
    double d[4] = {};
};

// Every GPU score against the CPU's: identical (NaN where the CPU has NaN);
// returns the largest differences per name.
Worst compare(const MapSink &gpu, const MapSink &cpu)
{
    Worst worst;
    for (unsigned k = 0; k < 4; k++) {
        INFO(kNames[k]);
        REQUIRE(gpu.scores.count(kNames[k]));
        const auto &g = gpu.scores.at(kNames[k]);
        const auto &c = cpu.scores.at(kNames[k]);
        REQUIRE(g.size() == c.size());
        for (const auto &[i, v] : c) {
            INFO("frame " << i << " gpu " << g.at(i) << " cpu " << v);
            CHECK((g.at(i) == v || (std::isnan(v) && std::isnan(g.at(i)))));
            worst.d[k] = std::max(worst.d[k], diff(g.at(i), v));
        }
    }
    return worst;
}

// Per-frame metrics of a libvmaf JSON file; null (a non-finite score) reads as +inf.
std::vector<std::map<std::string, double>> load_frames(const std::string &path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    const auto j = nlohmann::json::parse(in);
    std::vector<std::map<std::string, double>> frames;
    for (const auto &fr : j.at("frames")) {
        std::map<std::string, double> m;
        for (const char *n : kNames) {
            if (!fr.at("metrics").contains(n)) continue;
            const auto &v = fr.at("metrics").at(n);
            m[n] = v.is_null() ? std::numeric_limits<double>::infinity() : v.get<double>();
        }
        frames.push_back(std::move(m));
    }
    return frames;
}

// Synthetic frames: a texture (or noise) reference and a distorted copy with
// noise of `spread`, clipped to the depth; `extreme` pins samples to 0 and max.
std::vector<VmafPicture> make_frames(std::mt19937 &rng, VmafPixelFormat fmt, unsigned bpc, unsigned w,
                                     unsigned h, unsigned n, const std::vector<VmafPicture> *base,
                                     unsigned spread, bool extreme)
{
    std::vector<VmafPicture> out(n);
    const unsigned maxv = (1u << bpc) - 1;
    for (unsigned f = 0; f < n; f++) {
        REQUIRE(picture_alloc(&out[f], fmt, bpc, w, h) == 0);
        for (unsigned p = 0; p < 3; p++)
            for (unsigned y = 0; y < out[f].h[p]; y++)
                for (unsigned x = 0; x < out[f].w[p]; x++) {
                    int v;
                    if (base) {
                        const auto *b = static_cast<const uint8_t *>((*base)[f].data[p]) + y * (*base)[f].stride[p];
                        v = bpc == 8 ? b[x] : reinterpret_cast<const uint16_t *>(b)[x];
                        v += int(rng() % (2 * spread + 1)) - int(spread);
                    } else if (extreme) {
                        v = (rng() & 1) ? int(maxv) : 0;
                    } else {
                        v = int(((x * 7 + y * 13 + (x * y) % 17 + 50 * p) % 160) * maxv / 255 + rng() % 5);
                    }
                    v = std::clamp(v, 0, int(maxv));
                    auto *row = static_cast<uint8_t *>(out[f].data[p]) + y * out[f].stride[p];
                    if (bpc == 8)
                        row[x] = uint8_t(v);
                    else
                        reinterpret_cast<uint16_t *>(row)[x] = uint16_t(v);
                }
    }
    return out;
}

}  // namespace

TEST_CASE("psnr_hvs on the GPU matches libvmaf and the CPU on every golden pair", "[psnr_hvs][vulkan][golden]")
{
    auto st = validated_state();
    if (!st->float64()) {
        WARN("no shaderFloat64 on this device: the CPU extractor runs psnr_hvs");
        return;
    }
    Worst vs_cpu;
    double vs_libvmaf[4] = {};
    for (const auto &pair : golden_pairs()) {
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const MapSink gpu = run_gpu(*st, ref, dist);
        for (const char *suffix : {".libvmaf.more.json", ".libvmaf.aom_ctc_v7.0.json"}) {
            const auto expected = load_frames(data_dir() + "/" + pair + suffix);
            REQUIRE(expected.size() == ref.size());
            for (unsigned k = 0; k < 4; k++) {
                if (!expected.front().count(kNames[k])) continue;  // libvmaf stopped before psnr_hvs
                INFO(pair << suffix << " " << kNames[k]);
                double max_diff = 0;
                for (size_t i = 0; i < expected.size(); i++)
                    max_diff = std::max(max_diff, diff(gpu.scores.at(kNames[k]).at(unsigned(i)),
                                                       expected[i].at(kNames[k])));
                CHECK(max_diff <= 1e-4);  // the CPU test's tolerance
                vs_libvmaf[k] = std::max(vs_libvmaf[k], max_diff);
            }
        }
        INFO(pair);
        const Worst w = compare(gpu, run_cpu(ref, dist));
        for (unsigned k = 0; k < 4; k++) vs_cpu.d[k] = std::max(vs_cpu.d[k], w.d[k]);
        unref_all(ref);
        unref_all(dist);
    }
    for (unsigned k = 0; k < 4; k++)
        std::printf("golden pairs %-12s max|diff| vs libvmaf %.3g, vs CPU extractor %.3g\n", kNames[k],
                    vs_libvmaf[k], vs_cpu.d[k]);
    check_clean(*st);
}

TEST_CASE("psnr_hvs through the public API with a Vulkan state", "[psnr_hvs][vulkan][golden]")
{
    auto st = validated_state();
    for (const char *pair : {"coffee_320x240_crf28", "rocket_320x240_10bit_crf30"}) {
        INFO(pair);
        VmafConfiguration cfg{};
        VmafContext *vmaf = nullptr;
        REQUIRE(vmaf_init(&vmaf, cfg) == 0);
        REQUIRE(context_import_vulkan_state(vmaf, st.get()) == 0);
        REQUIRE(vmaf_use_feature(vmaf, "psnr_hvs", nullptr) == 0);
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const auto expected = load_frames(data_dir() + "/" + pair + ".libvmaf.more.json");
        REQUIRE(expected.size() == ref.size());
        for (size_t i = 0; i < ref.size(); i++)  // the context takes our references
            REQUIRE(vmaf_read_pictures(vmaf, &ref[i], &dist[i], unsigned(i)) == 0);
        REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
        for (const char *n : kNames) {
            for (size_t i = 0; i < expected.size(); i++) {
                double v = -1;
                REQUIRE(vmaf_feature_score_at_index(vmaf, n, &v, unsigned(i)) == 0);
                INFO(n << " frame " << i);
                CHECK(v == expected[i].at(n));  // libvmaf's JSON carries these to the bit
            }
        }
        REQUIRE(vmaf_close(vmaf) == 0);
    }
    check_clean(*st);
}

TEST_CASE("psnr_hvs on the GPU against the CPU: formats, depths, odd and tiny sizes", "[psnr_hvs][vulkan]")
{
    std::mt19937 rng(99);
    Worst all;
    for (unsigned frames_in_flight : {1u, 3u}) {
        auto st = validated_state(frames_in_flight);
        if (!st->float64()) {
            WARN("no shaderFloat64 on this device");
            return;
        }
        for (VmafPixelFormat fmt : {VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV444P}) {
            for (unsigned bpc : {8u, 10u, 12u}) {
                // Odd sizes, a plane of one block (8) and of none (chroma of 9 wide
                // 4:2:x), one block row (15x8), and a width of many workgroups.
                for (auto [w, h] : {std::pair{67u, 35u}, std::pair{8u, 8u}, std::pair{9u, 15u},
                                    std::pair{15u, 8u}, std::pair{905u, 16u}}) {
                    for (bool extreme : {false, true}) {
                        INFO("fmt " << fmt << " bpc " << bpc << " " << w << "x" << h << " extreme " << extreme
                                    << " in flight " << frames_in_flight);
                        const unsigned maxv = (1u << bpc) - 1;
                        auto ref = make_frames(rng, fmt, bpc, w, h, 4, nullptr, 0, extreme);
                        // Noise from tiny to full range; frame 0 identical (+inf).
                        std::vector<VmafPicture> dist;
                        for (unsigned f = 0; f < 4; f++) {
                            std::vector<VmafPicture> one = {ref[f]};
                            const unsigned spread = f == 0 ? 0 : f == 3 ? maxv : (2u << (2 * f));
                            auto d = make_frames(rng, fmt, bpc, w, h, 1, &one, spread, false);
                            dist.push_back(d[0]);
                        }
                        const Worst wd = compare(run_gpu(*st, ref, dist), run_cpu(ref, dist));
                        for (unsigned k = 0; k < 4; k++) all.d[k] = std::max(all.d[k], wd.d[k]);
                        unref_all(ref);
                        unref_all(dist);
                    }
                }
            }
        }
        check_clean(*st);
    }
    for (unsigned k = 0; k < 4; k++)
        std::printf("synthetic %-12s max|diff| vs CPU extractor %.3g\n", kNames[k], all.d[k]);
}

TEST_CASE("psnr_hvs's walk, carried into the next frame, delivers every frame's scores", "[psnr_hvs][vulkan]")
{
    // The walk of frame k runs in frame k+1's submission (feature/twin.h,
    // carried work): frame k's scores arrive when frame k+1 is collected, and
    // wait_idle() and flush() submit the last frame's walk alone. Frames after
    // a wait_idle() start afresh, alternating the two copies of the errors.
    std::mt19937 rng(5);
    auto st = validated_state(2);
    if (!st->float64()) {
        WARN("no shaderFloat64 on this device");
        return;
    }
    const unsigned kFrames = 7;
    auto ref = make_frames(rng, VMAF_PIX_FMT_YUV420P, 8, 67, 35, kFrames, nullptr, 0, false);
    std::vector<VmafPicture> dist;
    for (unsigned f = 0; f < kFrames; f++) {
        std::vector<VmafPicture> one = {ref[f]};
        dist.push_back(make_frames(rng, VMAF_PIX_FMT_YUV420P, 8, 67, 35, 1, &one, 4u << f, false)[0]);
    }
    const MapSink cpu = run_cpu(ref, dist);
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(st.get(), format_of(ref[0]), {{&kPsnrHvsExtractor, FeatureOptions{}}}, &engine) == 0);
    MapSink gpu;
    auto have = [&](unsigned frames) {
        for (const char *n : kNames) {
            INFO(n << " after " << frames << " frames");
            const auto it = gpu.scores.find(n);
            CHECK((frames ? it != gpu.scores.end() && it->second.size() == frames : it == gpu.scores.end()));
        }
    };
    // One frame waited for: its walk is submitted alone.
    REQUIRE(engine->submit(ref[0], dist[0], 0, gpu) == 0);
    REQUIRE(engine->wait_idle(gpu) == 0);
    have(1);
    REQUIRE(engine->wait_idle(gpu) == 0);  // nothing held: nothing more
    have(1);
    for (unsigned i = 1; i < 4; i++) REQUIRE(engine->submit(ref[i], dist[i], i, gpu) == 0);
    REQUIRE(engine->wait_idle(gpu) == 0);
    have(4);
    for (unsigned i = 4; i < kFrames; i++) REQUIRE(engine->submit(ref[i], dist[i], i, gpu) == 0);
    REQUIRE(engine->flush(gpu) == 0);
    have(kFrames);
    compare(gpu, cpu);
    engine.reset();
    check_clean(*st);
    unref_all(ref);
    unref_all(dist);
}

TEST_CASE("psnr_hvs on the GPU against the CPU: frames of thousands of blocks", "[psnr_hvs][vulkan]")
{
    // More blocks than one round of the walk covers (64 threads x 64 blocks),
    // noise of every size so the sum passes through many binades.
    std::mt19937 rng(5);
    auto st = validated_state();
    if (!st->float64()) {
        WARN("no shaderFloat64 on this device");
        return;
    }
    for (auto [fmt, bpc] : {std::pair{VMAF_PIX_FMT_YUV420P, 8u}, std::pair{VMAF_PIX_FMT_YUV444P, 12u}}) {
        INFO("fmt " << fmt << " bpc " << bpc);
        const unsigned maxv = (1u << bpc) - 1;
        auto ref = make_frames(rng, fmt, bpc, 641, 361, 3, nullptr, 0, false);
        std::vector<VmafPicture> dist;
        for (unsigned f = 0; f < 3; f++) {
            std::vector<VmafPicture> one = {ref[f]};
            const unsigned spread = f == 2 ? maxv : (1u << (3 * f));
            dist.push_back(make_frames(rng, fmt, bpc, 641, 361, 1, &one, spread, false)[0]);
        }
        const Worst w = compare(run_gpu(*st, ref, dist), run_cpu(ref, dist));
        std::printf("641x361 fmt %d %u-bit max|diff| vs CPU extractor %.3g\n", int(fmt), bpc,
                    std::max({w.d[0], w.d[1], w.d[2], w.d[3]}));
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(*st);
}

// Not run by default: `test_psnr_hvs_vk "[bench]"`. Frames per second of
// psnr_hvs through the engine (upload, kernels, readback, scores) next to the
// CPU extractor, and the scores compared.
TEST_CASE("psnr_hvs throughput, GPU engine and CPU extractor", "[.][bench]")
{
    std::mt19937 rng(7);
    ThroughputBench b(kPsnrHvsExtractor, FeatureOptions{}, {std::begin(kNames), std::end(kNames)},
                      [&rng](unsigned bpc, unsigned w, unsigned h, auto *ref, auto *dist) {
                          noise_frames(rng, bpc, w, h, 8, ref, dist);
                      });
    b.cpu_share = 1;
    b.cpu_max = 8;
    b.profile = true;  // where its GPU time goes
    run_throughput_bench(b);
}

TEST_CASE("psnr_hvs inputs the GPU twin declines stay with the CPU", "[psnr_hvs][vulkan]")
{
    auto st = validated_state();
    const FeatureOptions opts;
    CHECK_FALSE(vk::Engine::supports(*st, FrameFormat{VMAF_PIX_FMT_YUV420P, 16, 64, 64}, kPsnrHvsExtractor, opts));
    CHECK_FALSE(vk::Engine::supports(*st, FrameFormat{VMAF_PIX_FMT_YUV400P, 8, 64, 64}, kPsnrHvsExtractor, opts));
    CHECK(vk::Engine::supports(*st, FrameFormat{VMAF_PIX_FMT_YUV420P, 12, 64, 64}, kPsnrHvsExtractor, opts) ==
          st->float64());
    // 16800x16800 4:4:4: 3 * 2399^2 blocks of 64 float errors, over 4 GiB, more
    // than any storage binding (a 32-bit range) holds: the CPU extractor runs it.
    CHECK_FALSE(
        vk::Engine::supports(*st, FrameFormat{VMAF_PIX_FMT_YUV444P, 8, 16800, 16800}, kPsnrHvsExtractor, opts));
    check_clean(*st);
}
