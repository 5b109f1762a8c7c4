// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer VIF against Netflix libvmaf's output on every golden pair (default
// and vif_enhn_gain_limit=1), plus closed forms, bit-depth invariance, a
// plain 64-bit restatement of the fixed-point definition for full-range
// 16-bit input, and option validation.
#include <catch2/catch.hpp>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <thread>

#include "feature/registry.h"
#include "feature/vif/vif.h"
#include "feature/vif/vif_tables.h"
#include "golden.h"
#include "options.h"
#include "pictures.h"
#include "sink.h"
#include "libvmaf/libvmaf.h"
#include "picture/picture.h"
#include "run.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// Runs a fresh instance over every frame pair and returns its sink.
MapSink run(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dis, const Dict &opts = {},
            vif::Kernels which = vif::Kernels::Best)
{
    REQUIRE(!ref.empty());
    REQUIRE(ref.size() == dis.size());
    auto ex = vif::create_cpu(options_for(kVifExtractor, opts), which);
    REQUIRE(ex);
    REQUIRE(ex->init(format_of(ref[0])) == 0);
    MapSink sink;
    for (unsigned i = 0; i < ref.size(); i++) REQUIRE(ex->extract(ref[i], dis[i], i, sink) == 0);
    return sink;
}

const char *const kScaleNames[4] = {
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score"};

std::array<double, 4> scales_at(const MapSink &s, unsigned i)
{
    std::array<double, 4> v{};
    for (int k = 0; k < 4; k++) REQUIRE(s.get(kScaleNames[k], i, &v[k]) == 0);
    return v;
}

// ---------------------------------------------------------------------------
// The fixed-point definition restated with plain 64-bit sums, one pixel at a
// time, on mirrored whole planes: slow, but shares no code or arithmetic
// trick with the extractor.
struct RefPlane {
    unsigned w, h;
    std::vector<uint64_t> v;
    uint64_t at(int x, int y) const
    {
        auto m = [](int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; };
        return v[size_t(m(y, int(h))) * w + size_t(m(x, int(w)))];
    }
};

RefPlane ref_plane(const VmafPicture &p)
{
    RefPlane r{p.w[0], p.h[0], {}};
    for (unsigned y = 0; y < r.h; y++)
        for (unsigned x = 0; x < r.w; x++) r.v.push_back(sample(p, x, y));
    return r;
}

// Blur (vertical then horizontal, with rounding shifts) and keep even samples.
RefPlane ref_halve(const RefPlane &in, int scale, unsigned bits)
{
    const int fw = vif::kFilterWidth[scale];
    const uint16_t *f = vif::kFilter[scale];
    RefPlane vert{in.w, in.h, std::vector<uint64_t>(size_t(in.w) * in.h)};
    for (int y = 0; y < int(in.h); y++)
        for (int x = 0; x < int(in.w); x++) {
            uint64_t a = 0;
            for (int k = 0; k < fw; k++) a += f[k] * in.at(x, y - fw / 2 + k);
            vert.v[size_t(y) * in.w + x] = (a + (uint64_t(1) << (bits - 1))) >> bits;
        }
    RefPlane out{in.w / 2, in.h / 2, {}};
    for (int y = 0; y < int(out.h); y++)
        for (int x = 0; x < int(out.w); x++) {
            uint64_t a = 0;
            for (int k = 0; k < fw; k++) a += f[k] * vert.at(2 * x - fw / 2 + k, 2 * y);
            out.v.push_back((a + 32768) >> 16);
        }
    return out;
}

int64_t ref_log2(uint64_t v)
{
    int k = 0;
    while ((v >> k) >= 65536) k++;
    const uint32_t m = uint32_t(v >> k);
    return int64_t(std::lround(double(float(std::log2(double(m)))) * 2048.0)) + 2048 * k;
}

double ref_scale(const RefPlane &r, const RefPlane &d, int scale, unsigned bits, double egl)
{
    const int fw = vif::kFilterWidth[scale];
    const uint16_t *f = vif::kFilter[scale];
    const unsigned sq_shift = 2 * (bits - 8);
    auto rnd = [](uint64_t a, unsigned s) { return s ? (a + (uint64_t(1) << (s - 1))) >> s : a; };
    const size_t n = size_t(r.w) * r.h;
    std::vector<uint64_t> mu1(n), mu2(n), xx(n), yy(n), xy(n);
    for (int y = 0; y < int(r.h); y++)
        for (int x = 0; x < int(r.w); x++) {
            uint64_t a1 = 0, a2 = 0, b1 = 0, b2 = 0, b3 = 0;
            for (int k = 0; k < fw; k++) {
                const uint64_t p = r.at(x, y - fw / 2 + k), q = d.at(x, y - fw / 2 + k);
                a1 += f[k] * p;
                a2 += f[k] * q;
                b1 += f[k] * p * p;
                b2 += f[k] * q * q;
                b3 += f[k] * p * q;
            }
            const size_t i = size_t(y) * r.w + x;
            mu1[i] = rnd(a1, bits);
            mu2[i] = rnd(a2, bits);
            xx[i] = rnd(b1, sq_shift);
            yy[i] = rnd(b2, sq_shift);
            xy[i] = rnd(b3, sq_shift);
        }
    auto plane = [&](std::vector<uint64_t> &v) { return RefPlane{r.w, r.h, v}; };
    const RefPlane M1 = plane(mu1), M2 = plane(mu2), XX = plane(xx), YY = plane(yy), XY = plane(xy);
    int64_t num_log = 0, den_log = 0, num_lin = 0, den_lin = 0;
    for (int y = 0; y < int(r.h); y++)
        for (int x = 0; x < int(r.w); x++) {
            uint64_t m1 = 0, m2 = 0, sxx = 0, syy = 0, sxy = 0;
            for (int k = 0; k < fw; k++) {
                const int xi = x - fw / 2 + k;
                m1 += f[k] * M1.at(xi, y);
                m2 += f[k] * M2.at(xi, y);
                sxx += f[k] * XX.at(xi, y);
                syy += f[k] * YY.at(xi, y);
                sxy += f[k] * XY.at(xi, y);
            }
            const int64_t s1 = int64_t(rnd(sxx, 16)) - int64_t(rnd(m1 * m1, 32));
            const int64_t s2 = std::max<int64_t>(int64_t(rnd(syy, 16)) - int64_t(rnd(m2 * m2, 32)), 0);
            const int64_t s12 = int64_t(rnd(sxy, 16)) - int64_t(rnd(m1 * m2, 32));
            REQUIRE(s1 < (int64_t(1) << 31));  // the 32-bit definition holds
            if (s1 < vif::kSigmaNsq) {
                num_lin += s2;
                den_lin++;
                continue;
            }
            den_log += ref_log2(uint64_t(s1 + vif::kSigmaNsq)) - 17 * 2048;
            if (s12 > 0 && s2 > 0) {
                double g = double(s12) / (double(s1) + 65536 * 1.0e-10);
                const int64_t sv = std::max<int64_t>(int64_t(double(s2) - g * double(s12)), 0);
                g = std::min(g, egl);
                const int64_t n1 = sv + vif::kSigmaNsq;
                const int64_t n2 = int64_t(g * g * double(s1)) + n1;
                num_log += ref_log2(uint64_t(n2)) - ref_log2(uint64_t(n1));
            }
        }
    const float num = float(double(num_log) / 2048.0 + (double(den_lin) - (double(num_lin) / 16384.0) / 65025.0));
    const float den = float(double(den_log) / 2048.0 + double(den_lin));
    return double(num / den);
}

std::array<double, 4> ref_vif(const VmafPicture &ref, const VmafPicture &dis, double egl = 100.0)
{
    RefPlane r = ref_plane(ref), d = ref_plane(dis);
    std::array<double, 4> out{};
    for (int s = 0; s < 4; s++) {
        const unsigned bits = s == 0 ? ref.bpc : 16;
        if (s > 0) {
            const unsigned prev_bits = s == 1 ? ref.bpc : 16;
            r = ref_halve(r, s, prev_bits);
            d = ref_halve(d, s, prev_bits);
        }
        out[s] = ref_scale(r, d, s, bits, egl);
    }
    return out;
}

}  // namespace

TEST_CASE("vif matches libvmaf on every golden pair", "[vif][golden]")
{
    for (const auto &pair : golden_pairs()) {
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
        REQUIRE(expected.frames.size() == ref.size());
        const MapSink got = run(ref, dis);
        for (int s = 0; s < 4; s++) {
            const std::string name = "integer_vif_scale" + std::to_string(s);
            double max_diff = 0;
            for (unsigned i = 0; i < ref.size(); i++)
                max_diff = std::max(max_diff, std::fabs(scales_at(got, i)[s] - expected.frames[i].at(name)));
            INFO(pair << " " << name << " max |diff| " << max_diff);
            CHECK(max_diff <= 1e-4);
            std::printf("%-32s %-24s max|diff| %.3g\n", pair.c_str(), name.c_str(), max_diff);
        }
        unref_all(ref);
        unref_all(dis);
    }
}

TEST_CASE("vif with vif_enhn_gain_limit=1 matches libvmaf's egl_1 outputs", "[vif][golden]")
{
    const FeatureOptions opts = options_for(kVifExtractor, {{"vif_enhn_gain_limit", "1.0"}});
    for (int s = 0; s < 4; s++)
        CHECK(feature_output_name(kScaleNames[s], opts) == "integer_vif_scale" + std::to_string(s) + "_egl_1");

    for (const auto &pair : golden_pairs()) {
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.vmaf_v0.6.1neg.json");
        REQUIRE(expected.frames.size() == ref.size());
        const MapSink got = run(ref, dis, {{"vif_enhn_gain_limit", "1.0"}});
        for (int s = 0; s < 4; s++) {
            const std::string name = "integer_vif_scale" + std::to_string(s) + "_egl_1";
            double max_diff = 0;
            for (unsigned i = 0; i < ref.size(); i++)
                max_diff = std::max(max_diff, std::fabs(scales_at(got, i)[s] - expected.frames[i].at(name)));
            INFO(pair << " " << name << " max |diff| " << max_diff);
            CHECK(max_diff <= 1e-4);
            std::printf("%-32s %-24s max|diff| %.3g\n", pair.c_str(), name.c_str(), max_diff);
        }
        unref_all(ref);
        unref_all(dis);
    }
}

TEST_CASE("vif through the public API: output names, options and threads", "[vif][golden]")
{
    // The context stores libvmaf's output names: aliases, "_egl_1" suffixes
    // and the debug features; frame threading must not change a score.
    const std::string pair = "chelsea_322x186_rescale";
    const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
    const auto neg = load_expected(data_dir() + "/" + pair + ".libvmaf.vmaf_v0.6.1neg.json");
    const std::vector<std::string> names = {"integer_vif_scale0", "integer_vif_scale3",
                                            "integer_vif_scale0_egl_1", "integer_vif_scale3_egl_1",
                                            "integer_vif", "integer_vif_num_scale2"};
    for (unsigned threads : {1u, 3u}) {
        const auto got = run_pair(pair, {{"vif", {{"debug", "true"}}}, {"vif", {{"vif_enhn_gain_limit", "1"}}}},
                                  names, threads);
        for (size_t i = 0; i < expected.frames.size(); i++) {
            CHECK(got.at("integer_vif_scale0")[i] == expected.frames[i].at("integer_vif_scale0"));
            CHECK(got.at("integer_vif_scale3")[i] == expected.frames[i].at("integer_vif_scale3"));
            CHECK(got.at("integer_vif_scale0_egl_1")[i] == neg.frames[i].at("integer_vif_scale0_egl_1"));
            CHECK(got.at("integer_vif_scale3_egl_1")[i] == neg.frames[i].at("integer_vif_scale3_egl_1"));
        }
    }
}

TEST_CASE("vif portable and dispatched kernels agree bit for bit", "[vif]")
{
    for (const char *pair : {"chelsea_322x186_rescale", "rocket_320x240_10bit_crf30"}) {
        auto ref = load_y4m(data_dir() + "/" + std::string(pair) + "_ref.y4m");
        auto dis = load_y4m(data_dir() + "/" + std::string(pair) + "_dis.y4m");
        const MapSink best = run(ref, dis, {{"debug", "true"}}, vif::Kernels::Best);
        const MapSink portable = run(ref, dis, {{"debug", "true"}}, vif::Kernels::Portable);
        const MapSink avx2 = run(ref, dis, {{"debug", "true"}}, vif::Kernels::Avx2);
        CHECK(best.scores == portable.scores);
        CHECK(avx2.scores == portable.scores);
        unref_all(ref);
        unref_all(dis);
    }
}

TEST_CASE("vif of identical pictures is one", "[vif]")
{
    // Flat pictures have no variance anywhere: every pixel takes the
    // non-log branch with sigma2 = 0, so num == den exactly.
    for (unsigned bpc : {8u, 10u, 12u, 16u}) {
        std::vector<VmafPicture> a, b;
        a.push_back(make_picture(bpc, 64, 48, [&](unsigned, unsigned) { return 3u << (bpc - 4); }));
        b.push_back(make_picture(bpc, 64, 48, [&](unsigned, unsigned) { return 3u << (bpc - 4); }));
        const auto v = scales_at(run(a, b), 0);
        for (int s = 0; s < 4; s++) CHECK(v[s] == 1.0);
        unref_all(a);
        unref_all(b);
    }
    // Textured identical pictures: sigma12 == sigma1, and the gain's epsilon
    // leaves libvmaf's float ratio within a few ulps of one.
    auto ref = load_y4m(data_dir() + "/coffee_320x240_crf28_ref.y4m");
    const MapSink self = run(ref, ref);
    for (unsigned i = 0; i < ref.size(); i++)
        for (double v : scales_at(self, i)) CHECK(std::fabs(v - 1.0) <= 2e-6);
    unref_all(ref);
}

TEST_CASE("vif is invariant to widening 8-bit samples to 10, 12 and 16 bits", "[vif]")
{
    // The scale-0 shifts normalise to 8-bit units exactly: (x << k) at bpc
    // 8 + k rounds to the same means and moments as x at 8 bits, so every
    // score must be identical, and equal to libvmaf's 8-bit numbers.
    const std::string pair = "chelsea_322x186_rescale";
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    const MapSink base = run(ref, dis);
    for (unsigned bpc : {10u, 12u, 16u}) {
        auto wr = widen(ref, bpc), wd = widen(dis, bpc);
        const MapSink got = run(wr, wd);
        for (unsigned i = 0; i < ref.size(); i++) CHECK(scales_at(got, i) == scales_at(base, i));
        unref_all(wr);
        unref_all(wd);
    }
    unref_all(ref);
    unref_all(dis);
}

TEST_CASE("vif on full-range 16-bit and 12-bit noise matches the 64-bit definition", "[vif]")
{
    // Full-swing noise pushes every 32-bit intermediate to its limit; odd
    // sizes exercise the mirrors at every scale. Every build of the kernels
    // the processor can run is checked.
    struct Case { unsigned bpc, w, h; double egl; };
    // The wider ones give the vector kernels whole blocks and a tail at scale 0.
    for (const Case c : {Case{16, 67, 45, 100.0}, Case{16, 40, 33, 1.0}, Case{12, 53, 38, 100.0},
                         Case{8, 17, 16, 100.0}, Case{8, 133, 70, 100.0}, Case{10, 101, 36, 1.0}}) {
        std::mt19937 rng(c.bpc * 1000 + c.w);
        const unsigned max = (1u << c.bpc) - 1;
        std::uniform_int_distribution<unsigned> any(0, max), noise(0, max / 8);
        std::vector<VmafPicture> r, d;
        r.push_back(make_picture(c.bpc, c.w, c.h, [&](unsigned x, unsigned) {
            return (x & 4) ? any(rng) : (x & 1) * max;  // noise and full-swing stripes
        }));
        d.push_back(make_picture(c.bpc, c.w, c.h, [&](unsigned x, unsigned y) {
            const unsigned s = sample(r[0], x, y), n = noise(rng);
            return s > max - n ? s - n : s + n;
        }));
        const auto expected = ref_vif(r[0], d[0], c.egl);
        for (const vif::Kernels which : {vif::Kernels::Best, vif::Kernels::Portable, vif::Kernels::Avx2}) {
            const auto got =
                scales_at(run(r, d, {{"vif_enhn_gain_limit", std::to_string(c.egl)}}, which), 0);
            INFO("bpc " << c.bpc << " " << c.w << "x" << c.h << " egl " << c.egl << " kernels " << int(which));
            for (int s = 0; s < 4; s++) {
                CHECK(got[s] == expected[s]);
                CHECK(got[s] > 0.0);
                CHECK(got[s] < 1.0);
            }
        }
        unref_all(r);
        unref_all(d);
    }
}

TEST_CASE("vif debug outputs and vif_skip_scale0", "[vif]")
{
    const std::string pair = "astronaut_176x144_crf35";
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    const MapSink plain = run(ref, dis);
    const MapSink dbg = run(ref, dis, {{"debug", "true"}});
    const MapSink skip = run(ref, dis, {{"debug", "true"}, {"vif_skip_scale0", "true"}});
    for (unsigned i = 0; i < ref.size(); i++) {
        const auto v = scales_at(plain, i);
        CHECK(scales_at(dbg, i) == v);
        double num = 0, den = 0;
        for (int s = 0; s < 4; s++) {
            double n = 0, d = 0;
            REQUIRE(dbg.get(("integer_vif_num_scale" + std::to_string(s)).c_str(), i, &n) == 0);
            REQUIRE(dbg.get(("integer_vif_den_scale" + std::to_string(s)).c_str(), i, &d) == 0);
            CHECK(double(float(n) / float(d)) == v[s]);  // libvmaf's float ratio
            num += n;
            den += d;
        }
        double all = 0;
        REQUIRE(dbg.get("integer_vif", i, &all) == 0);
        CHECK(all == num / den);

        const auto sk = scales_at(skip, i);
        CHECK(sk[0] == 0.0);
        for (int s = 1; s < 4; s++) CHECK(sk[s] == v[s]);
        double d0 = 0;
        REQUIRE(skip.get("integer_vif_den_scale0", i, &d0) == 0);
        CHECK(d0 == -1.0);
    }
    CHECK(feature_output_name(kScaleNames[1], options_for(kVifExtractor, {{"vif_skip_scale0", "true"}})) ==
          "integer_vif_scale1_ssclz");
    unref_all(ref);
    unref_all(dis);
}

TEST_CASE("vif instances run concurrently", "[vif][threads]")
{
    auto ref = load_y4m(data_dir() + "/coffee_320x240_crf28_ref.y4m");
    auto dis = load_y4m(data_dir() + "/coffee_320x240_crf28_dis.y4m");
    const MapSink serial = run(ref, dis);
    // No Catch assertion on the workers (it is not thread-safe): instances are
    // made here, the threads only extract.
    auto ea = vif::create_cpu(options_for(kVifExtractor), vif::Kernels::Best);
    auto eb = vif::create_cpu(options_for(kVifExtractor), vif::Kernels::Best);
    REQUIRE(ea->init(format_of(ref[0])) == 0);
    REQUIRE(eb->init(format_of(ref[0])) == 0);
    MapSink a, b;
    int err_a = 0, err_b = 0;
    auto work = [&](Extractor &e, MapSink &sink, int &err) {
        for (unsigned i = 0; i < ref.size() && !err; i++) err = e.extract(ref[i], dis[i], i, sink);
    };
    std::thread ta([&] { work(*ea, a, err_a); });
    std::thread tb([&] { work(*eb, b, err_b); });
    ta.join();
    tb.join();
    CHECK(err_a == 0);
    CHECK(err_b == 0);
    CHECK(a.scores == serial.scores);
    CHECK(b.scores == serial.scores);
    unref_all(ref);
    unref_all(dis);
}

TEST_CASE("vif options: ranges, unknown keys and frame size", "[vif]")
{
    FeatureOptions o;
    std::string err;
    CHECK(FeatureOptions::parse(kVifExtractor.options, {{"vif_enhn_gain_limit", "0.5"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kVifExtractor.options, {{"vif_enhn_gain_limit", "100.5"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kVifExtractor.options, {{"vif_enhn_gain_limit", "abc"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kVifExtractor.options, {{"egl", "1.0"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kVifExtractor.options, {{"vif_enhn_gain_limit", "1.0"}}, &o, &err) == 0);
    CHECK(FeatureOptions::parse(kVifExtractor.options, {{"vif_enhn_gain_limit", "100"}}, &o, &err) == 0);
    CHECK(o.name_suffix().empty());  // the default value tags nothing

    auto ex = kVifExtractor.create(options_for(kVifExtractor));
    CHECK(ex->init({VMAF_PIX_FMT_YUV420P, 8, 15, 64}) == -EINVAL);
    CHECK(ex->init({VMAF_PIX_FMT_YUV420P, 8, 64, 15}) == -EINVAL);
    CHECK(ex->init({VMAF_PIX_FMT_YUV420P, 8, 16, 16}) == 0);

    // Through the public API too.
    VmafContext *vmaf = nullptr;
    VmafConfiguration cfg{};
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    VmafFeatureDictionary *d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "vif_enhn_gain_limit", "0.99") == 0);
    CHECK(vmaf_use_feature(vmaf, "vif", d) == -EINVAL);
    vmaf_close(vmaf);
}
