// SPDX-License-Identifier: BSD-2-Clause-Patent
// The SpEED twins' tables (speed_chroma, speed_temporal): equal to the CPU
// extractors to the bit on every golden pair the twin takes (with the v1
// models' options and the _2160 models' bilinear speed_prescale where the
// planes are large enough) and on synthetic pictures of every pixel format,
// bit depth, weighting mode, supported kernel scale and option, near the
// minimum size, with speed_prescale (every method) and on flat (singular)
// planes, each row saying whether its scores are 0 (planes too small for a
// regular covariance) or not; what the twins decline (sizes the CPU extractor
// rejects, devices without doubles) runs on the CPU. Collecting on the
// engine's workers and the CPU's error through a context are test cases of
// their own.
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "feature/speed/speed.h"
#include "golden.h"
#include "gpu/engine.h"
#include "libvmaf/libvmaf.h"
#include "parity.h"
#include "picture/picture.h"
#include "pictures.h"
#include "stderr_capture.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

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

struct Pictures {
    std::vector<VmafPicture> ref, dist;
    ~Pictures()
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


const Dict kPrescale2160 = {{"speed_prescale", "0.5"}, {"speed_prescale_method", "bilinear"}};

Dict joined(Dict a, const Dict &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// A row of `synthetic`'s pictures with these arguments; nonzero as Synthetic's.
// Consecutive rows of the same pictures (one case under several options) share
// them: the last ones made are kept, and each row gets references to them.
Synthetic row(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned count, unsigned seed,
              const Dict &options, int nonzero, unsigned flat_plane = 3)
{
    Synthetic c{fmt, bpc, w, h, count, options};
    std::string key = "speed";
    for (unsigned v : {unsigned(fmt), bpc, w, h, count, seed, flat_plane}) (key += " ") += std::to_string(v);
    c.make = shared_pictures(key, [=](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
        synthetic(fmt, bpc, w, h, count, seed, ref, dist, flat_plane);
    });
    c.nonzero = nonzero;
    return c;
}

// Three frames of one grey on both sides: every plane singular, every score 0.
Synthetic all_flat(const Dict &options)
{
    Synthetic c{VMAF_PIX_FMT_YUV420P, 8, 176, 176, 3, options};
    c.what = "all flat and unchanging";
    c.make = [](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
        for (int i = 0; i < 3; i++) {
            ref->push_back(make_picture(VMAF_PIX_FMT_YUV420P, 8, 176, 176, [](unsigned, unsigned, unsigned) { return 90u; }));
            dist->push_back(make_picture(VMAF_PIX_FMT_YUV420P, 8, 176, 176, [](unsigned, unsigned, unsigned) { return 90u; }));
        }
    };
    return c;
}

// The rows of both tables: `chroma` picks speed_chroma's or speed_temporal's.
std::vector<Synthetic> rows(bool chroma)
{
    std::vector<Synthetic> out;
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
            const bool large = s.w > 400;
            if (chroma) {
                out.push_back(row(s.fmt, bpc, s.w, s.h, 3, seed, {}, large));
                out.push_back(row(s.fmt, bpc, s.w, s.h, 3, seed, kV1Chroma, large));
            } else {
                out.push_back(row(s.fmt, bpc, s.w, s.h, 3, seed, {}, large ? 1 : -1));
            }
            seed++;
        }
    // Luma-only pictures for speed_temporal, at and near its minimum.
    for (auto [w, h] : {std::pair{80u, 80u}, {81u, 95u}, {97u, 80u}, {175u, 161u}, {483u, 271u}}) {
        if (!chroma) {
            out.push_back(row(VMAF_PIX_FMT_YUV400P, 8, w, h, 4, seed, {}, -1));
            out.push_back(row(VMAF_PIX_FMT_YUV400P, 8, w, h, 4, seed, {{"speed_use_ref_diff", "true"}}, -1));
        }
        seed++;
    }
    // Every option on 960x540.
    auto opt = [&](const Dict &d, int nonzero) { out.push_back(row(VMAF_PIX_FMT_YUV420P, 8, 960, 540, 3, 77, d, nonzero)); };
    if (chroma)
        for (int mode = 0; mode < 7; mode++) {
            const Dict m = {{"speed_weight_var_mode", std::to_string(mode)}};
            opt(m, 1);
            opt(joined(m, {{"speed_sigma_nn", "0.19"}, {"speed_nn_floor", "0.1"}}), -1);
        }
    // Kernel scales: fewer, more and the most taps (360/97: a 35-tap blur, a
    // 9-tap local mean).
    for (const char *ks : {"0.5", "0.711111", "1.5", "2", "3", "3.7113402"}) opt({{"speed_kernelscale", ks}}, 1);
    if (chroma) {
        opt({{"speed_max_val", "0.001"}}, -1);
        opt({{"speed_max_val", "0"}, {"speed_sigma_nn", "2"}}, -1);
    } else {
        opt({{"speed_use_ref_diff", "true"}}, 1);
        opt({{"speed_sigma_nn", "1.5"}, {"speed_nn_floor", "0.5"}}, -1);
    }
    // speed_prescale: down (the _2160 v1 models' 0.5), up, fractional, to the
    // minimum after resampling, odd sizes, and a factor that keeps a small
    // plane's size (a copy); `regular`: planes large enough after resampling
    // for a regular covariance.
    struct Prescale {
        VmafPixelFormat fmt;
        unsigned bpc, w, h;
        const char *scale;
        bool regular;
    };
    const Prescale prescales[] = {{VMAF_PIX_FMT_YUV444P, 8, 320, 240, "0.5", false},
                                  {VMAF_PIX_FMT_YUV420P, 10, 331, 329, "0.5", false},
                                  {VMAF_PIX_FMT_YUV444P, 8, 160, 161, "0.5", false},
                                  {VMAF_PIX_FMT_YUV420P, 8, 161, 175, "2", true},
                                  {VMAF_PIX_FMT_YUV422P, 12, 203, 141, "1.37", false},
                                  {VMAF_PIX_FMT_YUV444P, 8, 125, 211, "0.75", false},
                                  {VMAF_PIX_FMT_YUV444P, 8, 97, 111, "3.3", true},
                                  {VMAF_PIX_FMT_YUV444P, 8, 120, 100, "1.002", false},
                                  {VMAF_PIX_FMT_YUV444P, 8, 801, 599, "0.5", true},
                                  {VMAF_PIX_FMT_YUV420P, 10, 480, 270, "1.7", true}};
    seed = 300;
    for (const Prescale &c : prescales) {
        for (const char *m : {"nearest", "bilinear", "bicubic", "lanczos4"}) {
            const Dict d = {{"speed_prescale", c.scale}, {"speed_prescale_method", m}};
            if (chroma) {
                out.push_back(row(c.fmt, c.bpc, c.w, c.h, 3, seed, d, c.regular));
                out.push_back(row(c.fmt, c.bpc, c.w, c.h, 3, seed, joined(kV1Chroma, d), c.regular));
            } else {
                out.push_back(row(c.fmt, c.bpc, c.w, c.h, 3, seed, d, c.regular ? 1 : -1));
            }
        }
        seed++;
    }
    // Flat (singular) planes: speed_temporal reads luma alone.
    for (unsigned flat : {0u, 1u, 2u})
        out.push_back(row(VMAF_PIX_FMT_YUV444P, 8, 480, 400, 3, 5 + flat, {}, chroma || flat != 0, flat));
    out.push_back(all_flat({}));
    return out;
}

const Table &speed_chroma_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kSpeedChromaExtractor;
        t.skip_declined = true;
        t.golden_supported = 7;
        t.option_sets = {kV1Chroma, joined(kV1Chroma, kPrescale2160)};
        t.option_pairs = golden_pairs();
        t.synthetic = rows(true);
        t.declines = {{{VMAF_PIX_FMT_YUV420P, 8, 160, 159}, {}, "chroma below 80x80"},
                      {{VMAF_PIX_FMT_YUV420P, 8, 176, 144}, {}, "chroma below 80x80"},
                      {{VMAF_PIX_FMT_YUV444P, 8, 79, 80}, {}, "below 80x80"},
                      {{VMAF_PIX_FMT_YUV400P, 8, 160, 160}, {}, "no chroma"}};
        for (const char *m : {"nearest", "bilinear", "bicubic", "lanczos4"})
            t.declines.push_back({{VMAF_PIX_FMT_YUV420P, 8, 316, 480},
                                  {{"speed_prescale", "0.5"}, {"speed_prescale_method", m}},
                                  "chroma below 80x80 after resampling"});
        t.api_pairs = {"rocket_320x240_10bit_crf30"};
        return t;
    }();
    return t;
}

const Table &speed_temporal_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kSpeedTemporalExtractor;
        t.skip_declined = true;  // the option sets; the golden path takes every pair (golden_supported 0)
        t.option_sets = {{{"speed_use_ref_diff", "true"}}, kPrescale2160};
        t.option_pairs = golden_pairs();
        t.synthetic = rows(false);
        t.declines = {{{VMAF_PIX_FMT_YUV400P, 8, 80, 79}, {}, "below 80x80"}};
        t.api_pairs = {"rocket_320x240_10bit_crf30"};
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(speed_chroma, speed_chroma_table, "[speed]")
PARITY_TABLE(speed_temporal, speed_temporal_table, "[speed]")

TEST_CASE("speed on the GPU collecting on workers equals the CPU", "[speed][vulkan]")
{
    // SpEED's host finishing on the Engine's workers (ADR 0066): several
    // frames at once, out of order, into thread-safe sinks of their own.
    vk::State &st = shared_state();
    Pictures f;
    synthetic(VMAF_PIX_FMT_YUV420P, 10, 1280, 720, 12, 91, &f.ref, &f.dist);
    const auto chroma = options_for(kSpeedChromaExtractor, kV1Chroma);
    const auto temporal = options_for(kSpeedTemporalExtractor);
    for (unsigned workers : {2u, 5u}) {
        INFO(workers << " workers");
        MapSink gpu[2];
        std::unique_ptr<vk::Engine> engine;
        REQUIRE(vk::Engine::create(&st, format_of(f.ref[0]),
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
        REQUIRE(vk::Engine::create(&st, format_of(f.ref[0]), {{&kSpeedChromaExtractor, chroma}}, &engine) == 0);
        REQUIRE(engine->set_collect_workers(4) == 0);
        CHECK(engine->collecting_on_workers() == 0);
        std::unique_ptr<vk::Engine> one;
        MapSink s;
        REQUIRE(vk::Engine::create(&st, format_of(f.ref[0]), {{&kSpeedChromaExtractor, chroma, &s}}, &one) == 0);
        REQUIRE(one->set_collect_workers(1) == 0);
        CHECK(one->collecting_on_workers() == 0);
    }
    check_clean(st);
}

TEST_CASE("speed on the GPU declines what it does not compute", "[speed][vulkan]")
{
    vk::State &st = shared_state();
    auto fmt = [](VmafPixelFormat p, unsigned w, unsigned h) { return FrameFormat{p, 8, w, h}; };
    const auto chroma = options_for(kSpeedChromaExtractor);
    const auto temporal = options_for(kSpeedTemporalExtractor);
    // The minimum, and one sample less: the CPU extractor's own error.
    CHECK(vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV420P, 160, 160), kSpeedChromaExtractor, chroma));
    CHECK(!vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV420P, 160, 159), kSpeedChromaExtractor, chroma));
    CHECK(!vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV420P, 176, 144), kSpeedChromaExtractor, chroma));
    CHECK(vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV444P, 80, 80), kSpeedChromaExtractor, chroma));
    CHECK(!vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV444P, 79, 80), kSpeedChromaExtractor, chroma));
    CHECK(!vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV400P, 160, 160), kSpeedChromaExtractor, chroma));
    CHECK(vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV400P, 80, 80), kSpeedTemporalExtractor, temporal));
    CHECK(!vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV400P, 80, 79), kSpeedTemporalExtractor, temporal));
    // speed_prescale: every method on the GPU; the limit applies after
    // resampling.
    for (const char *m : {"nearest", "bilinear", "bicubic", "lanczos4"}) {
        INFO(m);
        const auto o = options_for(kSpeedChromaExtractor, {{"speed_prescale", "0.5"}, {"speed_prescale_method", m}});
        CHECK(vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV420P, 640, 480), kSpeedChromaExtractor, o));
        CHECK(!vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV420P, 316, 480), kSpeedChromaExtractor, o));
    }
    // Within libvmaf's tolerance of 1: no resampling, on the GPU.
    const auto near_one = options_for(kSpeedChromaExtractor, {{"speed_prescale", "1.0005"}});
    CHECK(vk::Engine::supports(st, fmt(VMAF_PIX_FMT_YUV420P, 640, 480), kSpeedChromaExtractor, near_one));
    // A device without doubles: on the CPU.
    vk::FeatureChain features;
    auto no_f64 = adopt_without_float64(st, &features);
    CHECK(!vk::Engine::supports(*no_f64, fmt(VMAF_PIX_FMT_YUV420P, 640, 480), kSpeedChromaExtractor, chroma));
    CHECK(!vk::Engine::supports(*no_f64, fmt(VMAF_PIX_FMT_YUV420P, 640, 480), kSpeedTemporalExtractor, temporal));
    check_clean(st);
}

namespace {

// `feature` with `opts` on one frame pair through a context, on the CPU or with
// `st` imported: the return code of scoring and what was logged.
std::pair<int, std::string> context_error(vk::State *st, const char *feature, const Dict &opts,
                                          VmafPixelFormat pix, unsigned w, unsigned h)
{
    Pictures f;
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
    vk::State &st = shared_state();
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
        const auto gpu = context_error(&st, c.feature, c.opts, c.pix, c.w, c.h);
        INFO("CPU: " << cpu.second << "GPU: " << gpu.second);
        CHECK(cpu.first == -EINVAL);
        CHECK(gpu.first == cpu.first);
        CHECK(cpu.second.find("at least 80x80") != std::string::npos);
        CHECK(gpu.second == cpu.second);
    }
    check_clean(st);
}
