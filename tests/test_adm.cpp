// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer ADM against Netflix libvmaf's output on every golden pair (default
// and adm_enhn_gain_limit=1), plus closed forms, bit-depth invariance, kernel
// dispatch, the public API's output names, and option validation.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "feature/adm/adm.h"
#include "feature/adm/adm_csf.h"
#include "feature/registry.h"
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
            adm::Kernels which = adm::Kernels::Best)
{
    REQUIRE(!ref.empty());
    REQUIRE(ref.size() == dis.size());
    auto ex = adm::create_cpu(options_for(kAdmExtractor, opts), which);
    REQUIRE(ex);
    REQUIRE(ex->init(format_of(ref[0])) == 0);
    MapSink sink;
    for (unsigned i = 0; i < ref.size(); i++) REQUIRE(ex->extract(ref[i], dis[i], i, sink) == 0);
    return sink;
}

// The provided names and the output names libvmaf writes for them.
struct Output { const char *provided, *name; };
constexpr Output kOutputs[] = {
    {"VMAF_integer_feature_adm2_score", "integer_adm2"},
    {"VMAF_integer_feature_adm_scale0_score", "integer_adm_scale0"},
    {"VMAF_integer_feature_adm_scale1_score", "integer_adm_scale1"},
    {"VMAF_integer_feature_adm_scale2_score", "integer_adm_scale2"},
    {"VMAF_integer_feature_adm_scale3_score", "integer_adm_scale3"},
    {"VMAF_integer_feature_aim_score", "integer_aim"},
    {"VMAF_integer_feature_adm3_score", "integer_adm3"},
};

void compare_golden(const std::string &expected_suffix, const Dict &opts, const std::string &name_suffix)
{
    for (const auto &pair : golden_pairs()) {
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const auto expected = load_expected(data_dir() + "/" + pair + expected_suffix);
        REQUIRE(expected.frames.size() == ref.size());
        const MapSink got = run(ref, dis, opts);
        for (const Output &o : kOutputs) {
            const std::string name = o.name + name_suffix;
            double max_diff = 0;
            for (unsigned i = 0; i < ref.size(); i++)
                max_diff = std::max(max_diff, std::fabs(got.at(o.provided, i) - expected.frames[i].at(name)));
            INFO(pair << " " << name << " max |diff| " << max_diff);
            CHECK(max_diff <= 1e-4);
            std::printf("%-32s %-26s max|diff| %.3g\n", pair.c_str(), name.c_str(), max_diff);
        }
        unref_all(ref);
        unref_all(dis);
    }
}

}  // namespace

TEST_CASE("adm matches libvmaf on every golden pair", "[adm][golden]")
{
    compare_golden(".libvmaf.json", {}, "");
}

TEST_CASE("adm with adm_enhn_gain_limit=1 matches libvmaf's egl_1 outputs", "[adm][golden]")
{
    const FeatureOptions opts = options_for(kAdmExtractor, {{"adm_enhn_gain_limit", "1.0"}});
    for (const Output &o : kOutputs) CHECK(feature_output_name(o.provided, opts) == std::string(o.name) + "_egl_1");
    compare_golden(".libvmaf.vmaf_v0.6.1neg.json", {{"adm_enhn_gain_limit", "1.0"}}, "_egl_1");
}

TEST_CASE("adm through the public API: output names, debug outputs and threads", "[adm][golden]")
{
    const std::string pair = "chelsea_322x186_rescale";
    const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
    const auto neg = load_expected(data_dir() + "/" + pair + ".libvmaf.vmaf_v0.6.1neg.json");
    const std::vector<std::string> names = {"integer_adm2", "integer_aim", "integer_adm_scale2",
                                            "integer_adm2_egl_1", "integer_adm3_egl_1", "integer_adm",
                                            "integer_adm_num", "integer_adm_den", "integer_adm_num_scale1",
                                            "integer_adm_den_scale1"};
    for (unsigned threads : {1u, 3u}) {
        const auto got = run_pair(pair, {{"adm", {{"debug", "true"}}}, {"adm", {{"adm_enhn_gain_limit", "1"}}}},
                                  names, threads);
        for (size_t i = 0; i < expected.frames.size(); i++) {
            CHECK(got.at("integer_adm2")[i] == expected.frames[i].at("integer_adm2"));
            CHECK(got.at("integer_aim")[i] == expected.frames[i].at("integer_aim"));
            CHECK(got.at("integer_adm_scale2")[i] == expected.frames[i].at("integer_adm_scale2"));
            CHECK(got.at("integer_adm2_egl_1")[i] == neg.frames[i].at("integer_adm2_egl_1"));
            CHECK(got.at("integer_adm3_egl_1")[i] == neg.frames[i].at("integer_adm3_egl_1"));
            // The debug outputs restate the same sums.
            CHECK(got.at("integer_adm")[i] == got.at("integer_adm2")[i]);
            CHECK(got.at("integer_adm_num")[i] / got.at("integer_adm_den")[i] == got.at("integer_adm2")[i]);
            CHECK(got.at("integer_adm_num_scale1")[i] / got.at("integer_adm_den_scale1")[i] ==
                  expected.frames[i].at("integer_adm_scale1"));
        }
    }
}

TEST_CASE("adm portable and dispatched kernels agree bit for bit", "[adm]")
{
    for (const char *pair : {"chelsea_322x186_rescale", "rocket_320x240_10bit_crf30", "mandel_176x144_noise"}) {
        auto ref = load_y4m(data_dir() + "/" + std::string(pair) + "_ref.y4m");
        auto dis = load_y4m(data_dir() + "/" + std::string(pair) + "_dis.y4m");
        const Dict opts = {{"debug", "true"}, {"adm_enhn_gain_limit", "1.5"}};
        const MapSink best = run(ref, dis, opts, adm::Kernels::Best);
        const MapSink portable = run(ref, dis, opts, adm::Kernels::Portable);
        CHECK(best.scores == portable.scores);
        unref_all(ref);
        unref_all(dis);
    }
}

TEST_CASE("adm of flat pictures is exactly one", "[adm]")
{
    // A constant picture has no detail at any scale: the reference energy and
    // the masked distortion both reduce to the noise floor, so num == den and
    // every scale is exactly 1, whatever the two levels are.
    for (unsigned bpc : {8u, 10u, 12u, 16u}) {
        std::vector<VmafPicture> a, b;
        a.push_back(make_picture(bpc, 64, 48, [&](unsigned, unsigned) { return 3u << (bpc - 4); }));
        b.push_back(make_picture(bpc, 64, 48, [&](unsigned, unsigned) { return 5u << (bpc - 4); }));
        const MapSink s = run(a, b);
        CHECK(s.at("VMAF_integer_feature_adm2_score", 0) == 1.0);
        CHECK(s.at("VMAF_integer_feature_aim_score", 0) == 0.0);
        CHECK(s.at("VMAF_integer_feature_adm3_score", 0) == 1.0);
        for (int k = 0; k < 4; k++)
            CHECK(s.at("VMAF_integer_feature_adm_scale" + std::to_string(k) + "_score", 0) == 1.0);
        unref_all(a);
        unref_all(b);
    }
}

TEST_CASE("adm of identical textured pictures is one", "[adm]")
{
    // Identical detail decouples into r == t, a == 0: no additive impairment
    // at all, and the masked signal is the reference energy up to the two
    // paths' fixed-point rounding (libvmaf: 1 + ~1e-5 at scale 0).
    auto ref = load_y4m(data_dir() + "/coffee_320x240_crf28_ref.y4m");
    const MapSink self = run(ref, ref);
    for (unsigned i = 0; i < ref.size(); i++) {
        CHECK(self.at("VMAF_integer_feature_aim_score", i) == 0.0);
        CHECK(std::fabs(self.at("VMAF_integer_feature_adm2_score", i) - 1.0) <= 1e-4);
        for (int k = 0; k < 4; k++)
            CHECK(std::fabs(self.at("VMAF_integer_feature_adm_scale" + std::to_string(k) + "_score", i) - 1.0) <=
                  1e-4);
    }
    unref_all(ref);
}

TEST_CASE("adm is invariant to widening 8-bit samples to 10, 12 and 16 bits", "[adm]")
{
    // Scale 0 drops bpc bits after centring on 2^(bpc - 1): (x << k) at
    // bpc 8 + k gives exactly the 8-bit bands, so the deep runs must
    // reproduce the 8-bit scores (and so libvmaf's) bit for bit. (Not at
    // 322 columns: there libvmaf's 8-bit and deep transforms treat the last
    // column differently, see adm_kernels.h.)
    for (const std::string pair : {"mandel_176x144_noise", "testsrc2_320x240_crf45"}) {
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const MapSink base = run(ref, dis, {{"debug", "true"}});
        for (unsigned bpc : {10u, 12u, 16u}) {
            auto wr = widen(ref, bpc), wd = widen(dis, bpc);
            INFO(pair << " at " << bpc << " bits");
            CHECK(run(wr, wd, {{"debug", "true"}}).scores == base.scores);
            // Identical deep pictures: AIM vanishes, adm2 is one.
            const MapSink self = run(wr, wr);
            CHECK(self.at("VMAF_integer_feature_aim_score", 0) == 0.0);
            CHECK(std::fabs(self.at("VMAF_integer_feature_adm2_score", 0) - 1.0) <= 1e-4);
            unref_all(wr);
            unref_all(wd);
        }
        unref_all(ref);
        unref_all(dis);
    }
}

TEST_CASE("adm on full-swing noise at odd sizes: deep input and dispatch agree", "[adm]")
{
    // Full-swing stripes and noise drive the 16-bit scale-0 bands and the
    // 32-bit sums of the coarser scales into their wrap-around regime (as in
    // libvmaf, even identical pictures then score slightly off one). The
    // 16-bit transform's sums pass 2^31 before centring; widening must still
    // reproduce the 8-bit scores exactly, and the portable and dispatched
    // kernels must wrap identically.
    for (unsigned w : {33u, 67u, 101u}) {
        const unsigned h = w == 33 ? 35 : w - 2;
        std::mt19937 rng(w);
        std::uniform_int_distribution<unsigned> any(0, 255), noise(0, 15);
        std::vector<VmafPicture> r, d;
        r.push_back(make_picture(8, w, h, [&](unsigned x, unsigned) { return (x & 4) ? any(rng) : (x & 1) * 255; }));
        d.push_back(make_picture(8, w, h, [&](unsigned x, unsigned y) {
            const unsigned s = sample(r[0], x, y), n = noise(rng);
            return s > 255 - n ? s - n : s + n;
        }));
        auto r16 = widen(r, 16), d16 = widen(d, 16);
        const Dict opts = {{"debug", "true"}};
        const MapSink s8 = run(r, d, opts);
        INFO(w << "x" << h);
        CHECK(run(r16, d16, opts).scores == s8.scores);
        CHECK(run(r16, d16, opts, adm::Kernels::Portable).scores == s8.scores);
        CHECK(run(r, d, opts, adm::Kernels::Portable).scores == s8.scores);
        for (const Output &o : kOutputs) CHECK(std::isfinite(s8.at(o.provided, 0)));
        unref_all(r);
        unref_all(d);
        unref_all(r16);
        unref_all(d16);
    }
}

TEST_CASE("adm options: skips, weights and the adm3 blend", "[adm]")
{
    auto ref = load_y4m(data_dir() + "/astronaut_176x144_crf35_ref.y4m");
    auto dis = load_y4m(data_dir() + "/astronaut_176x144_crf35_dis.y4m");
    const MapSink base = run(ref, dis, {{"debug", "true"}});
    // Skipping AIM leaves the DLM scores alone and zeroes AIM.
    const MapSink no_aim = run(ref, dis, {{"adm_skip_aim", "true"}, {"debug", "true"}});
    // Skipping scale 0 zeroes its score and drops its terms from adm2.
    const MapSink no_s0 = run(ref, dis, {{"adm_skip_scale0", "true"}, {"debug", "true"}});
    // adm3 = max(w adm2 + (1 - w)(1 - aim), min).
    const MapSink blend = run(ref, dis, {{"adm_dlm_weight", "0.8"}, {"adm_min_val", "0.99"}});
    for (unsigned i = 0; i < ref.size(); i++) {
        CHECK(no_aim.at("VMAF_integer_feature_aim_score", i) == 0.0);
        CHECK(no_aim.at("VMAF_integer_feature_adm2_score", i) == base.at("VMAF_integer_feature_adm2_score", i));
        CHECK(no_s0.at("VMAF_integer_feature_adm_scale0_score", i) == 0.0);
        CHECK(no_s0.at("VMAF_integer_feature_adm_scale3_score", i) ==
              base.at("VMAF_integer_feature_adm_scale3_score", i));
        double num = 0, den = 0;
        for (int k = 1; k < 4; k++) {
            num += base.at("integer_adm_num_scale" + std::to_string(k), i);
            den += base.at("integer_adm_den_scale" + std::to_string(k), i);
        }
        CHECK(no_s0.at("VMAF_integer_feature_adm2_score", i) == Approx(num / (den + float(1e-10))).epsilon(1e-12));
        const double adm2 = base.at("VMAF_integer_feature_adm2_score", i);
        const double aim = base.at("VMAF_integer_feature_aim_score", i);
        CHECK(blend.at("VMAF_integer_feature_adm3_score", i) == std::max(adm2 * 0.8 + (1 - aim) * (1 - 0.8), 0.99));
    }
    unref_all(ref);
    unref_all(dis);
}

TEST_CASE("adm CSF weights", "[adm]")
{
    // The Watson weights of the default set-up, bit for bit as libvmaf's
    // float code computes them (h/v and d per scale, Q32 above scale 0).
    const float real[4][2] = {{0x1.1cc774p-6f, 0x1.820d54p-8f},
                              {0x1.06050cp-5f, 0x1.d48d46p-7f},
                              {0x1.634f1p-5f, 0x1.8fb80cp-6f},
                              {0x1.762816p-5f, 0x1.008392p-5f}};
    const uint32_t q32[4][2] = {{0, 0}, {137373792, 61414028}, {186284160, 104783920}, {196165808, 134487184}};
    adm::Weights def{}, near{};
    REQUIRE(adm::make_weights({}, &def) == 0);
    for (int s = 0; s < 4; s++) {
        CHECK(def[s].real[0] == real[s][0]);
        CHECK(def[s].real[1] == real[s][0]);
        CHECK(def[s].real[2] == real[s][1]);
        if (s == 0) continue;
        CHECK(def[s].fixed[0] == q32[s][0]);
        CHECK(def[s].fixed[2] == q32[s][1]);
    }
    // Scale 0 uses libvmaf's hard-coded weights for exactly this set-up; any
    // other converts the float weights (36451.7 and 49414.7 here).
    CHECK(def[0].fixed[0] == 36453);
    CHECK(def[0].fixed[1] == 36453);
    CHECK(def[0].fixed[2] == 49417);
    adm::ViewSetup v;
    v.norm_view_dist = 3.0 + 1e-9;
    REQUIRE(adm::make_weights(v, &near) == 0);
    CHECK(near[0].fixed[0] == 36451);
    CHECK(near[0].fixed[2] == 49414);
    // The blended CSFs exist only for tabulated set-ups.
    v = {};
    v.mode = adm::CsfMode::BartenWatsonBlend;
    CHECK(adm::make_weights(v, &near) == 0);
    CHECK(near[2].real[2] == 0.023918f);
    v.ref_display_height = 1440;
    CHECK(adm::make_weights(v, &near) == -EINVAL);
    v.mode = adm::CsfMode::Barten;
    CHECK(adm::make_weights(v, &near) == 0);
    CHECK(near[0].real[0] > 0.0f);
}

TEST_CASE("adm rejects out-of-range options and unusable set-ups", "[adm]")
{
    VmafContext *vmaf = nullptr;
    VmafConfiguration cfg{};
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    for (auto [key, value] : {std::pair{"adm_enhn_gain_limit", "0.5"}, std::pair{"adm_enhn_gain_limit", "101"},
                              std::pair{"adm_csf_mode", "4"}, std::pair{"adm_norm_view_dist", "0.5"},
                              std::pair{"adm_ref_display_height", "0"}, std::pair{"adm_dlm_weight", "2"},
                              std::pair{"no_such_option", "1"}}) {
        VmafFeatureDictionary *d = nullptr;
        REQUIRE(vmaf_feature_dictionary_set(&d, key, value) == 0);
        INFO(key << "=" << value);
        CHECK(vmaf_use_feature(vmaf, "adm", d) == -EINVAL);
    }
    vmaf_close(vmaf);

    // In range but unusable: below 1080 lines at 3 heights, a blend without a
    // table, a picture too small for four scales.
    auto pic = [](unsigned w, unsigned h) {
        return std::vector<VmafPicture>{make_picture(8, w, h, [](unsigned x, unsigned y) { return (x * y) & 255; })};
    };
    const FrameFormat f64 = {VMAF_PIX_FMT_YUV400P, 8, 64, 64};
    CHECK(adm::create_cpu(options_for(kAdmExtractor, {{"adm_norm_view_dist", "2"}}), adm::Kernels::Best)->init(f64) == -EINVAL);
    CHECK(adm::create_cpu(options_for(kAdmExtractor, {{"adm_csf_mode", "2"}, {"adm_ref_display_height", "1200"}}),
                          adm::Kernels::Best)
              ->init(f64) == -EINVAL);
    CHECK(adm::create_cpu(options_for(kAdmExtractor), adm::Kernels::Best)->init({VMAF_PIX_FMT_YUV400P, 8, 32, 64}) ==
          -EINVAL);
    auto ok = pic(33, 33);
    CHECK(run(ok, ok).at("VMAF_integer_feature_aim_score", 0) == 0.0);
    unref_all(ok);
}
