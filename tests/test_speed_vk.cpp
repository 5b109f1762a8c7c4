// SPDX-License-Identifier: BSD-2-Clause-Patent
// The SpEED GPU twins (speed_chroma, speed_temporal): bit-identical to the CPU
// extractors on synthetic and golden pictures, for every pixel format, bit
// depth, weighting mode, supported kernel scale and option, near the minimum
// size, with speed_prescale (every method) and on flat (singular) planes;
// what the twins decline (sizes the CPU extractor rejects, devices without
// doubles) runs on the CPU.
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "feature/speed/speed.h"
#include "golden.h"
#include "stderr_capture.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// `count` frame pairs: a smooth pattern that moves from frame to frame plus
// noise (the distorted: more noise); plane `flat_plane` (if < 3) is flat on
// both pictures.
void synthetic(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, size_t count, unsigned seed,
               std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist, unsigned flat_plane = 3)
{
    std::mt19937 rng(seed);
    const unsigned max = (1u << bpc) - 1;
    for (size_t f = 0; f < count; f++) {
        for (int side = 0; side < 2; side++) {
            const unsigned amp = side ? 24 : 8;
            auto gen = [&](unsigned p, unsigned x, unsigned y) -> unsigned {
                if (p == flat_plane) return 100u << (bpc - 8);
                const double v = 128 + 60 * std::sin(0.05 * (x + 3 * f) + 0.3 * p) * std::cos(0.07 * y + 0.2 * f) +
                                 double(rng() % amp) - amp / 2.0;
                const double s = v * double(1u << (bpc - 8)) + double(rng() % (1u << (bpc - 8)));
                return unsigned(std::clamp(s, 0.0, double(max)));
            };
            (side ? dist : ref)->push_back(make_picture(fmt, bpc, w, h, gen));
        }
    }
}

// The GPU twin (REQUIREd to run) against the CPU extractor, to the bit.
// Returns whether any score is other than 0 (planes too small for a regular
// covariance, of a few samples per window, score 0 on both).
bool check_twin(vk::State &st, const ExtractorInfo &ex, const Dict &d, const std::vector<VmafPicture> &ref,
                const std::vector<VmafPicture> &dist)
{
    const auto opts = options_for(ex, d);
    const MapSink gpu = run_engine(st, ex, opts, ref, dist, /*check_second_flush=*/true);
    const MapSink cpu = run_extractor(ex, opts, ref, dist);
    REQUIRE(!cpu.scores.empty());
    require_identical(gpu, cpu);
    bool nonzero = false;
    for (const auto &[n, series] : cpu.scores)
        for (const auto &[i, v] : series) nonzero = nonzero || v != 0.0;
    return nonzero;
}

struct Frames {
    std::vector<VmafPicture> ref, dist;
    ~Frames()
    {
        unref_all(ref);
        unref_all(dist);
    }
};

const char *fmt_name(VmafPixelFormat f)
{
    return f == VMAF_PIX_FMT_YUV420P ? "420" : f == VMAF_PIX_FMT_YUV422P ? "422" : f == VMAF_PIX_FMT_YUV444P ? "444" : "400";
}

const Dict kV1Chroma = {{"speed_weight_var_mode", "5"}, {"speed_sigma_nn", "0.19"}, {"speed_nn_floor", "0.1"}};

}  // namespace

TEST_CASE("speed on the GPU equals the CPU: formats, depths, sizes", "[speed][vulkan]")
{
    auto st = validated_state();
    REQUIRE(st->float64());
    struct Size {
        VmafPixelFormat fmt;
        unsigned w, h;
    };
    // Chroma sizes from the minimum (80 after halving, rounded down) up,
    // odd luma sizes included.
    const Size sizes[] = {{VMAF_PIX_FMT_YUV420P, 160, 160}, {VMAF_PIX_FMT_YUV420P, 161, 163},
                          {VMAF_PIX_FMT_YUV420P, 333, 251}, {VMAF_PIX_FMT_YUV422P, 160, 80},
                          {VMAF_PIX_FMT_YUV422P, 241, 97},  {VMAF_PIX_FMT_YUV444P, 80, 80},
                          {VMAF_PIX_FMT_YUV444P, 95, 179},  {VMAF_PIX_FMT_YUV444P, 199, 87},
                          // Enough samples per window for a regular covariance.
                          {VMAF_PIX_FMT_YUV420P, 1280, 720}, {VMAF_PIX_FMT_YUV422P, 641, 359},
                          {VMAF_PIX_FMT_YUV444P, 401, 299}};
    unsigned seed = 1;
    for (const Size &s : sizes)
        for (unsigned bpc : {8u, 10u, 12u}) {
            INFO(fmt_name(s.fmt) << " " << bpc << "-bit " << s.w << "x" << s.h);
            Frames f;
            synthetic(s.fmt, bpc, s.w, s.h, 3, seed++, &f.ref, &f.dist);
            const bool large = s.w > 400;
            CHECK(check_twin(*st, kSpeedChromaExtractor, {}, f.ref, f.dist) == large);
            CHECK(check_twin(*st, kSpeedChromaExtractor, kV1Chroma, f.ref, f.dist) == large);
            const bool t = check_twin(*st, kSpeedTemporalExtractor, {}, f.ref, f.dist);
            if (large) CHECK(t);
        }
    // Luma-only pictures for speed_temporal, at and near its minimum.
    for (auto [w, h] : {std::pair{80u, 80u}, {81u, 95u}, {97u, 80u}, {175u, 161u}, {483u, 271u}}) {
        INFO("400 " << w << "x" << h);
        Frames f;
        synthetic(VMAF_PIX_FMT_YUV400P, 8, w, h, 4, seed++, &f.ref, &f.dist);
        check_twin(*st, kSpeedTemporalExtractor, {}, f.ref, f.dist);
        check_twin(*st, kSpeedTemporalExtractor, {{"speed_use_ref_diff", "true"}}, f.ref, f.dist);
    }
    check_clean(*st);
}

TEST_CASE("speed on the GPU equals the CPU: every option", "[speed][vulkan]")
{
    auto st = validated_state();
    Frames f;
    synthetic(VMAF_PIX_FMT_YUV420P, 8, 960, 540, 3, 77, &f.ref, &f.dist);
    for (int mode = 0; mode < 7; mode++) {
        INFO("speed_weight_var_mode " << mode);
        CHECK(check_twin(*st, kSpeedChromaExtractor, {{"speed_weight_var_mode", std::to_string(mode)}}, f.ref, f.dist));
        check_twin(*st, kSpeedChromaExtractor,
                   {{"speed_weight_var_mode", std::to_string(mode)}, {"speed_sigma_nn", "0.19"}, {"speed_nn_floor", "0.1"}},
                   f.ref, f.dist);
    }
    // Kernel scales: fewer, more and the most taps (360/97: a 35-tap blur, a
    // 9-tap local mean).
    for (const char *ks : {"0.5", "0.711111", "1.5", "2", "3", "3.7113402"}) {
        INFO("speed_kernelscale " << ks);
        CHECK(check_twin(*st, kSpeedChromaExtractor, {{"speed_kernelscale", ks}}, f.ref, f.dist));
        CHECK(check_twin(*st, kSpeedTemporalExtractor, {{"speed_kernelscale", ks}}, f.ref, f.dist));
    }
    CHECK(check_twin(*st, kSpeedTemporalExtractor, {{"speed_use_ref_diff", "true"}}, f.ref, f.dist));
    check_twin(*st, kSpeedTemporalExtractor, {{"speed_sigma_nn", "1.5"}, {"speed_nn_floor", "0.5"}}, f.ref, f.dist);
    check_twin(*st, kSpeedChromaExtractor, {{"speed_max_val", "0.001"}}, f.ref, f.dist);
    check_twin(*st, kSpeedChromaExtractor, {{"speed_max_val", "0"}, {"speed_sigma_nn", "2"}}, f.ref, f.dist);
    check_clean(*st);
}

TEST_CASE("speed on the GPU equals the CPU: speed_prescale, every method", "[speed][vulkan]")
{
    auto st = validated_state();
    struct Case {
        VmafPixelFormat fmt;
        unsigned bpc, w, h;
        const char *scale;
        bool regular;  // planes large enough after resampling for a regular covariance
    };
    // Down (the _2160 v1 models' 0.5), up, fractional, to the minimum after
    // resampling, odd sizes, and a factor that keeps a small plane's size (a
    // copy).
    const Case cases[] = {{VMAF_PIX_FMT_YUV444P, 8, 320, 240, "0.5", false},
                          {VMAF_PIX_FMT_YUV420P, 10, 331, 329, "0.5", false},
                          {VMAF_PIX_FMT_YUV444P, 8, 160, 161, "0.5", false},
                          {VMAF_PIX_FMT_YUV420P, 8, 161, 175, "2", true},
                          {VMAF_PIX_FMT_YUV422P, 12, 203, 141, "1.37", false},
                          {VMAF_PIX_FMT_YUV444P, 8, 125, 211, "0.75", false},
                          {VMAF_PIX_FMT_YUV444P, 8, 97, 111, "3.3", true},
                          {VMAF_PIX_FMT_YUV444P, 8, 120, 100, "1.002", false},
                          {VMAF_PIX_FMT_YUV444P, 8, 801, 599, "0.5", true},
                          {VMAF_PIX_FMT_YUV420P, 10, 480, 270, "1.7", true}};
    unsigned seed = 300;
    for (const Case &c : cases) {
        Frames f;
        synthetic(c.fmt, c.bpc, c.w, c.h, 3, seed++, &f.ref, &f.dist);
        for (const char *m : {"nearest", "bilinear", "bicubic", "lanczos4"}) {
            INFO(fmt_name(c.fmt) << " " << c.bpc << "-bit " << c.w << "x" << c.h << " speed_prescale " << c.scale << " "
                                 << m);
            const Dict d = {{"speed_prescale", c.scale}, {"speed_prescale_method", m}};
            const bool large = c.regular;
            CHECK(check_twin(*st, kSpeedChromaExtractor, d, f.ref, f.dist) == large);
            const bool t = check_twin(*st, kSpeedTemporalExtractor, d, f.ref, f.dist);
            if (large) CHECK(t);
            Dict v1 = kV1Chroma;
            v1.insert(v1.end(), d.begin(), d.end());
            CHECK(check_twin(*st, kSpeedChromaExtractor, v1, f.ref, f.dist) == large);
        }
    }
    check_clean(*st);
}

TEST_CASE("speed on the GPU equals the CPU on flat (singular) planes", "[speed][vulkan]")
{
    auto st = validated_state();
    for (unsigned flat : {0u, 1u, 2u}) {
        INFO("flat plane " << flat);
        Frames f;
        synthetic(VMAF_PIX_FMT_YUV444P, 8, 480, 400, 3, 5 + flat, &f.ref, &f.dist, flat);
        CHECK(check_twin(*st, kSpeedChromaExtractor, {}, f.ref, f.dist));
        CHECK(check_twin(*st, kSpeedTemporalExtractor, {}, f.ref, f.dist) == (flat != 0));
    }
    // All flat and unchanging: both sides singular, every score 0.
    Frames f;
    for (int i = 0; i < 3; i++) {
        f.ref.push_back(make_picture(VMAF_PIX_FMT_YUV420P, 8, 176, 176, [](unsigned, unsigned, unsigned) { return 90u; }));
        f.dist.push_back(make_picture(VMAF_PIX_FMT_YUV420P, 8, 176, 176, [](unsigned, unsigned, unsigned) { return 90u; }));
    }
    check_twin(*st, kSpeedChromaExtractor, {}, f.ref, f.dist);
    check_twin(*st, kSpeedTemporalExtractor, {}, f.ref, f.dist);
    check_clean(*st);
}

TEST_CASE("speed on the GPU collecting on workers equals the CPU", "[speed][vulkan]")
{
    // SpEED's host finishing on the Engine's workers (ADR 0066): several
    // frames at once, out of order, into thread-safe sinks of their own.
    auto st = validated_state();
    Frames f;
    synthetic(VMAF_PIX_FMT_YUV420P, 10, 1280, 720, 12, 91, &f.ref, &f.dist);
    const auto chroma = options_for(kSpeedChromaExtractor, kV1Chroma);
    const auto temporal = options_for(kSpeedTemporalExtractor);
    for (unsigned workers : {2u, 5u}) {
        INFO(workers << " workers");
        MapSink gpu[2];
        std::unique_ptr<vk::Engine> engine;
        REQUIRE(vk::Engine::create(st.get(), format_of(f.ref[0]),
                                   {{&kSpeedChromaExtractor, chroma, &gpu[0]}, {&kSpeedTemporalExtractor, temporal, &gpu[1]}},
                                   &engine) == 0);
        REQUIRE(engine->set_collect_workers(workers) == 0);
        CHECK(engine->collecting_on_workers() == 2);
        MapSink rest;
        for (size_t i = 0; i < f.ref.size(); i++) REQUIRE(engine->submit(f.ref[i], f.dist[i], unsigned(i), rest) == 0);
        REQUIRE(engine->wait_idle(rest) == 0);
        // wait_idle() returns once the workers are done: every frame is there.
        CHECK(gpu[0].scores["Speed_chroma_feature_speed_chroma_uv_score"].size() == f.ref.size());
        CHECK(gpu[1].scores["Speed_temporal_feature_speed_temporal_score"].size() == f.ref.size());
        REQUIRE(engine->flush(rest) == 0);
        CHECK(rest.scores.empty());
        require_identical(gpu[0], run_extractor(kSpeedChromaExtractor, chroma, f.ref, f.dist));
        require_identical(gpu[1], run_extractor(kSpeedTemporalExtractor, temporal, f.ref, f.dist));
        CHECK(gpu[0].at("Speed_chroma_feature_speed_chroma_uv_score", 5) != 0.0);
        CHECK(gpu[1].at("Speed_temporal_feature_speed_temporal_score", 5) != 0.0);
        CHECK(engine->set_collect_workers(workers) == -EINVAL);  // after frames: refused
    }
    {
        // A configuration writing to the caller's sink stays on the calling
        // thread, and one worker is none.
        std::unique_ptr<vk::Engine> engine;
        REQUIRE(vk::Engine::create(st.get(), format_of(f.ref[0]), {{&kSpeedChromaExtractor, chroma}}, &engine) == 0);
        REQUIRE(engine->set_collect_workers(4) == 0);
        CHECK(engine->collecting_on_workers() == 0);
        std::unique_ptr<vk::Engine> one;
        MapSink s;
        REQUIRE(vk::Engine::create(st.get(), format_of(f.ref[0]), {{&kSpeedChromaExtractor, chroma, &s}}, &one) == 0);
        REQUIRE(one->set_collect_workers(1) == 0);
        CHECK(one->collecting_on_workers() == 0);
    }
    check_clean(*st);
}

TEST_CASE("speed on the GPU declines what it does not compute", "[speed][vulkan]")
{
    auto st = validated_state();
    auto fmt = [](VmafPixelFormat p, unsigned w, unsigned h) { return FrameFormat{p, 8, w, h}; };
    const auto chroma = options_for(kSpeedChromaExtractor);
    const auto temporal = options_for(kSpeedTemporalExtractor);
    // The minimum, and one sample less: the CPU extractor's own error.
    CHECK(vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV420P, 160, 160), kSpeedChromaExtractor, chroma));
    CHECK(!vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV420P, 160, 159), kSpeedChromaExtractor, chroma));
    CHECK(!vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV420P, 176, 144), kSpeedChromaExtractor, chroma));
    CHECK(vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV444P, 80, 80), kSpeedChromaExtractor, chroma));
    CHECK(!vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV444P, 79, 80), kSpeedChromaExtractor, chroma));
    CHECK(!vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV400P, 160, 160), kSpeedChromaExtractor, chroma));
    CHECK(vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV400P, 80, 80), kSpeedTemporalExtractor, temporal));
    CHECK(!vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV400P, 80, 79), kSpeedTemporalExtractor, temporal));
    // speed_prescale: every method on the GPU; the limit applies after
    // resampling.
    for (const char *m : {"nearest", "bilinear", "bicubic", "lanczos4"}) {
        INFO(m);
        const auto o = options_for(kSpeedChromaExtractor, {{"speed_prescale", "0.5"}, {"speed_prescale_method", m}});
        CHECK(vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV420P, 640, 480), kSpeedChromaExtractor, o));
        CHECK(!vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV420P, 316, 480), kSpeedChromaExtractor, o));
    }
    // Within libvmaf's tolerance of 1: no resampling, on the GPU.
    const auto near_one = options_for(kSpeedChromaExtractor, {{"speed_prescale", "1.0005"}});
    CHECK(vk::Engine::supports(*st, fmt(VMAF_PIX_FMT_YUV420P, 640, 480), kSpeedChromaExtractor, near_one));
    // A device without doubles: on the CPU.
    vk::FeatureChain features;
    auto no_f64 = adopt_without_float64(*st, &features);
    CHECK(!vk::Engine::supports(*no_f64, fmt(VMAF_PIX_FMT_YUV420P, 640, 480), kSpeedChromaExtractor, chroma));
    CHECK(!vk::Engine::supports(*no_f64, fmt(VMAF_PIX_FMT_YUV420P, 640, 480), kSpeedTemporalExtractor, temporal));
    check_clean(*st);
}

namespace {

// `feature` with `opts` on one frame pair through a context, on the CPU or with
// `st` imported: the return code of scoring and what was logged.
std::pair<int, std::string> context_error(vk::State *st, const char *feature, const Dict &opts,
                                          VmafPixelFormat pix, unsigned w, unsigned h)
{
    Frames f;
    synthetic(pix, 8, w, h, 1, 9, &f.ref, &f.dist);
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    if (st) REQUIRE(context_import_vulkan_state(vmaf, st) == 0);
    VmafFeatureDictionary *d = nullptr;
    for (const auto &[k, v] : opts) REQUIRE(vmaf_feature_dictionary_set(&d, k.c_str(), v.c_str()) == 0);
    REQUIRE(vmaf_use_feature(vmaf, feature, d) == 0);
    int err;
    std::string log;
    {
        StderrCapture cap;
        err = vmaf_read_pictures(vmaf, &f.ref[0], &f.dist[0], 0);
        if (!err) err = vmaf_read_pictures(vmaf, nullptr, nullptr, 0);
        log = cap.text();
    }
    f.ref.clear();  // the context took them
    f.dist.clear();
    vmaf_close(vmaf);
    return {err, log};
}

}  // namespace

TEST_CASE("speed with the Vulkan backend: the CPU extractor's error on planes too small", "[speed][vulkan]")
{
    auto st = validated_state();
    struct Case {
        const char *feature;
        VmafPixelFormat pix;
        unsigned w, h;
        Dict opts;
    };
    const Case cases[] = {{"speed_chroma", VMAF_PIX_FMT_YUV420P, 176, 144, {}},
                          {"speed_chroma", VMAF_PIX_FMT_YUV444P, 80, 79, {}},
                          {"speed_temporal", VMAF_PIX_FMT_YUV400P, 79, 80, {}},
                          {"speed_chroma", VMAF_PIX_FMT_YUV420P, 320, 240, {{"speed_prescale", "0.6"}}},
                          {"speed_temporal", VMAF_PIX_FMT_YUV444P, 158, 160, {{"speed_prescale", "0.5"}, {"speed_prescale_method", "bilinear"}}}};
    for (const Case &c : cases) {
        INFO(c.feature << " " << fmt_name(c.pix) << " " << c.w << "x" << c.h);
        const auto cpu = context_error(nullptr, c.feature, c.opts, c.pix, c.w, c.h);
        const auto gpu = context_error(st.get(), c.feature, c.opts, c.pix, c.w, c.h);
        INFO("CPU: " << cpu.second << "GPU: " << gpu.second);
        CHECK(cpu.first == -EINVAL);
        CHECK(gpu.first == cpu.first);
        CHECK(cpu.second.find("at least 80x80") != std::string::npos);
        CHECK(gpu.second == cpu.second);
    }
    check_clean(*st);
}

TEST_CASE("speed on the GPU equals the CPU on every golden pair", "[speed][vulkan][golden]")
{
    auto st = validated_state();
    unsigned pairs = 0;
    for (const auto &pair : golden_pairs()) {
        Frames f;
        f.ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        f.dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const FrameFormat fmt = format_of(f.ref[0]);
        INFO(pair);
        const auto temporal = options_for(kSpeedTemporalExtractor);
        REQUIRE(vk::Engine::supports(*st, fmt, kSpeedTemporalExtractor, temporal));
        check_twin(*st, kSpeedTemporalExtractor, {}, f.ref, f.dist);
        check_twin(*st, kSpeedTemporalExtractor, {{"speed_use_ref_diff", "true"}}, f.ref, f.dist);
        if (vk::Engine::supports(*st, fmt, kSpeedChromaExtractor, options_for(kSpeedChromaExtractor))) {
            check_twin(*st, kSpeedChromaExtractor, {}, f.ref, f.dist);
            check_twin(*st, kSpeedChromaExtractor, kV1Chroma, f.ref, f.dist);
            pairs++;
        }
        // The _2160 v1 models' configuration, where the planes are large enough.
        Dict v1_2160 = kV1Chroma;
        v1_2160.insert(v1_2160.end(), {{"speed_prescale", "0.5"}, {"speed_prescale_method", "bilinear"}});
        if (vk::Engine::supports(*st, fmt, kSpeedChromaExtractor, options_for(kSpeedChromaExtractor, v1_2160)))
            check_twin(*st, kSpeedChromaExtractor, v1_2160, f.ref, f.dist);
        const Dict temporal_2160 = {{"speed_prescale", "0.5"}, {"speed_prescale_method", "bilinear"}};
        if (vk::Engine::supports(*st, fmt, kSpeedTemporalExtractor, options_for(kSpeedTemporalExtractor, temporal_2160)))
            check_twin(*st, kSpeedTemporalExtractor, temporal_2160, f.ref, f.dist);
        std::printf("%-32s speed on the GPU equals the CPU\n", pair.c_str());
    }
    if (!golden_subset()) CHECK(pairs == 7);
    CHECK(pairs > 0);
    check_clean(*st);
}
