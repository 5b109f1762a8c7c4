// SPDX-License-Identifier: BSD-2-Clause-Patent
// The integer VIF twin's table: every output (with `debug`) equal to the CPU
// extractor's on every golden pair, the four scales within 1e-4 of libvmaf's
// JSON with the default gain limit and a limit of 1; synthetic pictures of
// every depth, format and awkward size with three option sets, at one and three
// frames in flight; pictures below 16 refused. The kernel's integer
// restatement of the double-precision gain step
// (core/src/feature/vif/vif_gain.glsl) is compiled here as C++ and checked
// against the doubles themselves on millions of inputs; the vmaf models through
// the C API, configurations sharing one instance and the gain step without
// doubles are test cases of their own.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "context/context.h"
#include "feature/vif/vif.h"
#include "feature/vif/vif_score.h"
#include "feature/vif/vif_tables.h"
#include "golden.h"
#include "gpu/engine.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/model.h"
#include "parity.h"
#include "picture/picture.h"
#include "pictures.h"
#include "vulkan.h"

// The GLSL gain arithmetic as C++: it is written in the subset both languages
// share; GLSL's uint, findMSB(), min() and the bit cast to double are all it
// needs from here. The double variant (VIF_GAIN_FP64) compiles too.
namespace glsl_gain {
using uint = uint32_t;
inline int findMSB(uint v) { return v ? 31 - __builtin_clz(v) : -1; }
inline double uint64BitsToDouble(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t doubleBitsToUint64(double d) { return std::bit_cast<uint64_t>(d); }
inline double min(double a, double b) { return b < a ? b : a; }
constexpr int kVifSigmaNsq = vmaf::vif::kSigmaNsq;
#define VIF_GAIN_FP64
#define precise
#include "feature/vif/vif_gain.glsl"
#undef precise
#undef VIF_GAIN_FP64
}  // namespace glsl_gain

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

namespace {

MapSink run_gpu(vk::State &st, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist,
                const FeatureOptions &opts)
{
    return run_engine(st, kVifExtractor, opts, ref, dist);
}

MapSink run_cpu(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist, const FeatureOptions &opts)
{
    return run_extractor(kVifExtractor, opts, ref, dist);
}

// The CPU's gain step, in doubles (vif_cpu.cpp's accumulate()).
struct GainTerms {
    uint32_t numer1;
    int64_t numer2;
};

GainTerms gain_in_doubles(int32_t s1, int32_t s2, int32_t s12, double limit)
{
    double g = s12 / (s1 + vif::kGainEps);
    const double sv = s2 - g * s12;
    const uint32_t sv_sq = sv > 0.0 ? uint32_t(int32_t(sv)) : 0u;
    g = std::min(g, limit);
    const uint32_t numer1 = sv_sq + uint32_t(vif::kSigmaNsq);
    return {numer1, int64_t(g * g * s1) + numer1};
}

glsl_gain::VifDouble split(double v)
{
    int e = 0;
    const double f = std::frexp(v, &e);
    return glsl_gain::VifDouble(uint64_t(std::ldexp(f, 53)), e - 53);
}

glsl_gain::VifDouble divisor(int32_t s1)
{
    const int b = glsl_gain::findMSB(uint32_t(s1));
    return glsl_gain::VifDouble((uint64_t(s1) << (52 - b)) + vif::gain_eps_ulps(b), b - 52);
}

// The table's generator: the case's own seed, whatever the row.
void table_frames(const Synthetic &c, uint32_t, std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    textured_frames(c.fmt, c.bpc, c.w, c.h, c.frames, c.w * 131 + c.h + c.bpc, false, ref, dist);
}

const Table &vif_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kVifExtractor;
        const std::vector<const char *> scales(std::begin(vif::kScaleNames), std::end(vif::kScaleNames));
        t.outputs = scales;
        t.golden_options = {{"debug", "true"}};
        t.golden = {{".libvmaf.json", scales, 1e-4},
                    {".libvmaf.vmaf_v0.6.1neg.json", scales, 1e-4, false, {}, {{"vif_enhn_gain_limit", "1"}}, "_egl_1"}};
        const std::vector<Synthetic> cases = {
            {VMAF_PIX_FMT_YUV420P, 8, 37, 23, 5},   {VMAF_PIX_FMT_YUV420P, 10, 37, 23, 5},
            {VMAF_PIX_FMT_YUV400P, 8, 16, 16, 5},   {VMAF_PIX_FMT_YUV420P, 10, 16, 16, 5},
            {VMAF_PIX_FMT_YUV444P, 12, 17, 19, 5},  {VMAF_PIX_FMT_YUV422P, 8, 131, 67, 5},
            {VMAF_PIX_FMT_YUV422P, 10, 130, 35, 5}, {VMAF_PIX_FMT_YUV444P, 8, 200, 130, 5},
            {VMAF_PIX_FMT_YUV444P, 16, 97, 41, 5},  {VMAF_PIX_FMT_YUV420P, 8, 1925, 18, 5},
        };
        t.synthetic = each_with(cases, {{{"debug", "true"}},
                                        {{"debug", "true"}, {"vif_enhn_gain_limit", "1"}},
                                        {{"debug", "true"}, {"vif_enhn_gain_limit", "1.37"}, {"vif_skip_scale0", "true"}}});
        t.frames_in_flight = {1, 3};
        t.generate = table_frames;
        // (Pictures below 16 are not declined but fail the engine's start, as
        // the CPU's init: the case below.)
        t.api_pairs = {"rocket_320x240_10bit_crf30"};
        t.one_submission_per_frame = false;  // the last scales carried into a submission after the last frame
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(vif, vif_table, "[vif]")

TEST_CASE("vif's gain divisor in integers is the double s1 + eps", "[vif][gain]")
{
    std::mt19937 rng(5);
    for (int b = vif::kGainEpsFirstBit; b <= vif::kGainEpsLastBit; b++) {
        const uint32_t lo = std::max(1u << b, uint32_t(vif::kSigmaNsq)), hi = uint32_t((uint64_t(2) << b) - 1);
        std::vector<uint32_t> s1s = {lo, lo + 1, hi - 1, hi};
        for (int i = 0; i < 1000; i++) s1s.push_back(lo + rng() % (hi - lo + 1));
        for (uint32_t s1 : s1s) {
            INFO("s1 " << s1);
            const glsl_gain::VifDouble d = divisor(int32_t(s1));
            CHECK(std::ldexp(double(d.m), d.e) == double(int32_t(s1)) + vif::kGainEps);
            CHECK(d.m >> 52 == 1);
        }
    }
}

TEST_CASE("vif's checked division is the CPU's quotient from a device's up to two ulps off", "[vif][gain]")
{
    // The host's division is correctly rounded: it is the expectation, and,
    // moved by up to two ulps either way, the device's division to check.
    std::mt19937_64 rng(7);
    auto bits = [&](int n) { return uint32_t(rng() >> (64 - n)); };
    long checked = 0, mismatches = 0;
    auto check = [&](uint32_t n, int32_t s1) {
        const double want = double(n) / (double(s1) + vif::kGainEps);
        double lo = want, hi = want;
        for (int ulps = 0; ulps <= 2; ulps++) {
            for (double q0 : {lo, hi}) {
                checked++;
                const double got = glsl_gain::vif_div_checked(n, divisor(s1), q0);
                if (got != want && mismatches++ < 10)
                    UNSCOPED_INFO("n " << n << " s1 " << s1 << " from " << q0 << ": " << got << " want " << want);
            }
            lo = std::nextafter(lo, 0.0);
            hi = std::nextafter(hi, 1e300);
        }
    };
    for (int i = 0; i < 1'000'000; i++) {
        const int32_t s1 = std::max(int32_t(bits(1 + int(rng() % 31))), vif::kSigmaNsq);
        check(std::max(bits(1 + int(rng() % 31)), 1u), s1);
        // Quotients next to a power of two, where the doubles below are denser:
        // n = s1·2^j, then a step or two off.
        const int j = int(rng() % 8);
        const int64_t n = (int64_t(s1) << j) + int64_t(rng() % 5) - 2;
        if (n > 0 && n < 2147483648) check(uint32_t(n), s1);
    }
    // Exact powers of two as the device's answer, next to quotients just
    // below them.
    for (int32_t s1 : {vif::kSigmaNsq, vif::kSigmaNsq + 1, 1000003, 1 << 20, 2147483647})
        for (int j = 0; j < 4; j++)
            if ((int64_t(s1) << j) < 2147483648) check(uint32_t(int64_t(s1) << j), s1);
    std::printf("vif checked division: %ld quotients, %ld mismatches\n", checked, mismatches);
    CHECK(mismatches == 0);
}

TEST_CASE("vif's integer gain step equals the CPU's doubles", "[vif][gain]")
{
    std::mt19937_64 rng(42);
    const double limits[] = {vif::kDefaultEnhnGainLimit, 1.0, 1.5, 37.3};
    auto bits = [&](int n) { return int32_t(rng() >> (64 - n)); };
    long mismatches = 0, round_ups = 0, capped = 0;
    constexpr long kInputs = 4'000'000;
    for (long i = 0; i < kInputs; i++) {
        const int32_t s1 = std::max(bits(1 + int(rng() % 31)), vif::kSigmaNsq);
        int32_t s2 = std::max(bits(1 + int(rng() % 31)), 1);
        int32_t s12;
        const int mode = int(rng() % 4);
        if (mode == 0) {
            s12 = std::max(bits(1 + int(rng() % 31)), 1);
        } else {  // realistic: |σ12| up to a bit over sqrt(σ1² σ2²)
            const double c = std::sqrt(double(s1) * s2) * std::uniform_real_distribution<double>(0, 1.2)(rng);
            s12 = std::max(int32_t(std::min(c, 2147483647.0)), 1);
        }
        const double g = s12 / (s1 + vif::kGainEps), p = g * s12;
        if (mode == 2 && p < 2147483000.0) {  // σ2² next to g σ12: sv near zero
            s2 = std::max(int32_t(p) + int32_t(rng() % 3) - 1, 1);
        } else if (mode == 3 && p < 1e9) {
            // s2 - p rounds up to the next integer when p's fraction is tiny;
            // these are rare, so count them to see they were reached.
            const int64_t whole = int64_t(p);
            s2 = int32_t(std::min<int64_t>(whole + 1 + int64_t(rng() % uint64_t(2147483647 - whole)), 2147483647));
            if (p != double(whole) && double(s2) - p == double(s2 - whole)) round_ups++;
        }
        const double limit = limits[rng() % 4];
        capped += g > limit;
        const GainTerms want = gain_in_doubles(s1, s2, s12, limit);
        const glsl_gain::VifGain got = glsl_gain::vif_gain(uint32_t(s1), uint32_t(s2), uint32_t(s12), divisor(s1),
                                                           split(limit));
        // The double variant: the integer division, then the kernel's double steps.
        const glsl_gain::VifGainBaseF64 b = glsl_gain::vif_gain_base_f64(uint32_t(s2), uint32_t(s12), divisor(s1));
        const double capped_f64 = glsl_gain::vif_capped_f64(b.g, glsl_gain::vif_to_double(split(limit)));
        const uint64_t numer2_f64 = glsl_gain::vif_numer2_f64(capped_f64, uint32_t(s1), b.numer1);
        if (got.numer1 != want.numer1 || int64_t(got.numer2) != want.numer2 || b.numer1 != want.numer1 ||
            int64_t(numer2_f64) != want.numer2) {
            if (mismatches++ < 10)
                UNSCOPED_INFO("s1 " << s1 << " s2 " << s2 << " s12 " << s12 << " limit " << limit << ": "
                                    << got.numer1 << " " << got.numer2 << " (double variant " << b.numer1 << " "
                                    << numer2_f64 << ") want " << want.numer1 << " " << want.numer2);
        }
    }
    std::printf("vif gain step: %ld inputs, %ld mismatches, %ld round-ups to an integer, %ld capped gains\n",
                kInputs, mismatches, round_ups, capped);
    CHECK(mismatches == 0);
    CHECK(round_ups > 0);
    CHECK(capped > 0);
}

namespace {

// One golden pair through the C API with model `version`: every output of the
// model's features and VMAF, per frame. With `st`, the context runs on it.
std::map<std::string, std::vector<double>> score_through_api(const std::string &pair, const char *version,
                                                             vk::State *st)
{
    const uint64_t uploads = st ? st->tables().uploads() : 0;
    const ModelScores r = score_model_through_api(pair, version, st, {"vif", "adm", "motion"});
    // VIF ran on the GPU: one submission per frame, one after the last frame
    // for the scales it carried (ADR 0050: VIF and ADM carry in this set), and
    // the log2 table's upload when this is the device's first VIF (later
    // contexts share it: TableShelf).
    if (st) {
        const uint64_t uploaded = st->tables().uploads() - uploads;
        CHECK(uploaded <= 1);
        CHECK(r.submissions == r.frames + 1 + uploaded);
    }
    return r.values;
}

}  // namespace

TEST_CASE("vif on the GPU through the C API: features and VMAF equal the CPU path and libvmaf",
          "[vif][vulkan]")
{
    model_api_case("vif", {"vif"}, 4, score_through_api);
}

namespace {

// Every frame through one Engine running the VIF configurations `opts`, each
// into its own sink; *names gets the engine's feature instances.
std::vector<MapSink> run_gpu_together(vk::State &st, const std::vector<VmafPicture> &ref,
                                      const std::vector<VmafPicture> &dist, const std::vector<FeatureOptions> &opts,
                                      std::vector<std::string> *names)
{
    std::vector<vk::Engine::FeatureConfig> configs;
    for (const FeatureOptions &o : opts) configs.push_back({&kVifExtractor, o});
    return run_engine_configs(st, configs, ref, dist, names);
}

}  // namespace

TEST_CASE("vif on the GPU: configurations differing only in the gain limit share one instance, each scored "
          "as alone", "[vif][vulkan][shared]")
{
    const Synthetic cases[] = {{VMAF_PIX_FMT_YUV420P, 8, 200, 130, 6}, {VMAF_PIX_FMT_YUV444P, 10, 97, 41, 6},
                               {VMAF_PIX_FMT_YUV420P, 12, 37, 23, 6}};
    // Pairs of gain limits (the aom_ctc models', both orders, equal ones, one
    // between), with and without scale 0.
    const std::pair<const char *, const char *> limit_pairs[] = {
        {"100", "1"}, {"1", "100"}, {"1", "1"}, {"100", "100"}, {"1.37", "100"}};
    vk::State &st = shared_state(3);
    for (const Synthetic &c : cases) {
        std::vector<VmafPicture> ref, dist;
        textured_frames(c.fmt, c.bpc, c.w, c.h, c.frames, c.w * 7 + c.h + c.bpc, false, &ref, &dist);
        for (const char *skip : {"false", "true"}) {
            for (const auto &[la, lb] : limit_pairs) {
                INFO("fmt " << c.fmt << " " << c.bpc << "-bit " << c.w << "x" << c.h << " limits " << la << ", "
                            << lb << " skip_scale0 " << skip);
                const std::vector<FeatureOptions> opts = {
                    options_for(kVifExtractor, {{"debug", "true"}, {"vif_enhn_gain_limit", la},
                                                {"vif_skip_scale0", skip}}),
                    options_for(kVifExtractor, {{"debug", "true"}, {"vif_enhn_gain_limit", lb},
                                                {"vif_skip_scale0", skip}})};
                std::vector<std::string> names;
                const std::vector<MapSink> together = run_gpu_together(st, ref, dist, opts, &names);
                CHECK(names == std::vector<std::string>{"vif"});  // one instance for both
                for (size_t k = 0; k < opts.size(); k++) {
                    INFO("configuration " << k);
                    const MapSink alone = run_gpu(st, ref, dist, opts[k]);
                    require_identical(together[k], alone);
                    require_identical(together[k], run_cpu(ref, dist, opts[k]));
                }
                // The limits mattered: with gains above 1 in the frames, 1 and
                // 100 give different numerators.
                if (std::string(la) != lb)
                    CHECK(together[0].scores.at("integer_vif_num") != together[1].scores.at("integer_vif_num"));
            }
        }
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(st);
}

TEST_CASE("vif on the GPU: the gain step in integers (no shaderFloat64) and in doubles give the same scores",
          "[vif][vulkan]")
{
    // The same device, adopted by a second state that is told shaderFloat64 is
    // not enabled: VIF's kernels then finish the gain step in integers
    // (vif_scale<N>.comp) instead of doubles (vif_scale<N>_fp64.comp).
    auto own = validated_state();
    REQUIRE(own->float64());
    vk::FeatureChain no_float64;
    std::unique_ptr<vk::State> ints = adopt_without_float64(*own, &no_float64);
    const Synthetic cases[] = {{VMAF_PIX_FMT_YUV420P, 8, 200, 130, 4}, {VMAF_PIX_FMT_YUV444P, 10, 97, 41, 4},
                               {VMAF_PIX_FMT_YUV422P, 16, 64, 48, 4}};
    for (const Synthetic &c : cases) {
        std::vector<VmafPicture> ref, dist;
        textured_frames(c.fmt, c.bpc, c.w, c.h, c.frames, c.w + c.h * 5 + c.bpc, false, &ref, &dist);
        for (const char *limit : {"100", "1", "1.37"}) {
            INFO("fmt " << c.fmt << " " << c.bpc << "-bit " << c.w << "x" << c.h << " limit " << limit);
            const FeatureOptions opts =
                options_for(kVifExtractor, {{"debug", "true"}, {"vif_enhn_gain_limit", limit}});
            const MapSink in_doubles = run_gpu(*own, ref, dist, opts);
            require_identical(run_gpu(*ints, ref, dist, opts), in_doubles);
            require_identical(in_doubles, run_cpu(ref, dist, opts));
        }
        // Both limits of one shared instance, each way.
        const std::vector<FeatureOptions> pair = {
            options_for(kVifExtractor, {{"debug", "true"}}),
            options_for(kVifExtractor, {{"debug", "true"}, {"vif_enhn_gain_limit", "1"}})};
        std::vector<std::string> names;
        const std::vector<MapSink> a = run_gpu_together(*own, ref, dist, pair, &names);
        const std::vector<MapSink> b = run_gpu_together(*ints, ref, dist, pair, &names);
        for (size_t k = 0; k < pair.size(); k++) require_identical(a[k], b[k]);
        unref_all(ref);
        unref_all(dist);
    }
    CHECK(ints->submissions() > 0);  // the integer variant ran on the GPU
    ints.reset();
    check_clean(*own);
}

TEST_CASE("vif on the GPU: configurations that cannot share get instances of their own", "[vif][vulkan][shared]")
{
    vk::State &st = shared_state();
    std::vector<VmafPicture> ref, dist;
    textured_frames(VMAF_PIX_FMT_YUV420P, 8, 64, 48, 4, 11, false, &ref, &dist);
    const auto opts = [](std::initializer_list<std::pair<std::string, std::string>> d) {
        return options_for(kVifExtractor, Dict(d));
    };
    struct Case {
        std::vector<FeatureOptions> opts;
        std::vector<std::string> names;
    };
    const Case cases[] = {
        // Other options differ: no sharing.
        {{opts({{"debug", "true"}}), opts({{"vif_enhn_gain_limit", "1"}})}, {"vif", "vif"}},
        {{opts({{"debug", "true"}}), opts({{"debug", "true"}, {"vif_skip_scale0", "true"}})}, {"vif", "vif"}},
        // Three limits: two in one instance (the kernel's most), the third alone.
        {{opts({{"debug", "true"}}), opts({{"debug", "true"}, {"vif_enhn_gain_limit", "1"}}),
          opts({{"debug", "true"}, {"vif_enhn_gain_limit", "1.5"}})},
         {"vif", "vif"}},
    };
    for (const Case &c : cases) {
        INFO("case " << (&c - cases));
        std::vector<std::string> names;
        const std::vector<MapSink> got = run_gpu_together(st, ref, dist, c.opts, &names);
        CHECK(names == c.names);
        for (size_t k = 0; k < c.opts.size(); k++) require_identical(got[k], run_cpu(ref, dist, c.opts[k]));
    }
    unref_all(ref);
    unref_all(dist);
    check_clean(st);
}

TEST_CASE("vif on the GPU: vmaf_v0.6.1 and vmaf_v0.6.1neg in one context (the aom_ctc models) share one VIF "
          "instance; VMAF and VMAF neg equal the CPU and libvmaf's aom_ctc JSON", "[vif][vulkan][shared]")
{
    vk::State &st = shared_state();
    // libvmaf's aom_ctc JSON was printed by its AVX2 build (tests/test_golden.cpp).
    setenv("VMAF_ADM_EDGE_AS", "avx2", 1);
    for (const auto &pair : golden_pairs()) {
        INFO(pair);
        const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.aom_ctc_v7.0.json");
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        REQUIRE(expected.frames.size() == ref.size());
        std::map<std::string, std::vector<double>> got[2];  // GPU, CPU
        for (int on_cpu = 0; on_cpu < 2; on_cpu++) {
            VmafConfiguration cfg{};
            cfg.log_level = VMAF_LOG_LEVEL_ERROR;
            VmafContext *vmaf = nullptr;
            REQUIRE(vmaf_init(&vmaf, cfg) == 0);
            if (!on_cpu) REQUIRE(context_import_vulkan_state(vmaf, &st) == 0);
            VmafModel *models[2] = {};
            const char *versions[2] = {"vmaf_v0.6.1", "vmaf_v0.6.1neg"};
            const char *names[2] = {"vmaf", "vmaf_neg"};
            for (int m = 0; m < 2; m++) {
                VmafModelConfig mcfg{};
                mcfg.name = names[m];
                REQUIRE(vmaf_model_load(&models[m], &mcfg, versions[m]) == 0);
                REQUIRE(vmaf_use_features_from_model(vmaf, models[m]) == 0);
            }
            for (size_t i = 0; i < ref.size(); i++) {
                VmafPicture r, d;  // the context takes these references
                REQUIRE(picture_copy_to_new(ref[i], &r) == 0);
                REQUIRE(picture_copy_to_new(dist[i], &d) == 0);
                REQUIRE(vmaf_read_pictures(vmaf, &r, &d, unsigned(i)) == 0);
            }
            REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
            if (!on_cpu) {
                // Both VIF configurations (limits 100 and 1) in one instance;
                // ADM's two are instances of their own.
                REQUIRE(vmaf->ctx.vulkan_engine());
                const auto instances = vmaf->ctx.vulkan_engine()->feature_names();
                CHECK(std::count_if(instances.begin(), instances.end(),
                                    [](const char *n) { return std::string(n) == "vif"; }) == 1);
            }
            for (size_t i = 0; i < ref.size(); i++) {
                for (int m = 0; m < 2; m++) {
                    double v = 0;
                    REQUIRE(vmaf_score_at_index(vmaf, models[m], &v, unsigned(i)) == 0);
                    got[on_cpu][names[m]].push_back(v);
                }
                for (int s = 0; s < vif::kScales; s++) {
                    for (const char *suffix : {"", "_egl_1"}) {
                        const std::string name = "integer_vif_scale" + std::to_string(s) + suffix;
                        double v = 0;
                        REQUIRE(vmaf_feature_score_at_index(vmaf, name.c_str(), &v, unsigned(i)) == 0);
                        got[on_cpu][name].push_back(v);
                    }
                }
            }
            REQUIRE(vmaf_close(vmaf) == 0);
            for (VmafModel *m : models) vmaf_model_destroy(m);
        }
        double vs_libvmaf = 0;
        for (const auto &[name, values] : got[1]) {
            INFO(name);
            REQUIRE(got[0].at(name).size() == values.size());
            for (size_t i = 0; i < values.size(); i++) {
                CHECK(got[0].at(name)[i] == values[i]);
                const double d = std::fabs(got[0].at(name)[i] - expected.frames[i].at(name));
                CHECK(d <= 1e-4);
                vs_libvmaf = std::max(vs_libvmaf, d);
            }
        }
        std::printf("%-28s aom_ctc models, VIF shared on the GPU: vmaf, vmaf_neg and VIF scales equal the CPU; "
                    "vs libvmaf %.3g\n", pair.c_str(), vs_libvmaf);
        unref_all(ref);
        unref_all(dist);
    }
    unsetenv("VMAF_ADM_EDGE_AS");
    check_clean(st);
}

TEST_CASE("vif on the GPU refuses pictures the CPU refuses", "[vif][vulkan]")
{
    vk::State &st = shared_state();
    std::unique_ptr<vk::Engine> engine;
    const FrameFormat small{VMAF_PIX_FMT_YUV420P, 8, 15, 40};
    CHECK(vk::Engine::create(&st, small, {{&kVifExtractor, options_for(kVifExtractor)}}, &engine) != 0);
    CHECK(kVifExtractor.create(options_for(kVifExtractor))->init(small) != 0);
    check_clean(st);
}
