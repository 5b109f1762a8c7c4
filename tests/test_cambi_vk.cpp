// SPDX-License-Identifier: BSD-2-Clause-Patent
// The CAMBI GPU twin: on every golden pair that has a cambi score, through the
// Engine, identical to the CPU extractor and within the CPU test's tolerance
// of libvmaf's JSON (default run and both CTC presets); identical to the CPU
// extractor on synthetic banded gradients that give nonzero scores (8, 10,
// 12-bit, every chroma layout, odd and minimal sizes) and under the options
// the GPU runs; the options it leaves to the CPU are declined.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "context/context.h"
#include "feature/cambi/cambi.h"
#include "feature/registry.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "picture/picture.h"
#include "bench.h"
#include "vulkan.h"
#include "gpu/engine.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

constexpr const char *kScore = "Cambi_feature_cambi_score";

MapSink run_gpu(vk::State &st, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist, const FeatureOptions &opts)
{
    REQUIRE(gpu_twin(kCambiExtractor)->supports(st, format_of(ref[0]), opts));
    return run_engine(st, kCambiExtractor, opts, ref, dist);
}

MapSink run_cpu(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist, const FeatureOptions &opts)
{
    return run_extractor(kCambiExtractor, opts, ref, dist);
}

// Max |GPU - CPU| over every output and frame (checks the outputs and frames agree).
double max_diff(const MapSink &gpu, const MapSink &cpu)
{
    REQUIRE(cpu.scores.count(kScore));
    REQUIRE(gpu.scores.size() == cpu.scores.size());
    double m = 0;
    for (const auto &[name, c] : cpu.scores) {
        INFO(name);
        REQUIRE(gpu.scores.count(name));
        const auto &g = gpu.scores.at(name);
        REQUIRE(g.size() == c.size());
        for (const auto &[i, v] : c) {
            REQUIRE(g.count(i));
            m = std::max(m, std::fabs(g.at(i) - v));
        }
    }
    return m;
}

double max_score(const MapSink &s)
{
    double m = 0;
    for (const auto &[i, v] : s.scores.at(kScore)) m = std::max(m, v);
    return m;
}

// Banded gradients: a slow ramp in 10-bit codes, quantized to the picture's
// depth in steps of one to three codes (banding where the step is visible),
// with a textured corner and sparse noise, differing per frame.
void banded(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned frames, uint32_t seed,
            std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    std::mt19937 rng(seed);
    const unsigned maxv = (1u << bpc) - 1;
    for (unsigned f = 0; f < frames; f++) {
        const unsigned step = 1 + f % 3;
        const double slope = 0.06 + 0.03 * f;
        auto luma = [&](unsigned x, unsigned y, bool distorted) {
            double v10 = 150 + slope * (x + 0.5 * y);
            if (x > w * 3 / 4 && y > h * 3 / 4) v10 += double(rng() % 60);  // texture
            double v = bpc >= 10 ? v10 * double(1u << (bpc - 10)) : v10 / double(1u << (10 - bpc));
            if (distorted) v = std::floor(v / step) * step;
            int s = int(v) + (rng() % 64 == 0 ? int(rng() % 3) - 1 : 0);
            return unsigned(std::clamp(s, 0, int(maxv)));
        };
        ref->push_back(make_picture(fmt, bpc, w, h, [&](unsigned pl, unsigned x, unsigned y) {
            return pl ? unsigned(rng() % (maxv + 1)) : luma(x, y, false);
        }));
        dist->push_back(make_picture(fmt, bpc, w, h, [&](unsigned pl, unsigned x, unsigned y) {
            return pl ? unsigned(rng() % (maxv + 1)) : luma(x, y, true);
        }));
    }
}

}  // namespace

TEST_CASE("cambi on the GPU: every golden pair through the Engine", "[cambi][vulkan][golden]")
{
    auto st = validated_state();
    const char *presets[] = {".libvmaf.json", ".libvmaf.aom_ctc_v7.0.json", ".libvmaf.nflx_ctc_v1.0.json"};
    int pairs = 0;
    for (const auto &pair : golden_pairs()) {
        const auto first = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
        if (first.frames.empty() || !first.frames[0].count("cambi")) continue;
        pairs++;
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const auto opts = options_for(kCambiExtractor);
        const MapSink gpu = run_gpu(*st, ref, dist, opts);
        const double vs_cpu = max_diff(gpu, run_cpu(ref, dist, opts));
        CHECK(vs_cpu == 0.0);
        double golden = 0;
        for (const char *suffix : presets) {
            const auto expected = load_expected(data_dir() + "/" + pair + suffix);
            REQUIRE(expected.frames.size() == ref.size());
            for (size_t i = 0; i < ref.size(); i++)
                golden = std::max(golden,
                                  std::fabs(gpu.scores.at(kScore).at(unsigned(i)) - expected.frames[i].at("cambi")));
        }
        CHECK(golden <= 1e-4);
        std::printf("%-30s cambi GPU: max|diff| vs CPU %g, vs libvmaf (3 presets) %.3g, max score %.4f\n",
                    pair.c_str(), vs_cpu, golden, max_score(gpu));
        unref_all(ref);
        unref_all(dist);
    }
    CHECK(pairs >= 1);
    if (!golden_subset()) CHECK(pairs == 7);  // all ten pairs: the seven whose libvmaf runs have cambi
    // The c-value kernel's columns per workgroup follow the band and this limit
    // (cambi_vk.cpp: cvalue_columns); the options test's max_log_contrast 0, 2
    // and 5 (bands of 180, 564 and 1056 values) reach 32, 16 and 8 at 32 KiB.
    std::printf("shared memory per workgroup on %s: %u bytes\n", st->info().name.c_str(),
                st->limits().maxComputeSharedMemorySize);
    check_clean(*st);
}

TEST_CASE("cambi on the GPU equals the CPU on banded gradients", "[cambi][vulkan]")
{
    auto st = validated_state();
    struct Case {
        VmafPixelFormat fmt;
        unsigned bpc, w, h;
    };
    const Case cases[] = {
        {VMAF_PIX_FMT_YUV420P, 8, 256, 216},   // small, 8-bit (anti-dithering on)
        {VMAF_PIX_FMT_YUV420P, 10, 301, 227},  // odd size, 10-bit
        {VMAF_PIX_FMT_YUV422P, 8, 217, 40},    // one side under the minimum, very flat
        {VMAF_PIX_FMT_YUV444P, 12, 216, 216},  // 12-bit
        {VMAF_PIX_FMT_YUV400P, 10, 40, 250},   // luma only, narrow
        {VMAF_PIX_FMT_YUV420P, 16, 230, 220},  // 16-bit
        {VMAF_PIX_FMT_YUV444P, 8, 216, 1},     // one row: every scale one row
        {VMAF_PIX_FMT_YUV400P, 10, 3, 216},    // three columns: two at scale 1, one from scale 2
    };
    uint32_t seed = 1;
    for (const Case &c : cases) {
        INFO(c.w << "x" << c.h << " " << c.bpc << "-bit fmt " << int(c.fmt));
        std::vector<VmafPicture> ref, dist;
        banded(c.fmt, c.bpc, c.w, c.h, 3, seed++, &ref, &dist);
        const auto opts = options_for(kCambiExtractor);
        const MapSink gpu = run_gpu(*st, ref, dist, opts);
        const MapSink cpu = run_cpu(ref, dist, opts);
        const double d = max_diff(gpu, cpu);
        std::printf("cambi GPU %4ux%-4u %2u-bit fmt %d: max|diff| vs CPU %g, max score %.4f\n", c.w, c.h, c.bpc,
                    int(c.fmt), d, max_score(cpu));
        CHECK(d == 0.0);
        if (c.w >= 216 && c.h >= 216) CHECK(max_score(cpu) > 0.0);  // the case exercises the c-values
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(*st);
}

// The pooling's counters are zeroed on the GPU by each frame's last passes
// for the next (and the error word alternates), so a frame's scores must not
// depend on the frames before it: a sequence whose frames differ (banded,
// then flat, then banded again), in full-reference mode, frame by frame
// against the CPU.
TEST_CASE("cambi on the GPU scores each frame of a sequence alone", "[cambi][vulkan]")
{
    auto st = validated_state();
    std::vector<VmafPicture> ref, dist;
    banded(VMAF_PIX_FMT_YUV420P, 10, 320, 240, 4, 31, &ref, &dist);
    for (int f = 0; f < 2; f++) {  // flat frames: every c-value 0, nothing pooled above zero
        ref.push_back(make_picture(VMAF_PIX_FMT_YUV420P, 10, 320, 240, [](unsigned, unsigned, unsigned) { return 512u; }));
        dist.push_back(make_picture(VMAF_PIX_FMT_YUV420P, 10, 320, 240, [](unsigned, unsigned, unsigned) { return 500u; }));
    }
    banded(VMAF_PIX_FMT_YUV420P, 10, 320, 240, 3, 32, &ref, &dist);
    for (const Dict &d : {Dict{}, Dict{{"full_ref", "true"}}}) {
        const auto opts = options_for(kCambiExtractor, d);
        const MapSink gpu = run_gpu(*st, ref, dist, opts);
        const MapSink cpu = run_cpu(ref, dist, opts);
        REQUIRE(gpu.scores.size() == cpu.scores.size());
        for (const auto &[name, per_frame] : cpu.scores) REQUIRE(gpu.scores.at(name).size() == ref.size());
        CHECK(max_diff(gpu, cpu) == 0.0);
        CHECK(max_score(cpu) > 0.0);
    }
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

// Flat stripes 24 columns wide at two levels 300 codes apart, each banded in
// one-code steps down the rows: every block of the c-value pass holds keys
// far apart, more than its narrow histograms take, so the wide pass scores
// them (cambi_cvalues.comp); a quarter of the picture is one level only.
TEST_CASE("cambi on the GPU equals the CPU where blocks hold distant values", "[cambi][vulkan]")
{
    auto st = validated_state();
    std::vector<VmafPicture> ref, dist;
    for (unsigned f = 0; f < 2; f++) {
        auto level = [&](unsigned x, unsigned y) {
            const unsigned base = x >= 300 || (x / 24) % 2 == 0 ? 200 : 500;
            return base + (y + 7 * f) / (12 + 4 * f);
        };
        ref.push_back(make_picture(VMAF_PIX_FMT_YUV420P, 10, 400, 240, [&](unsigned pl, unsigned x, unsigned y) {
            return pl ? 512u : level(x, y);
        }));
        dist.push_back(make_picture(VMAF_PIX_FMT_YUV420P, 10, 400, 240, [&](unsigned pl, unsigned x, unsigned y) {
            return pl ? 512u : level(x, y) / 2 * 2;
        }));
    }
    const auto opts = options_for(kCambiExtractor, {{"full_ref", "true"}});
    const MapSink gpu = run_gpu(*st, ref, dist, opts);
    const MapSink cpu = run_cpu(ref, dist, opts);
    const double d = max_diff(gpu, cpu);
    std::printf("cambi GPU two-level stripes: max|diff| vs CPU %g, max score %.4f\n", d, max_score(cpu));
    CHECK(d == 0.0);
    CHECK(max_score(cpu) > 0.0);
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

TEST_CASE("cambi on the GPU equals the CPU under its options", "[cambi][vulkan]")
{
    auto st = validated_state();
    std::vector<VmafPicture> ref, dist;
    banded(VMAF_PIX_FMT_YUV420P, 10, 320, 240, 2, 77, &ref, &dist);
    const Dict cases[] = {
        {{"window_size", "33"}},
        {{"window_size", "127"}},
        {{"topk", "0.3"}},
        {{"cambi_topk", "1.0"}},
        {{"topk", "0.0001"}},
        {{"tvi_threshold", "0.1"}},
        {{"eotf", "pq"}, {"max_log_contrast", "3"}},
        {{"max_log_contrast", "5"}},
        {{"max_log_contrast", "0"}},
        {{"cambi_vis_lum_threshold", "1"}},
        {{"cambi_vis_lum_threshold", "10"}, {"tvi_threshold", "0.05"}},
        {{"enc_width", "240"}, {"enc_height", "180"}},
        {{"enc_width", "300"}, {"enc_height", "230"}, {"enc_bitdepth", "8"}},
        {{"enc_bitdepth", "10"}},
        {{"cambi_max_val", "0.5"}},
        {{"full_ref", "true"}},
        {{"full_ref", "true"}, {"src_width", "400"}, {"src_height", "300"}, {"window_size", "100"}},
        {{"full_ref", "true"}, {"enc_width", "256"}, {"enc_height", "216"}, {"src_width", "320"},
         {"src_height", "240"}},
    };
    for (const Dict &d : cases) {
        std::string name;
        for (const auto &[k, v] : d) name += k + "=" + v + " ";
        INFO(name);
        const auto opts = options_for(kCambiExtractor, d);
        const MapSink gpu = run_gpu(*st, ref, dist, opts);
        const MapSink cpu = run_cpu(ref, dist, opts);
        const double diff = max_diff(gpu, cpu);
        std::printf("cambi GPU %-50s max|diff| vs CPU %g, max score %.4f\n", name.c_str(), diff, max_score(cpu));
        CHECK(diff == 0.0);
    }
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

// The golden pairs and the cases above have windows of 7 to 11 samples; at
// 1080p the default window is 33, window_size 127 gives 63 (near the largest,
// 65), and cambi_high_res_speedup halves the picture before the first scale.
TEST_CASE("cambi on the GPU equals the CPU at 1080p", "[cambi][vulkan][hd]")
{
    auto st = validated_state();
    std::vector<VmafPicture> ref, dist;
    banded(VMAF_PIX_FMT_YUV420P, 10, 1920, 1080, 1, 5, &ref, &dist);
    const Dict cases[] = {{}, {{"window_size", "127"}, {"max_log_contrast", "5"}}, {{"cambi_high_res_speedup", "1080"}}};
    for (const Dict &d : cases) {
        std::string name;
        for (const auto &[k, v] : d) name += k + "=" + v + " ";
        INFO(name);
        const auto opts = options_for(kCambiExtractor, d);
        const MapSink gpu = run_gpu(*st, ref, dist, opts);
        const MapSink cpu = run_cpu(ref, dist, opts);
        const double diff = max_diff(gpu, cpu);
        std::printf("cambi GPU 1080p %-42s max|diff| vs CPU %g, score %.4f\n", name.c_str(), diff, max_score(cpu));
        CHECK(diff == 0.0);
        CHECK(max_score(cpu) > 0.0);
    }
    unref_all(ref);
    unref_all(dist);
    // The largest window, 65 (window_size 127 at width + height 3024).
    banded(VMAF_PIX_FMT_YUV420P, 8, 1944, 1080, 1, 6, &ref, &dist);
    const auto opts = options_for(kCambiExtractor, {{"window_size", "127"}});
    const MapSink cpu = run_cpu(ref, dist, opts);
    const double diff = max_diff(run_gpu(*st, ref, dist, opts), cpu);
    std::printf("cambi GPU 1944x1080 window 65: max|diff| vs CPU %g, score %.4f\n", diff, max_score(cpu));
    CHECK(diff == 0.0);
    CHECK(max_score(cpu) > 0.0);
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

TEST_CASE("a context with an imported state runs cambi on the GPU", "[cambi][vulkan][golden]")
{
    auto st = validated_state();
    const std::string pair = "testsrc2_320x240_crf45";
    const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
    const ContextScores got = score_in_context(*st, "cambi", pair, "cambi");
    CHECK(got.submissions == got.values.size() + 1);  // the tables at init, then one per frame
    for (size_t i = 0; i < got.values.size(); i++) CHECK(got.values[i] == expected.frames[i].at("cambi"));
    check_clean(*st);
}

TEST_CASE("cambi on the GPU refuses samples above the bit depth, as the CPU does", "[cambi][vulkan]")
{
    auto st = validated_state();
    std::vector<VmafPicture> ref, dist;
    banded(VMAF_PIX_FMT_YUV420P, 10, 240, 216, 1, 9, &ref, &dist);
    // One sample over 1023, in a corner the scored encode size does not sample.
    reinterpret_cast<uint16_t *>(static_cast<uint8_t *>(dist[0].data[0]) + size_t(215) * dist[0].stride[0])[239] = 1024;
    for (const Dict &d : {Dict{}, Dict{{"enc_width", "216"}, {"enc_height", "216"}}}) {
        const auto opts = options_for(kCambiExtractor, d);
        auto ex = kCambiExtractor.create(opts);
        REQUIRE(ex->init(format_of(ref[0])) == 0);
        MapSink cpu;
        CHECK(ex->extract(ref[0], dist[0], 0, cpu) == -EINVAL);
        std::unique_ptr<vk::Engine> engine;
        REQUIRE(vk::Engine::create(st.get(), format_of(ref[0]), {{&kCambiExtractor, opts}}, &engine) == 0);
        MapSink gpu;
        int err = engine->submit(ref[0], dist[0], 0, gpu);
        if (!err) err = engine->flush(gpu);
        CHECK(err == -EINVAL);
        CHECK(gpu.scores.empty());
    }
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

TEST_CASE("cambi on the GPU fails the frame with the bad sample, not its neighbours in flight", "[cambi][vulkan]")
{
    // The error words alternate by frame, and each frame's last pass zeroes
    // the next one's (cambi_sum.comp): the frames before the bad one score as
    // the CPU's, the bad one fails, whatever was in flight beside it.
    auto st = validated_state();
    std::vector<VmafPicture> ref, dist;
    banded(VMAF_PIX_FMT_YUV420P, 10, 240, 216, 6, 9, &ref, &dist);
    const unsigned bad = 3;
    reinterpret_cast<uint16_t *>(static_cast<uint8_t *>(dist[bad].data[0]) + size_t(100) * dist[bad].stride[0])[50] = 1024;
    const auto opts = options_for(kCambiExtractor, {});
    const std::vector<VmafPicture> ref_ok(ref.begin(), ref.begin() + bad), dist_ok(dist.begin(), dist.begin() + bad);
    const MapSink cpu = run_cpu(ref_ok, dist_ok, opts);
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(st.get(), format_of(ref[0]), {{&kCambiExtractor, opts}}, &engine) == 0);
    MapSink gpu;
    int err = 0;
    for (unsigned i = 0; i < ref.size() && !err; i++) err = engine->submit(ref[i], dist[i], i, gpu);
    if (!err) err = engine->flush(gpu);
    CHECK(err == -EINVAL);
    REQUIRE(gpu.scores.count(kScore));
    CHECK(gpu.scores.at(kScore).size() == bad);
    CHECK(max_diff(gpu, cpu) == 0.0);
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

TEST_CASE("cambi on the GPU declines heatmaps and tiny pictures", "[cambi][vulkan]")
{
    auto st = validated_state();
    const vk::FeatureInfo *f = gpu_twin(kCambiExtractor);
    REQUIRE(f);
    const FrameFormat fmt{VMAF_PIX_FMT_YUV420P, 8, 320, 240};
    CHECK(f->supports(*st, fmt, options_for(kCambiExtractor)));
    CHECK(f->supports(*st, fmt, options_for(kCambiExtractor, {{"full_ref", "true"}})));
    CHECK_FALSE(f->supports(*st, fmt, options_for(kCambiExtractor, {{"heatmaps_path", "somewhere"}})));
    CHECK_FALSE(f->supports(*st, {VMAF_PIX_FMT_YUV420P, 8, 176, 144}, options_for(kCambiExtractor)));
    CHECK_FALSE(vk::Engine::supports(*st, fmt, kCambiExtractor, options_for(kCambiExtractor, {{"heatmaps_path", "somewhere"}})));
}

// Not run by default: `test_cambi_vk "[bench]"`. Frames per second of CAMBI
// (default options) through the Engine on banded gradients, with the GPU time
// per frame from the Engine's timestamps, the CPU extractor on one thread for
// comparison, and the first frames checked identical. VMAF_BENCH_FRAMES sets
// the GPU frame count (a few on a CPU driver); VMAF_BENCH_PROFILE set prints
// the GPU time of each stage (profile mode).
TEST_CASE("cambi throughput, GPU engine and CPU extractor", "[.][bench]")
{
    ThroughputBench b(kCambiExtractor, options_for(kCambiExtractor), {kScore},
                      [](unsigned bpc, unsigned w, unsigned h, auto *ref, auto *dist) {
                          banded(VMAF_PIX_FMT_YUV420P, bpc, w, h, 4, 99, ref, dist);
                      });
    b.cpu_share = 100;
    b.cpu_max = 4;  // the distinct frames
    run_throughput_bench(b);
}
