// SPDX-License-Identifier: BSD-2-Clause-Patent
// CAMBI's table: on every golden pair libvmaf scores (the seven whose libvmaf
// runs have cambi; the twin declines the others, as libvmaf does), identical to
// the CPU extractor and within 1e-4 of libvmaf's JSON (default run and both CTC
// presets), to the bit on the pair the C API path runs; identical to the CPU on
// synthetic banded gradients that give nonzero scores (8, 10, 12, 16-bit, every
// chroma layout, odd and minimal sizes), on a sequence of banded and flat
// frames, on blocks of distant values, at 1080p and the largest window, and
// under the options the GPU runs; heatmaps and tiny pictures declined. Samples
// above the depth and the frame that holds them are test cases of their own.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "feature/cambi/cambi.h"
#include "feature/registry.h"
#include "golden.h"
#include "gpu/engine.h"
#include "parity.h"
#include "picture/picture.h"
#include "pictures.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

namespace {

constexpr const char *kScore = "Cambi_feature_cambi_score";

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

Synthetic banded_row(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned frames, uint32_t seed,
                     const Dict &options, int nonzero, const char *what = "")
{
    Synthetic c{fmt, bpc, w, h, frames, options};
    std::string key = "cambi";
    for (unsigned v : {unsigned(fmt), bpc, w, h, frames, unsigned(seed)}) (key += " ") += std::to_string(v);
    c.make = shared_pictures(key, [=](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
        banded(fmt, bpc, w, h, frames, seed, ref, dist);
    });
    c.nonzero = nonzero;
    c.what = what;
    return c;
}

const Table &cambi_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kCambiExtractor;
        t.outputs = {kScore};
        t.golden = {{".libvmaf.json", {kScore}, 1e-4},
                    {".libvmaf.aom_ctc_v7.0.json", {kScore}, 1e-4},
                    {".libvmaf.nflx_ctc_v1.0.json", {kScore}, 1e-4},
                    // the C API path's pair, to the bit
                    {".libvmaf.json", {kScore}, 0, false, {"testsrc2_320x240_crf45"}}};
        // The pairs libvmaf does not score are the ones the twin declines: all
        // ten pairs, the seven whose libvmaf runs have cambi.
        t.skip_declined = true;
        t.golden_supported = 7;
        const Synthetic cases[] = {
            {VMAF_PIX_FMT_YUV420P, 8, 256, 216, 3},   // small, 8-bit (anti-dithering on)
            {VMAF_PIX_FMT_YUV420P, 10, 301, 227, 3},  // odd size, 10-bit
            {VMAF_PIX_FMT_YUV422P, 8, 217, 40, 3},    // one side under the minimum, very flat
            {VMAF_PIX_FMT_YUV444P, 12, 216, 216, 3},  // 12-bit
            {VMAF_PIX_FMT_YUV400P, 10, 40, 250, 3},   // luma only, narrow
            {VMAF_PIX_FMT_YUV420P, 16, 230, 220, 3},  // 16-bit
            {VMAF_PIX_FMT_YUV444P, 8, 216, 1, 3},     // one row: every scale one row
            {VMAF_PIX_FMT_YUV400P, 10, 3, 216, 3},    // three columns: two at scale 1, one from scale 2
        };
        uint32_t seed = 1;
        for (const Synthetic &c : cases)  // the larger ones exercise the c-values
            t.synthetic.push_back(banded_row(c.fmt, c.bpc, c.w, c.h, c.frames, seed++, {},
                                             c.w >= 216 && c.h >= 216 ? 1 : -1));
        // The pooling's counters are zeroed on the GPU by each frame's last
        // passes for the next (and the error word alternates), so a frame's
        // scores must not depend on the frames before it: banded, then flat,
        // then banded again, frame by frame against the CPU.
        for (const Dict &d : {Dict{}, Dict{{"full_ref", "true"}}}) {
            Synthetic c{VMAF_PIX_FMT_YUV420P, 10, 320, 240, 9, d};
            c.what = "banded, flat, banded";
            c.nonzero = 1;
            c.make = [](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
                banded(VMAF_PIX_FMT_YUV420P, 10, 320, 240, 4, 31, ref, dist);
                for (int f = 0; f < 2; f++) {  // flat frames: every c-value 0, nothing pooled above zero
                    ref->push_back(make_picture(VMAF_PIX_FMT_YUV420P, 10, 320, 240,
                                                [](unsigned, unsigned, unsigned) { return 512u; }));
                    dist->push_back(make_picture(VMAF_PIX_FMT_YUV420P, 10, 320, 240,
                                                 [](unsigned, unsigned, unsigned) { return 500u; }));
                }
                banded(VMAF_PIX_FMT_YUV420P, 10, 320, 240, 3, 32, ref, dist);
            };
            t.synthetic.push_back(c);
        }
        // Flat stripes 24 columns wide at two levels 300 codes apart, each
        // banded in one-code steps down the rows: every block of the c-value
        // pass holds keys far apart, more than its narrow histograms take, so
        // the wide pass scores them (cambi_cvalues.comp); a quarter of the
        // picture is one level only.
        {
            Synthetic c{VMAF_PIX_FMT_YUV420P, 10, 400, 240, 2, {{"full_ref", "true"}}};
            c.what = "two-level stripes";
            c.nonzero = 1;
            c.make = [](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
                for (unsigned f = 0; f < 2; f++) {
                    auto level = [&](unsigned x, unsigned y) {
                        const unsigned base = x >= 300 || (x / 24) % 2 == 0 ? 200 : 500;
                        return base + (y + 7 * f) / (12 + 4 * f);
                    };
                    ref->push_back(make_picture(VMAF_PIX_FMT_YUV420P, 10, 400, 240,
                                                [&](unsigned pl, unsigned x, unsigned y) { return pl ? 512u : level(x, y); }));
                    dist->push_back(make_picture(VMAF_PIX_FMT_YUV420P, 10, 400, 240, [&](unsigned pl, unsigned x, unsigned y) {
                        return pl ? 512u : level(x, y) / 2 * 2;
                    }));
                }
            };
            t.synthetic.push_back(c);
        }
        // The options the GPU runs, on one banded pair.
        const Dict options[] = {
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
        for (const Dict &d : options) t.synthetic.push_back(banded_row(VMAF_PIX_FMT_YUV420P, 10, 320, 240, 2, 77, d, -1));
        // The golden pairs and the cases above have windows of 7 to 11
        // samples; at 1080p the default window is 33, window_size 127 gives 63
        // (near the largest, 65), and cambi_high_res_speedup halves the
        // picture before the first scale.
        for (const Dict &d : {Dict{}, Dict{{"window_size", "127"}, {"max_log_contrast", "5"}},
                              Dict{{"cambi_high_res_speedup", "1080"}}})
            t.synthetic.push_back(banded_row(VMAF_PIX_FMT_YUV420P, 10, 1920, 1080, 1, 5, d, 1, "1080p"));
        // The largest window, 65 (window_size 127 at width + height 3024).
        t.synthetic.push_back(
            banded_row(VMAF_PIX_FMT_YUV420P, 8, 1944, 1080, 1, 6, {{"window_size", "127"}}, 1, "window 65"));
        t.generate = [](const Synthetic &, uint32_t, std::vector<VmafPicture> *, std::vector<VmafPicture> *) {};
        t.declines = {{{VMAF_PIX_FMT_YUV420P, 8, 320, 240}, {{"heatmaps_path", "somewhere"}}, "heatmaps"},
                      {{VMAF_PIX_FMT_YUV420P, 8, 176, 144}, {}, "below libvmaf's smallest"}};
        t.api_pairs = {"testsrc2_320x240_crf45"};
        t.one_submission_per_frame = false;  // the tables at init, then one per frame: the case below
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(cambi, cambi_table, "[cambi]")

TEST_CASE("a context with an imported state runs cambi on the GPU", "[cambi][vulkan]")
{
    // A state of its own: the shared one has the tables from earlier cases.
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
    vk::State &st = shared_state();
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
        REQUIRE(vk::Engine::create(&st, format_of(ref[0]), {{&kCambiExtractor, opts}}, &engine) == 0);
        MapSink gpu;
        int err = engine->submit(ref[0], dist[0], 0, gpu);
        if (!err) err = engine->flush(gpu);
        CHECK(err == -EINVAL);
        CHECK(gpu.scores.empty());
    }
    unref_all(ref);
    unref_all(dist);
    check_clean(st);
}

TEST_CASE("cambi on the GPU fails the frame with the bad sample, not its neighbours in flight", "[cambi][vulkan]")
{
    // The error words alternate by frame, and each frame's last pass zeroes
    // the next one's (cambi_sum.comp): the frames before the bad one score as
    // the CPU's, the bad one fails, whatever was in flight beside it.
    vk::State &st = shared_state();
    std::vector<VmafPicture> ref, dist;
    banded(VMAF_PIX_FMT_YUV420P, 10, 240, 216, 6, 9, &ref, &dist);
    const unsigned bad = 3;
    reinterpret_cast<uint16_t *>(static_cast<uint8_t *>(dist[bad].data[0]) + size_t(100) * dist[bad].stride[0])[50] = 1024;
    const auto opts = options_for(kCambiExtractor, {});
    const std::vector<VmafPicture> ref_ok(ref.begin(), ref.begin() + bad), dist_ok(dist.begin(), dist.begin() + bad);
    const MapSink cpu = run_cpu(ref_ok, dist_ok, opts);
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(&st, format_of(ref[0]), {{&kCambiExtractor, opts}}, &engine) == 0);
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
    check_clean(st);
}

TEST_CASE("cambi on the GPU declines heatmaps and tiny pictures", "[cambi][vulkan]")
{
    vk::State &st = shared_state();
    const vk::FeatureInfo *f = gpu_twin(kCambiExtractor);
    REQUIRE(f);
    const FrameFormat fmt{VMAF_PIX_FMT_YUV420P, 8, 320, 240};
    CHECK(f->supports(st, fmt, options_for(kCambiExtractor)));
    CHECK(f->supports(st, fmt, options_for(kCambiExtractor, {{"full_ref", "true"}})));
    CHECK_FALSE(f->supports(st, fmt, options_for(kCambiExtractor, {{"heatmaps_path", "somewhere"}})));
    CHECK_FALSE(f->supports(st, {VMAF_PIX_FMT_YUV420P, 8, 176, 144}, options_for(kCambiExtractor)));
    CHECK_FALSE(vk::Engine::supports(st, fmt, kCambiExtractor, options_for(kCambiExtractor, {{"heatmaps_path", "somewhere"}})));
}
