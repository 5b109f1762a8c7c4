// SPDX-License-Identifier: BSD-2-Clause-Patent
// The integer ADM twin's table: every output (18 with `debug`) equal to the CPU
// extractor's on every golden pair (NaN on both sides equal: Barten weights
// above 1 wrap in their Q32 fixed point as libvmaf's do), within 1e-4 of
// libvmaf's JSON for three configurations (defaults, a gain limit of 1, AVX2's
// edges); synthetic pictures of every depth, format, awkward size (the
// right-edge reads of adm_kernels.h) and option set, at one and three frames in
// flight; the viewing set-ups without weights and pictures below 33 refused.
// The kernel's integer restatement of the decoupling's float and double steps
// (core/src/feature/adm/adm_exact.glsl) is compiled here as C++ and checked
// against the CPU's own code on millions of inputs; the vmaf models through the
// C API and carried thin scales are test cases of their own.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "feature/adm/adm.h"
#include "feature/adm/adm_kernels.h"
#include "feature/adm/adm_score.h"
#include "feature/adm/adm_tables.h"
#include "golden.h"
#include "gpu/engine.h"
#include "parity.h"
#include "picture/picture.h"
#include "pictures.h"
#include "vulkan.h"

// The GLSL integer arithmetic as C++: it is written in the subset both
// languages share; GLSL's uint and findMSB() are all it needs from here.
namespace glsl_exact {
using uint = uint32_t;
inline int findMSB(uint v) { return v ? 31 - __builtin_clz(v) : -1; }
#include "feature/adm/adm_exact.glsl"
}  // namespace glsl_exact

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

namespace {

// Frames of texture plus noise; the distorted one is noisier, blurred,
// contrast-boosted (enhancement), or its texture shifted (orientation
// changes), depending on the frame. Extreme frames (full-range noise) reach
// the widest band values.
void frames(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned frames, uint32_t seed,
            std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    std::mt19937 rng(seed);
    const int maxv = int((1u << bpc) - 1);
    const double scale = double(maxv) / 255.0;
    for (unsigned f = 0; f < frames; f++) {
        const unsigned kind = f % 5;
        std::vector<int> base(size_t(w) * h);
        const double fx = 0.05 + 0.5 * (rng() % 100) / 100.0, fy = 0.04 + 0.5 * (rng() % 100) / 100.0;
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                double v = 128 + 60 * std::sin(fx * x + f) * std::cos(fy * y) + int(rng() % 41) - 20;
                if (kind == 4) v = rng() % 256;
                base[size_t(y) * w + x] = std::clamp(int(v * scale), 0, maxv);
            }
        auto at = [&](int x, int y) {
            x = std::clamp(x, 0, int(w) - 1);
            y = std::clamp(y, 0, int(h) - 1);
            return base[size_t(y) * w + x];
        };
        auto distort = [&](unsigned x, unsigned y) {
            const int v = at(int(x), int(y));
            switch (kind) {
            case 0: return v + int((rng() % 9) * scale) - int(4 * scale);
            case 1: return (at(int(x) - 1, int(y)) + 2 * v + at(int(x) + 1, int(y))) / 4;
            case 2: return (v - maxv / 2) * 3 / 2 + maxv / 2;  // more contrast: gains above 1
            case 3: return (at(int(x) + 1, int(y) + 1) + v) / 2;
            default: return maxv - v;
            }
        };
        ref->push_back(make_picture(fmt, bpc, w, h, [&](unsigned pl, unsigned x, unsigned y) {
            return pl ? unsigned(rng() % (maxv + 1)) : unsigned(base[size_t(y) * w + x]);
        }));
        dist->push_back(make_picture(fmt, bpc, w, h, [&](unsigned pl, unsigned x, unsigned y) {
            return pl ? unsigned(rng() % (maxv + 1)) : unsigned(std::clamp(distort(x, y), 0, maxv));
        }));
    }
}

// The table's generator: the case's own seed, whatever the row.
void synthetic(const Synthetic &c, uint32_t, std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    frames(c.fmt, c.bpc, c.w, c.h, c.frames, c.w * 131 + c.h + c.bpc, ref, dist);
}

glsl_exact::AdmFloat cos1_float()
{
    int e = 0;
    const float f = std::frexp(adm::kCos1DegSq, &e);
    return glsl_exact::AdmFloat(uint64_t(std::ldexp(f, 24)), e - 24);
}

const Table &adm_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kAdmExtractor;
        const std::vector<const char *> main = {adm::kAdm2Name,      adm::kScaleNames[0], adm::kScaleNames[1],
                                                adm::kScaleNames[2], adm::kScaleNames[3], adm::kAimName,
                                                adm::kAdm3Name};
        t.outputs = main;
        t.golden_options = {{"debug", "true"}};
        // The third set was printed by libvmaf's AVX2 code (adr/0023).
        t.golden = {{".libvmaf.json", main, 1e-4},
                    {".libvmaf.vmaf_v0.6.1neg.json", main, 1e-4, false, {}, {{"adm_enhn_gain_limit", "1"}}, "_egl_1"},
                    {".libvmaf.more.json", main, 1e-4, false, {}, {{"edge_as", "avx2"}}}};
        t.golden_extra = [](const std::string &, const MapSink &gpu) {
            CHECK(gpu.scores.size() == 18);  // 7 outputs and 11 debug outputs
        };
        // 66 and 65 (8-bit) and 130 and 129 (deeper) wide read past the rows at
        // scales 0, 1 and 2; 33 is the minimum side.
        const Synthetic cases[] = {
            {VMAF_PIX_FMT_YUV420P, 8, 33, 33, 5},    {VMAF_PIX_FMT_YUV420P, 10, 33, 33, 5},
            {VMAF_PIX_FMT_YUV400P, 8, 66, 41, 5},    {VMAF_PIX_FMT_YUV420P, 8, 65, 70, 5},
            {VMAF_PIX_FMT_YUV420P, 10, 130, 37, 5},  {VMAF_PIX_FMT_YUV444P, 12, 129, 35, 5},
            {VMAF_PIX_FMT_YUV422P, 8, 131, 67, 5},   {VMAF_PIX_FMT_YUV422P, 10, 97, 133, 5},
            {VMAF_PIX_FMT_YUV444P, 8, 200, 130, 5},  {VMAF_PIX_FMT_YUV444P, 16, 77, 41, 5},
            {VMAF_PIX_FMT_YUV420P, 8, 1025, 40, 5},  {VMAF_PIX_FMT_YUV400P, 10, 34, 301, 5},
        };
        const std::vector<Dict> option_sets = {
            {{"debug", "true"}},
            {{"debug", "true"}, {"adm_enhn_gain_limit", "1"}},
            {{"debug", "true"}, {"adm_enhn_gain_limit", "1.37"}, {"adm_skip_scale0", "true"}},
            {{"debug", "true"}, {"adm_enhn_gain_limit", "2.5"}, {"adm_skip_aim", "true"}, {"adm_csf_mode", "1"},
             {"adm_csf_scale", "1.3"}, {"adm_csf_diag_scale", "0.8"}},
            {{"adm_csf_mode", "2"}, {"adm_norm_view_dist", "5"}, {"adm_noise_weight", "0.5"},
             {"adm_dlm_weight", "0.8"}, {"adm_min_val", "0.3"}},
            {{"debug", "true"}, {"adm_csf_mode", "3"}, {"adm_ref_display_height", "2160"},
             {"adm_norm_view_dist", "3"}, {"adm_enhn_gain_limit", "37.25"}},
        };
        for (const Synthetic &c : cases)
            for (size_t set = 0; set < option_sets.size(); set++) {
                Synthetic s = c;
                s.options = option_sets[set];
                if (set > 1) s.in_flight = 3;  // with one in flight, the first two sets are enough
                t.synthetic.push_back(s);
            }
        t.frames_in_flight = {1, 3};
        t.generate = synthetic;
        // (Pictures below 33 and viewing set-ups without weights are not declined
        // but fail the engine's start, as the CPU's init: the case below.)
        t.api_pairs = {"rocket_320x240_10bit_crf30"};
        t.one_submission_per_frame = false;  // the last scales carried into a submission after the last frame
        t.nan_equal = true;
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(adm, adm_table, "[adm]")

TEST_CASE("adm's integer roundings are IEEE's", "[adm][exact]")
{
    std::mt19937_64 rng(3);
    long bad_float = 0, bad_double = 0, bad_order = 0, ties = 0;
    for (int i = 0; i < 2'000'000; i++) {
        // Integers to float: random lengths, and exact halfway cases.
        uint64_t v = rng() >> (rng() % 64);
        if (i % 4 == 0 && v >> 25) {
            const int k = glsl_exact::adm_msb64(v) - 24;  // bits below the rounding bit
            v = (v >> k << k) | (uint64_t(1) << (k - 1));  // ...1000: a tie
            ties++;
        }
        const glsl_exact::AdmFloat f = glsl_exact::adm_to_float(v);
        bad_float += std::ldexp(float(f.m), f.e) != float(v) || f.m >> 24;
        // 128-bit integers to double.
        const unsigned __int128 x = (unsigned __int128)(rng() >> (rng() % 64)) << (rng() % 64) | (rng() >> (rng() % 64));
        const glsl_exact::AdmFloat d = glsl_exact::adm_round(glsl_exact::AdmU128(uint64_t(x >> 64), uint64_t(x)), 53);
        bad_double += std::ldexp(double(d.m), d.e) != double(x) || d.m >> 53;
        // Ordering of m·2^e.
        const uint64_t a = rng() >> (1 + rng() % 63), b = rng() >> (1 + rng() % 63);
        const int ea = int(rng() % 40) - 20, eb = int(rng() % 40) - 20;
        bad_order += glsl_exact::adm_not_less(a, ea, b, eb) != (std::ldexp((long double)a, ea) >= std::ldexp((long double)b, eb));
    }
    std::printf("adm roundings: %ld float ties; mismatches: float %ld, double %ld, order %ld\n", ties, bad_float,
                bad_double, bad_order);
    CHECK(bad_float == 0);
    CHECK(bad_double == 0);
    CHECK(bad_order == 0);
}

TEST_CASE("adm's one-degree test in integers is the CPU's float and double test", "[adm][exact]")
{
    const glsl_exact::AdmFloat cos1 = cos1_float();
    std::mt19937_64 rng(7);
    long mismatches = 0, inside = 0, tight = 0;
    constexpr long kInputs = 3'000'000;
    long skipped = 0;
    auto check = [&](int64_t oh, int64_t ov, int64_t th, int64_t tv, bool narrow) {
        bool want, got;
        if (narrow) {
            // Where the CPU's 32-bit sums would overflow (undefined in C++; the
            // kernel wraps them) there is nothing to compare with.
            const int64_t wide[] = {oh * th + ov * tv, oh * oh + ov * ov, th * th + tv * tv};
            for (int64_t v : wide)
                if (v != int64_t(int32_t(v))) {
                    skipped++;
                    return;
                }
            want = adm::kernels::within_one_degree<int32_t>(int16_t(oh), int16_t(ov), int16_t(th), int16_t(tv));
            // The kernel's 32-bit products (they wrap where the CPU's do).
            const int32_t dot = int32_t(uint32_t(oh * th) + uint32_t(ov * tv));
            const int32_t oo = int32_t(uint32_t(oh * oh) + uint32_t(ov * ov));
            const int32_t tt = int32_t(uint32_t(th * th) + uint32_t(tv * tv));
            got = glsl_exact::adm_within_one_degree(dot, oo, tt, cos1);
        } else {
            want = adm::kernels::within_one_degree<int64_t>(int32_t(oh), int32_t(ov), int32_t(th), int32_t(tv));
            const int64_t dot = int64_t(oh) * th + int64_t(ov) * tv;
            const int64_t oo = int64_t(oh) * oh + int64_t(ov) * ov, tt = int64_t(th) * th + int64_t(tv) * tv;
            got = glsl_exact::adm_within_one_degree(dot, oo, tt, cos1);
        }
        inside += want;
        if (want != got && mismatches++ < 10)
            UNSCOPED_INFO(oh << " " << ov << " " << th << " " << tv << (narrow ? " (16-bit)" : " (32-bit)")
                             << ": want " << want);
    };
    for (long i = 0; i < kInputs; i++) {
        const bool narrow = i % 2 == 0;
        const int bits = narrow ? 16 : 1 + int(rng() % 30);  // 32-bit sums of squares stay below 2^63
        auto draw = [&] { return int64_t(rng() >> (64 - bits)) - (int64_t(1) << (bits - 1)); };
        int64_t oh = draw(), ov = draw(), th, tv;
        const int mode = int(rng() % 4);
        if (mode == 0) {
            th = draw(), tv = draw();
        } else {
            // t close to o turned by about one degree and scaled: the test's edge.
            const double angle = (std::acos(-1.0) / 180.0) * (1.0 + (double(rng() % 2001) - 1000.0) * 1e-6);
            const double s = 0.25 + double(rng() % 1000) / 500.0, sign = rng() % 2 ? 1.0 : -1.0;
            const double c = std::cos(angle), d = sign * std::sin(angle);
            const double lim = narrow ? 32767.0 : 2147483647.0;  // the band type's range
            th = int64_t(std::clamp(std::round(s * (c * double(oh) - d * double(ov))), -lim, lim));
            tv = int64_t(std::clamp(std::round(s * (d * double(oh) + c * double(ov))), -lim, lim));
            tight++;
        }
        if (mode == 3) ov = 0, tv = int64_t(rng() % 3) - 1;  // degenerate and wrapping corners
        check(oh, ov, th, tv, narrow);
    }
    // The 16-bit extremes.
    const int16_t ext[] = {-32768, -32767, -1, 0, 1, 32767};
    for (int16_t a : ext)
        for (int16_t b : ext)
            for (int16_t c : ext)
                for (int16_t d : ext) check(int32_t(a), int32_t(b), int32_t(c), int32_t(d), true);
    std::printf("adm one-degree test: %ld inputs (%ld near the edge), %ld within, %ld overflowing skipped, %ld "
                "mismatches\n", kInputs, tight, inside, skipped, mismatches);
    CHECK(mismatches == 0);
}

TEST_CASE("adm's enhanced restored value in integers is the CPU's double product", "[adm][exact]")
{
    std::mt19937_64 rng(11);
    std::vector<double> limits = {1.0, 1.37, 1.5, 2.5, 99.99999, 1.0 + 0x1p-52, 100.0 - 0x1p-46, 3.0 / 7.0 + 1.0};
    for (int i = 0; i < 40; i++) limits.push_back(1.0 + std::uniform_real_distribution<double>(0.0, 99.0)(rng));
    long mismatches = 0, ties = 0;
    for (double limit : limits) {
        int e = 0;
        const double f = std::frexp(limit, &e);
        const uint64_t m = uint64_t(std::ldexp(f, 53));
        for (int i = 0; i < 40000; i++) {
            const bool narrow = i % 2 == 0;
            int64_t r;
            if (narrow) r = int64_t(int16_t(rng()));
            else r = int64_t(int32_t(rng() >> (32 + rng() % 32)));
            if (i % 7 == 0) r = int64_t(rng() % 64) - 32;
            const double g = double(r) * limit;
            const int64_t want_nearest =
                narrow ? int64_t(int32_t(adm::kernels::round_half_even(g))) : int64_t(std::nearbyint(g));
            const int64_t want_trunc = narrow ? int64_t(int32_t(g)) : int64_t(g);
            ties += std::fabs(g - std::trunc(g)) == 0.5;
            const uint64_t mag = r < 0 ? uint64_t(-r) : uint64_t(r);
            const int64_t sign = r < 0 ? -1 : 1;
            const int64_t got_nearest = sign * int64_t(glsl_exact::adm_enhanced_magnitude(mag, true, m, e - 53));
            const int64_t got_trunc = sign * int64_t(glsl_exact::adm_enhanced_magnitude(mag, false, m, e - 53));
            if ((got_nearest != want_nearest || got_trunc != want_trunc) && mismatches++ < 10)
                UNSCOPED_INFO("r " << r << " limit " << limit << ": " << got_nearest << " " << got_trunc
                                   << " want " << want_nearest << " " << want_trunc);
        }
    }
    std::printf("adm enhancement: %zu limits, %ld exact ties, %ld mismatches\n", limits.size(), ties, mismatches);
    CHECK(mismatches == 0);
    CHECK(ties > 0);
}

namespace {

// One golden pair through the C API with model `version`: every output of the
// model's features and VMAF, per frame. With `st`, the context runs on it.
std::map<std::string, std::vector<double>> score_through_api(const std::string &pair, const char *version,
                                                             vk::State *st)
{
    const ModelScores r = score_model_through_api(pair, version, st, {"vif", "adm", "aim", "motion"});
    CHECK(r.gpu_engine == (st != nullptr));
    return r.values;
}

}  // namespace

TEST_CASE("adm on the GPU through the C API: features and VMAF equal the CPU path and libvmaf",
          "[adm][vulkan]")
{
    model_api_case("adm", {"adm", "aim"}, 7, score_through_api);
}

TEST_CASE("adm and vif on the GPU: the same scores whether their thin scales are carried or not",
          "[adm][vulkan]")
{
    // The vmaf set takes VIF's and ADM's offer to carry their last scales
    // into the next frame (ADR 0050); VMAF_VULKAN_CARRY=0 declines it. With
    // one frame in flight every frame's carried work waits for the slot.
    const std::string pair = "rocket_320x240_10bit_crf30";
    const auto cpu = score_model_through_api(pair, "vmaf_v0.6.1", nullptr, {"vif", "adm", "aim", "motion"});
    for (unsigned in_flight : {1u, vk::kDefaultFramesInFlight}) {
        auto st = validated_state(in_flight);
        for (bool carry : {true, false}) {
            INFO("frames in flight " << in_flight << (carry ? ", carried" : ", not carried"));
            if (carry)
                unsetenv("VMAF_VULKAN_CARRY");
            else
                setenv("VMAF_VULKAN_CARRY", "0", 1);
            const uint64_t uploads = st->tables().uploads();
            const auto gpu = score_model_through_api(pair, "vmaf_v0.6.1", st.get(), {"vif", "adm", "aim", "motion"});
            unsetenv("VMAF_VULKAN_CARRY");
            CHECK(gpu.gpu_engine);
            // One submission per frame, VIF's table on the device's first
            // context (later ones share it); carried work, one more after the
            // last frame.
            const uint64_t uploaded = st->tables().uploads() - uploads;
            CHECK(uploaded == (carry ? 1u : 0u));  // the device's first context carries
            CHECK(gpu.submissions == gpu.frames + uploaded + (carry ? 1 : 0));
            REQUIRE(gpu.values.size() == cpu.values.size());
            for (const auto &[name, values] : cpu.values) {
                INFO(name);
                REQUIRE(gpu.values.count(name));
                CHECK(gpu.values.at(name) == values);
            }
        }
        check_clean(*st);
    }
}

TEST_CASE("adm on the GPU refuses what the CPU refuses", "[adm][vulkan]")
{
    vk::State &st = shared_state();
    std::unique_ptr<vk::Engine> engine;
    const FrameFormat small{VMAF_PIX_FMT_YUV420P, 8, 32, 40};
    CHECK(vk::Engine::create(&st, small, {{&kAdmExtractor, options_for(kAdmExtractor)}}, &engine) != 0);
    CHECK(kAdmExtractor.create(options_for(kAdmExtractor))->init(small) != 0);
    // Viewing set-ups without weights.
    const FrameFormat fmt{VMAF_PIX_FMT_YUV420P, 8, 64, 64};
    for (const Dict &d : {Dict{{"adm_norm_view_dist", "1"}}, Dict{{"adm_csf_mode", "2"}, {"adm_norm_view_dist", "4"}}}) {
        CHECK(vk::Engine::create(&st, fmt, {{&kAdmExtractor, options_for(kAdmExtractor, d)}}, &engine) != 0);
        CHECK(kAdmExtractor.create(options_for(kAdmExtractor, d))->init(fmt) != 0);
    }
    check_clean(st);
}
