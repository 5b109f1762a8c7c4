// SPDX-License-Identifier: BSD-2-Clause-Patent
// The float_ssim and float_ms_ssim twins' tables: on every golden pair through
// the engine, within 1e-4 of libvmaf's JSON with its default, aom_ctc v7.0 and
// nflx_ctc v1.0 options, and within 1e-6 of the CPU extractor (as oracle; the
// kernels round every float as the CPU does, only the order of the double sums
// differs) on golden and synthetic input of every depth, format, odd and
// minimum size and option, at one and three frames in flight. MS-SSIM below
// 176x176 writes nothing, as on the CPU. libvmaf's own scores of the downscaled
// and odd-sized cases the golden pairs do not reach, 2160p, instances shared by
// several configurations, the aom_ctc pair through the C API, a device without
// doubles, the refusals and the kernels' rounding corrections are test cases of
// their own.
#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "context/context.h"
#include "feature/options.h"
#include "feature/ssim/ssim.h"
#include "golden.h"
#include "gpu/engine.h"
#include "libvmaf/libvmaf.h"
#include "parity.h"
#include "picture/picture.h"
#include "pictures.h"
#include "vulkan.h"

// The kernels' rounding corrections as C++: ssim_round.glsl is written in the
// subset both languages share, given GLSL's bit-cast built-ins.
namespace glsl_round {
using uint = uint32_t;
inline float uintBitsToFloat(uint b) { return std::bit_cast<float>(b); }
inline uint floatBitsToUint(float f) { return std::bit_cast<uint>(f); }
inline double uint64BitsToDouble(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t doubleBitsToUint64(double d) { return std::bit_cast<uint64_t>(d); }
inline bool isnan(double x) { return std::isnan(x); }
inline double abs(double x) { return std::fabs(x); }
#define precise
#include "feature/common/ssim_round.glsl"
#undef precise
}  // namespace glsl_round

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

namespace {

const ExtractorInfo &info(bool ms) { return ms ? kFloatMsSsimExtractor : kFloatSsimExtractor; }

FeatureOptions options(bool ms, const Dict &d = {}) { return options_for(info(ms), d); }

MapSink run_gpu(vk::State &st, bool ms, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist, const FeatureOptions &opts)
{
    return run_engine(st, info(ms), opts, ref, dist);
}

MapSink run_cpu(bool ms, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist, const FeatureOptions &opts)
{
    return run_extractor(info(ms), opts, ref, dist);
}

// Every output of `cpu` is in `gpu`, within `tol`; returns max |diff| per output.
// Also counts the values that differ at all.
std::map<std::string, double> compare(const MapSink &gpu, const MapSink &cpu, double tol, long *differing = nullptr)
{
    return compare_scores(gpu, cpu, {.tol = tol, .differing = differing});
}

// The tolerance against the CPU extractor: the kernels round every float as
// the CPU does; only the order of the double sums of the per-pixel terms
// differs (by workgroup instead of raster order), far below a float's ulp.
constexpr double kVsCpu = 1e-6;

bool ms_fits(unsigned w, unsigned h) { return w >= 176 && h >= 176; }

// The table's synthetic rows: each case's pictures (its own seed, made once
// for the rows of that case), under every option set that leaves at least
// the window.
std::vector<Synthetic> rows(bool ms)
{
    // float_ssim's smallest picture is the 11x11 window; MS-SSIM's 176x176.
    const Synthetic cases[] = {
        {VMAF_PIX_FMT_YUV400P, 8, 11, 11, 4},    {VMAF_PIX_FMT_YUV420P, 10, 11, 12, 4},
        {VMAF_PIX_FMT_YUV420P, 8, 37, 23, 4},    {VMAF_PIX_FMT_YUV422P, 10, 131, 67, 4},
        {VMAF_PIX_FMT_YUV444P, 12, 45, 97, 4},   {VMAF_PIX_FMT_YUV444P, 16, 97, 41, 4},
        {VMAF_PIX_FMT_YUV420P, 8, 176, 176, 4},  {VMAF_PIX_FMT_YUV422P, 16, 177, 181, 4},
        {VMAF_PIX_FMT_YUV444P, 10, 203, 179, 4}, {VMAF_PIX_FMT_YUV400P, 12, 353, 190, 4},
    };
    const std::vector<Dict> ssim_sets = {
        {{"enable_lcs", "true"}},
        {{"scale", "1"}, {"enable_db", "true"}, {"clip_db", "true"}},
        {{"scale", "2"}, {"enable_lcs", "true"}},
        {{"scale", "3"}, {"enable_db", "true"}},
        {{"scale", "10"}, {"enable_lcs", "true"}},
    };
    const std::vector<Dict> ms_sets = {
        {{"enable_lcs", "true"}},
        {{"enable_db", "true"}, {"clip_db", "true"}},
        {{"enable_db", "true"}},
    };
    std::vector<Synthetic> out;
    for (const Synthetic &c : cases) {
        if (ms && !ms_fits(c.w, c.h)) continue;
        for (const Dict &d : ms ? ms_sets : ssim_sets) {
            // Scales that leave less than the window are refused (a case below).
            int factor = 1;
            for (const auto &[k, v] : d)
                if (k == "scale") factor = std::stoi(v);
            if (!ms && (int(c.w) / factor + int(c.w & 1) < 11 || int(c.h) / factor + int(c.h & 1) < 11)) continue;
            Synthetic s = c;
            s.options = d;
            const std::string key = "ssim " + std::to_string(int(c.fmt)) + " " + std::to_string(c.bpc) + " " +
                                    std::to_string(c.w) + " " + std::to_string(c.h);
            s.make = shared_pictures(key, [c](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
                textured_frames(c.fmt, c.bpc, c.w, c.h, c.frames, c.w * 131 + c.h + c.bpc, true, ref, dist);
            });
            out.push_back(s);
        }
    }
    return out;
}

const Dict kAom = {{"enable_db", "true"}, {"clip_db", "true"}};
const Dict kFullAom = {{"scale", "1"}, {"enable_db", "true"}, {"clip_db", "true"}};

const Table &float_ssim_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kFloatSsimExtractor;
        t.tol = kVsCpu;
        t.needs_float64 = true;
        t.outputs = {"float_ssim"};
        // Each preset's options (a golden file without float_ssim is passed over).
        t.golden = {{".libvmaf.json", {"float_ssim"}, 1e-4},
                    {".libvmaf.aom_ctc_v7.0.json", {"float_ssim"}, 1e-4, false, {}, kFullAom},
                    {".libvmaf.nflx_ctc_v1.0.json", {"float_ssim"}, 1e-4, false, {}, kAom}};
        t.option_sets = {{{"enable_lcs", "true"}}};  // the mean terms
        t.option_pairs = golden_pairs();
        t.synthetic = rows(false);
        t.frames_in_flight = {1, 3};
        t.declines = {{{VMAF_PIX_FMT_YUV420P, 8, 180, 178}, {}, "needs doubles", true}};
        t.api_pairs = {"rocket_320x240_10bit_crf30"};
        return t;
    }();
    return t;
}

const Table &float_ms_ssim_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kFloatMsSsimExtractor;
        t.tol = kVsCpu;
        t.needs_float64 = true;
        // No outputs required: below 176x176 (two golden pairs) MS-SSIM writes
        // nothing, on both sides; the golden files hold it where it fits.
        t.golden = {{".libvmaf.json", {"float_ms_ssim"}, 1e-4},
                    {".libvmaf.aom_ctc_v7.0.json", {"float_ms_ssim"}, 1e-4, false, {}, kAom},
                    {".libvmaf.nflx_ctc_v1.0.json", {"float_ms_ssim"}, 1e-4}};
        t.option_sets = {{{"enable_lcs", "true"}}};
        t.option_pairs = golden_pairs();
        t.synthetic = rows(true);
        t.frames_in_flight = {1, 3};
        t.declines = {{{VMAF_PIX_FMT_YUV420P, 8, 180, 178}, {}, "needs doubles", true}};
        t.api_pairs = {"rocket_320x240_10bit_crf30"};
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(float_ssim, float_ssim_table, "[ssim]")
PARITY_TABLE(float_ms_ssim, float_ms_ssim_table, "[ssim]")

TEST_CASE("ssim kernels' rounding corrections give IEEE results from perturbed candidates", "[ssim][round]")
{
    using namespace glsl_round;
    std::mt19937_64 rng(7);
    // Values like the kernels' (variances, window sums, quotient operands) over
    // many binades, both signs where the operation takes them.
    auto value = [&](int lo, int hi) {
        const int e = lo + int(rng() % uint64_t(hi - lo + 1));
        return std::ldexp(1.0 + double(rng() >> 11) * 0x1p-53, e);
    };
    // A float `k` ulps from f (k in [-3, 3]); a double likewise.
    auto perturb = [&](float f, int k) {
        for (; k > 0; k--) f = next_float(f, true);
        for (; k < 0; k++) f = next_float(f, false);
        return f;
    };
    auto perturb_d = [&](double d, int k) { return std::bit_cast<double>(std::bit_cast<uint64_t>(d) + int64_t(k)); };
    auto ties_d = [&]() { return int(rng() % 7) - 3; };
    long wrong = 0, corrected = 0;
    constexpr int kInputs = 300000;
    for (int i = 0; i < kInputs; i++) {
        // The conversion: the device's candidate rounded to nearest or towards zero.
        const double d = (rng() & 1 ? -1 : 1) * value(-30, 30);
        const float rne = float(d);
        const float rtz = std::fabs(double(rne)) > std::fabs(d) ? next_float(rne, d < 0) : rne;
        wrong += std::bit_cast<uint32_t>(to_float_rn(d)) != std::bit_cast<uint32_t>(rne);
        for (float cand : {rne, rtz}) {
            const float got = to_float_from(d, cand);
            wrong += std::bit_cast<uint32_t>(got) != std::bit_cast<uint32_t>(rne);
            corrected += cand != rne;
        }
        // Float square root and division, candidates up to 3 ulps off.
        const float v = float(value(-40, 40));
        const float a = float((rng() & 1 ? -1 : 1) * value(-20, 20)), b = float(value(-20, 20));
        const int k = int(rng() % 7) - 3;
        wrong += sqrt_rn_from(v, perturb(std::sqrt(v), k)) != std::sqrt(v);
        wrong += div_rn_from(a, b, perturb(a / b, k)) != a / b;
        // Double division by a float.
        const double n = (rng() & 1 ? -1 : 1) * value(-20, 20), dd = double(float(value(-20, 20)));
        const int kd = ties_d();
        wrong += div_rn_d_from(n, dd, perturb_d(std::fabs(n) / dd, kd)) != n / dd;
        corrected += k != 0 || kd != 0;
    }
    // Exact quotients and ties: a / b exactly representable, sqrt of squares.
    for (int i = 0; i < 10000; i++) {
        const float q = float(value(-10, 10)), b = float(int(rng() % 4096) + 1);
        const float a = q * b;  // rounded: a / b need not be q
        wrong += div_rn_from(a, b, perturb(a / b, int(rng() % 7) - 3)) != a / b;
        const float r = float(int(rng() % 65536));
        wrong += sqrt_rn_from(r * r, perturb(r, int(rng() % 7) - 3)) != std::sqrt(r * r);
    }
    // The conversion from bits: ties both ways, carries into the exponent, the
    // edges of the normal floats, zeros, infinities and NaN.
    long narrowed = 0;
    auto narrow = [&](double d) {
        const float want = float(d), got = to_float_rn(d);
        wrong += std::isnan(want) ? !std::isnan(got) : std::bit_cast<uint32_t>(got) != std::bit_cast<uint32_t>(want);
        narrowed++;
    };
    for (int i = 0; i < 100000; i++) {
        const uint64_t sign = (rng() & 1) << 63, exp = uint64_t(860 + int(rng() % 330)) << 52;
        const uint64_t top = (rng() & ((uint64_t(1) << 23) - 1)) << 29;  // a float's mantissa
        const uint64_t low[] = {0, 1, 0x0fffffff, 0x10000000, 0x10000001, 0x1fffffff, rng() & 0x1fffffff};
        for (uint64_t l : low) narrow(std::bit_cast<double>(sign | exp | top | l));
        narrow(std::bit_cast<double>(sign | exp | (uint64_t(0xfffff) << 32) | 0xf0000000u));  // carries
    }
    for (double d : {0.0, -0.0, double(FLT_MIN), double(FLT_MAX), double(FLT_TRUE_MIN), 0x1.fffffffp-127, 0x1.ffffffp127,
                     0x1.fffffefp127, 0x1p128, 1e300, -1e-300, double(INFINITY), -double(INFINITY), double(NAN)})
        narrow(d);
    std::printf("ssim double-to-float from bits: %ld values\n", narrowed);
    // And float-to-double: every exponent, both signs, the specials.
    long widened = 0;
    auto widen = [&](float f) {
        const double want = double(f), got = to_double_bits(f);
        wrong += std::isnan(want) ? !std::isnan(got) : std::bit_cast<uint64_t>(got) != std::bit_cast<uint64_t>(want);
        widened++;
    };
    for (uint32_t e = 0; e < 256; e++)
        for (int i = 0; i < 200; i++) {
            const uint32_t m = i == 0 ? 0 : i == 1 ? 0x7fffff : i == 2 ? 1 : uint32_t(rng()) & 0x7fffff;
            widen(std::bit_cast<float>((e << 23) | m));
            widen(std::bit_cast<float>(0x80000000u | (e << 23) | m));
        }
    std::printf("ssim float-to-double from bits: %ld values\n", widened);
    std::printf("ssim rounding corrections: %d inputs, %ld perturbed candidates, %ld wrong\n", kInputs, corrected,
                wrong);
    CHECK(wrong == 0);
    CHECK(corrected > kInputs);
}

namespace {

// libvmaf's compute_ssim / compute_ms_ssim scores (golden commit) on
// textured(8, w, h, 1, 0) against textured(8, w, h, 2, 12), the generator of
// test_ssim.cpp: the downscaling and odd sizes the golden pairs do not reach.
unsigned hash(unsigned x, unsigned y, unsigned seed)
{
    unsigned v = x * 374761393u + y * 668265263u + seed * 2246822519u;
    v = (v ^ (v >> 13)) * 1274126177u;
    return v ^ (v >> 16);
}

VmafPicture textured(unsigned w, unsigned h, unsigned seed, unsigned noise)
{
    return make_picture(VMAF_PIX_FMT_YUV400P, 8, w, h, [&](unsigned, unsigned x, unsigned y) {
        const double base = 0.5 + 0.35 * std::sin(x * 0.05 + y * 0.031) * std::cos(y * 0.043 - x * 0.017);
        const int n = int(hash(x, y, seed) % (2 * noise + 1)) - int(noise);
        const long v = std::lround(base * 255) + n;
        return unsigned(std::clamp<long>(v, 0, 255));
    });
}

struct RefScore {
    bool ms;
    unsigned w, h;
    int scale;
    double score, l, s;  // float_ssim's l and s; MS-SSIM's scale 4 l and scale 0 s
};

constexpr RefScore kLibvmafScores[] = {
    {false, 400, 300, 2, 0.94370019435882568, 0.99997794628143311, 0.94766920804977417},
    {false, 401, 301, 3, 0.98543709516525269, 0.99999082088470459, 0.98587429523468018},
    {false, 401, 301, 5, 0.99784386157989502, 0.99999707937240601, 0.99788469076156616},
    {true, 401, 301, 0, 0.96331500709840723, 0.9999997615814209, 0.75542682409286499},
    {true, 177, 176, 0, 0.96406521230546416, 0.9999997615814209, 0.75551462173461914},
    {false, 1920, 1080, 0, 0.99499630928039551, 0.99999469518661499, 0.99511277675628662},
    {true, 1920, 1080, 0, 0.96356708193537566, 0.9999997615814209, 0.75575262308120728},
};

}  // namespace

namespace {

// One configuration of float_ssim (ms false) or float_ms_ssim.
struct Config {
    bool ms;
    Dict opts;
};

// Every frame through one Engine running `configs`, each into its own sink;
// *names gets the engine's feature instances.
std::vector<MapSink> run_gpu_together(vk::State &st, const std::vector<VmafPicture> &ref,
                                      const std::vector<VmafPicture> &dist, const std::vector<Config> &configs,
                                      std::vector<std::string> *names)
{
    std::vector<vk::Engine::FeatureConfig> list;
    for (const Config &c : configs) list.push_back({&info(c.ms), options(c.ms, c.opts)});
    return run_engine_configs(st, list, ref, dist, names);
}

}  // namespace

TEST_CASE("float_ssim at full size and float_ms_ssim share one instance on the GPU, each scored as alone",
          "[ssim][vulkan][shared]")
{
    // Above MS-SSIM's 176x176 minimum (several workgroups per scale, odd
    // sizes), and below it (float_ms_ssim writes nothing, float_ssim its own).
    const Synthetic cases[] = {{VMAF_PIX_FMT_YUV420P, 8, 203, 179, 5},
                               {VMAF_PIX_FMT_YUV444P, 10, 353, 190, 5},
                               {VMAF_PIX_FMT_YUV422P, 12, 97, 41, 5}};
    const Dict aom = {{"enable_db", "true"}, {"clip_db", "true"}};
    const Dict full_aom = {{"scale", "1"}, {"enable_db", "true"}, {"clip_db", "true"}};
    struct Set {
        std::vector<Config> configs;
        std::vector<std::string> names;  // the instances, where MS-SSIM fits
    };
    const Set sets[] = {
        // The aom_ctc v7.0 pair, in its order and the other.
        {{{false, full_aom}, {true, aom}}, {"float_ssim+float_ms_ssim"}},
        {{{true, aom}, {false, full_aom}}, {"float_ms_ssim+float_ssim"}},
        // Output options of every kind, two of each feature.
        {{{false, {{"scale", "1"}, {"enable_lcs", "true"}}}, {true, {{"enable_lcs", "true"}}},
          {true, {{"enable_db", "true"}}}, {false, {{"scale", "1"}}}},
         {"float_ssim+float_ms_ssim"}},
        // float_ssim alone at full size, twice: one instance, one scale.
        {{{false, full_aom}, {false, {{"scale", "1"}, {"enable_lcs", "true"}}}}, {"float_ssim"}},
        // The automatic scale depends on the picture: not shared.
        {{{false, aom}, {true, aom}}, {"float_ssim", "float_ms_ssim"}},
        {{{false, {{"scale", "2"}}}, {true, aom}, {false, full_aom}},
         {"float_ssim", "float_ms_ssim+float_ssim"}},
    };
    vk::State &st = shared_state(3);
    for (const Synthetic &c : cases) {
        // The sanitizers' pass: above the minimum and below it, once each (the
        // second case is the first's host code on more workgroups).
        if (sanitizers_pass() && &c == &cases[1]) continue;
        std::vector<VmafPicture> ref, dist;
        textured_frames(c.fmt, c.bpc, c.w, c.h, c.frames, c.w * 3 + c.h + c.bpc, true, &ref, &dist);
        for (const Set &set : sets) {
            INFO("fmt " << c.fmt << " " << c.bpc << "-bit " << c.w << "x" << c.h << " set " << (&set - sets));
            std::vector<std::string> names;
            const std::vector<MapSink> together = run_gpu_together(st, ref, dist, set.configs, &names);
            CHECK(names == set.names);
            for (size_t k = 0; k < set.configs.size(); k++) {
                INFO("configuration " << k);
                const Config &cf = set.configs[k];
                const FeatureOptions opts = options(cf.ms, cf.opts);
                const MapSink alone = run_gpu(st, cf.ms, ref, dist, opts);
                if (cf.ms && !ms_fits(c.w, c.h)) {
                    CHECK(together[k].scores.empty());
                    CHECK(alone.scores.empty());
                    continue;
                }
                CHECK(!together[k].scores.empty());
                require_identical(together[k], alone);
                compare(together[k], run_cpu(cf.ms, ref, dist, opts), kVsCpu);
            }
        }
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(st);
}

TEST_CASE("float_ssim downscaling and MS-SSIM at odd sizes on the GPU match libvmaf", "[ssim][vulkan]")
{
    vk::State &st = shared_state();
    for (const RefScore &r : kLibvmafScores) {
        // The sanitizers' pass: 1080p is the smaller sizes' host code on more
        // workgroups (the 2160p case below has tiles enough for several a workgroup).
        if (sanitizers_pass() && r.w == 1920) continue;
        INFO((r.ms ? "float_ms_ssim " : "float_ssim ") << r.w << "x" << r.h << " scale " << r.scale);
        std::vector<VmafPicture> ref = {textured(r.w, r.h, 1, 0)}, dis = {textured(r.w, r.h, 2, 12)};
        Dict d = {{"enable_lcs", "true"}};
        if (r.scale) d.push_back({"scale", std::to_string(r.scale)});
        const MapSink s = run_gpu(st, r.ms, ref, dis, options(r.ms, d));
        double v = 0, l = 0, sv = 0;
        REQUIRE(s.get(r.ms ? "float_ms_ssim" : "float_ssim", 0, &v) == 0);
        REQUIRE(s.get(r.ms ? "float_ms_ssim_l_scale4" : "float_ssim_l", 0, &l) == 0);
        REQUIRE(s.get(r.ms ? "float_ms_ssim_s_scale0" : "float_ssim_s", 0, &sv) == 0);
        std::printf("libvmaf %-14s %ux%u scale %d: |diff| %g %g %g\n", r.ms ? "float_ms_ssim" : "float_ssim", r.w,
                    r.h, r.scale, std::fabs(v - r.score), std::fabs(l - r.l), std::fabs(sv - r.s));
        CHECK(std::fabs(v - r.score) <= 1e-6);
        CHECK(std::fabs(l - r.l) <= 1e-6);
        CHECK(std::fabs(sv - r.s) <= 1e-6);
        // And against the CPU extractor, at full size too for float_ssim.
        std::vector<Dict> sets = {d};
        if (!r.ms && r.w == 1920) sets.push_back({{"scale", "1"}, {"enable_lcs", "true"}});
        for (const Dict &o : sets) {
            const auto opts = options(r.ms, o);
            const auto diffs = compare(run_gpu(st, r.ms, ref, dis, opts), run_cpu(r.ms, ref, dis, opts), kVsCpu);
            std::printf("  vs CPU (%zu options): max |diff| %g\n", o.size(), max_of(diffs));
        }
        unref_all(ref);
        unref_all(dis);
    }
    check_clean(st);
}

TEST_CASE("float_ssim and float_ms_ssim on the GPU at 2160p: several tiles per workgroup", "[ssim][vulkan]")
{
    // From about 2500 tiles on, ssim_vk.cpp's terms_job gives each workgroup two
    // or more: 2160p at full size and MS-SSIM's scale 0 do.
    vk::State &st = shared_state();
    std::vector<VmafPicture> ref = {textured(3840, 2160, 1, 0)}, dis = {textured(3840, 2160, 2, 12)};
    for (const bool ms : {false, true}) {
        INFO((ms ? "float_ms_ssim" : "float_ssim"));
        const auto opts = options(ms, ms ? Dict{{"enable_lcs", "true"}} : Dict{{"scale", "1"}, {"enable_lcs", "true"}});
        const auto diffs = compare(run_gpu(st, ms, ref, dis, opts), run_cpu(ms, ref, dis, opts), kVsCpu);
        std::printf("2160p %-14s %2zu outputs: max |diff| vs CPU %g\n", ms ? "float_ms_ssim" : "float_ssim",
                    diffs.size(), max_of(diffs));
    }
    unref_all(ref);
    unref_all(dis);
    check_clean(st);
}

TEST_CASE("float_ssim and float_ms_ssim on the GPU through the C API with the aom_ctc options", "[ssim][vulkan][shared]")
{
    vk::State &st = shared_state();
    for (const std::string pair : {"rocket_320x240_10bit_crf30", "astronaut_320x240_422_crf33"}) {
        INFO(pair);
        VmafConfiguration cfg{};
        cfg.log_level = VMAF_LOG_LEVEL_ERROR;
        VmafContext *vmaf = nullptr;
        REQUIRE(vmaf_init(&vmaf, cfg) == 0);
        REQUIRE(context_import_vulkan_state(vmaf, &st) == 0);
        for (const auto &[name, opts] : {std::pair<const char *, Dict>{"float_ssim", {{"scale", "1"}, {"enable_db", "true"}, {"clip_db", "true"}}},
                                         {"float_ms_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}}}) {
            VmafFeatureDictionary *d = nullptr;
            for (const auto &[k, v] : opts) REQUIRE(vmaf_feature_dictionary_set(&d, k.c_str(), v.c_str()) == 0);
            REQUIRE(vmaf_use_feature(vmaf, name, d) == 0);
        }
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.aom_ctc_v7.0.json");
        const size_t frames = ref.size();
        const uint64_t before = st.submissions();
        for (size_t i = 0; i < frames; i++) REQUIRE(vmaf_read_pictures(vmaf, &ref[i], &dist[i], unsigned(i)) == 0);
        REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
        // Both ran on the GPU: one submission per frame, one instance for both
        // (float_ssim at full size is float_ms_ssim's first scale).
        CHECK(st.submissions() - before == frames);
        REQUIRE(vmaf->ctx.vulkan_engine());
        const auto instances = vmaf->ctx.vulkan_engine()->feature_names();
        CHECK(std::vector<std::string>(instances.begin(), instances.end()) ==
              std::vector<std::string>{"float_ssim+float_ms_ssim"});
        for (const char *name : {"float_ssim", "float_ms_ssim"})
            for (size_t i = 0; i < frames; i++) {
                double v = -1;
                REQUIRE(vmaf_feature_score_at_index(vmaf, name, &v, unsigned(i)) == 0);
                CHECK(std::fabs(v - expected.frames[i].at(name)) <= 1e-4);
            }
        REQUIRE(vmaf_close(vmaf) == 0);
    }
    check_clean(st);
}

TEST_CASE("float_ssim and float_ms_ssim stay on the CPU of a device without shaderFloat64", "[ssim][vulkan]")
{
    // The same device, adopted by a second state that is told shaderFloat64 is
    // not enabled: both features decline, and the context runs the CPU
    // extractors beside it with the CPU's scores.
    auto own = validated_state();
    vk::FeatureChain no_float64;
    std::unique_ptr<vk::State> st = adopt_without_float64(*own, &no_float64);
    std::vector<VmafPicture> ref, dist;
    textured_frames(VMAF_PIX_FMT_YUV420P, 10, 180, 178, 2, 3, true, &ref, &dist);
    const FrameFormat fmt = format_of(ref[0]);
    for (const bool ms : {false, true}) {
        INFO((ms ? "float_ms_ssim" : "float_ssim"));
        CHECK(!vk::Engine::supports(*st, fmt, info(ms), options(ms)));
        CHECK(vk::Engine::supports(*own, fmt, info(ms), options(ms)));
        const MapSink want = run_cpu(ms, ref, dist, options(ms));
        VmafConfiguration cfg{};
        cfg.log_level = VMAF_LOG_LEVEL_ERROR;
        VmafContext *vmaf = nullptr;
        REQUIRE(vmaf_init(&vmaf, cfg) == 0);
        REQUIRE(context_import_vulkan_state(vmaf, st.get()) == 0);
        REQUIRE(vmaf_use_feature(vmaf, info(ms).name, nullptr) == 0);
        for (size_t i = 0; i < ref.size(); i++) {
            VmafPicture r, d;
            picture_ref(&r, &ref[i]);
            picture_ref(&d, &dist[i]);
            REQUIRE(vmaf_read_pictures(vmaf, &r, &d, unsigned(i)) == 0);
        }
        REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
        CHECK(st->submissions() == 0);  // nothing ran on the GPU
        for (size_t i = 0; i < ref.size(); i++) {
            double v = -1;
            REQUIRE(vmaf_feature_score_at_index(vmaf, info(ms).name, &v, unsigned(i)) == 0);
            CHECK(v == want.scores.at(info(ms).name).at(unsigned(i)));
        }
        REQUIRE(vmaf_close(vmaf) == 0);
    }
    unref_all(ref);
    unref_all(dist);
    st.reset();
    check_clean(*own);
}

TEST_CASE("float_ssim and float_ms_ssim on the GPU refuse or skip what the CPU does", "[ssim][vulkan]")
{
    vk::State &st = shared_state();
    // 33x33 downscaled by 3 is 12x12 (scores); 40x40 by 4 is 10x10 and 10x10 is below
    // the window (refused), as on the CPU.
    for (const auto &[w, factor, ok] : {std::tuple{33u, 3, true}, {40u, 4, false}, {10u, 1, false}}) {
        INFO(w << " scale " << factor);
        const FrameFormat fmt{VMAF_PIX_FMT_YUV420P, 8, w, w};
        const auto opts = options(false, {{"scale", std::to_string(factor)}});
        std::unique_ptr<vk::Engine> engine;
        CHECK((vk::Engine::create(&st, fmt, {{&kFloatSsimExtractor, opts}}, &engine) == 0) == ok);
        CHECK((kFloatSsimExtractor.create(opts)->init(fmt) == 0) == ok);
    }
    // MS-SSIM below 176 on a side: frames pass, no scores (the CPU's behaviour).
    std::vector<VmafPicture> ref, dist;
    textured_frames(VMAF_PIX_FMT_YUV420P, 8, 175, 300, 2, 7, true, &ref, &dist);
    const MapSink s = run_gpu(st, true, ref, dist, options(true));
    CHECK(s.scores.empty());
    CHECK(run_cpu(true, ref, dist, options(true)).scores.empty());
    unref_all(ref);
    unref_all(dist);
    check_clean(st);
}
