// SPDX-License-Identifier: BSD-2-Clause-Patent
// Float ADM against Netflix libvmaf's output on every golden pair, plus the
// enhancement gain limit and other options, output names, closed forms,
// bit-depth invariance and size and option validation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "feature/float_adm/float_adm.h"
#include "feature/float_adm/float_adm_csf.h"
#include "feature/registry.h"
#include "golden.h"
#include "options.h"
#include "pictures.h"
#include "sink.h"
#include <nlohmann/json.hpp>
#include "libvmaf/libvmaf.h"
#include "picture/picture.h"
#include "run.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// A fresh instance over every frame pair.
MapSink run(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dis, const Dict &opts = {})
{
    REQUIRE(!ref.empty());
    REQUIRE(ref.size() == dis.size());
    auto ex = kFloatAdmExtractor.create(options_for(kFloatAdmExtractor, opts));
    REQUIRE(ex);
    REQUIRE(ex->init(format_of(ref[0])) == 0);
    MapSink sink;
    for (unsigned i = 0; i < ref.size(); i++) REQUIRE(ex->extract(ref[i], dis[i], i, sink) == 0);
    return sink;
}

const std::vector<std::string> kNames = {"adm2", "adm_scale0", "adm_scale1", "adm_scale2",
                                         "adm_scale3", "aim", "adm3"};

}  // namespace

TEST_CASE("float_adm matches libvmaf on every golden pair", "[float_adm][golden]")
{
    std::map<std::string, double> worst;
    size_t compared = 0;
    for (const auto &pair : golden_pairs()) {
        const auto got = run_pair(pair, {{"float_adm", {}}}, kNames);
        for (const char *file : {".libvmaf.json", ".libvmaf.more.json"}) {
            const auto expected = load_expected(data_dir() + "/" + pair + file).frames;
            REQUIRE(expected.size() == got.at("adm2").size());
            for (const auto &n : kNames) {
                if (!expected[0].count(n)) continue;
                double max_diff = 0;
                for (size_t i = 0; i < expected.size(); i++) {
                    const double want = expected[i].at(n);
                    REQUIRE(std::isfinite(want));
                    max_diff = std::max(max_diff, std::fabs(got.at(n)[i] - want));
                    compared++;
                }
                INFO(pair << file << " " << n << " max |diff| " << max_diff);
                CHECK(max_diff <= 1e-4);
                worst[n] = std::max(worst[n], max_diff);
                std::printf("%-32s %-20s %-12s max|diff| %.3g\n", pair.c_str(), file, n.c_str(), max_diff);
            }
        }
    }
    for (const auto &n : kNames) {
        REQUIRE(worst.count(n));
        std::printf("float_adm %-12s max|diff| over all pairs %.3g\n", n.c_str(), worst[n]);
    }
    // 10 frames x 7 names of 10 pairs in the .more files, and of the 7 pairs
    // whose default output includes them (the rest lack aim and adm3 or,
    // for the identical pair, float_adm altogether).
    CHECK(compared == 1190);
}

TEST_CASE("float_adm adm_enhn_gain_limit: output names and values", "[float_adm][golden]")
{
    const FeatureOptions opts = options_for(kFloatAdmExtractor, {{"adm_enhn_gain_limit", "1.0"}});
    CHECK(feature_output_name("VMAF_feature_adm2_score", opts) == "adm2_egl_1");
    CHECK(feature_output_name("VMAF_feature_aim_score", opts) == "aim_egl_1");
    CHECK(feature_output_name("VMAF_feature_adm_scale3_score", opts) == "adm_scale3_egl_1");
    CHECK(feature_output_name("VMAF_feature_adm2_score", options_for(kFloatAdmExtractor, {{"adm_enhn_gain_limit", "1.2"}})) ==
          "adm2_egl_1.2");

    // Both registrations side by side; without enhancement DLM can only lose.
    bool differs = false;
    for (const auto &pair : golden_pairs()) {
        const auto got = run_pair(pair, {{"float_adm", {}}, {"float_adm", {{"adm_enhn_gain_limit", "1"}}}},
                                  {"adm2", "adm2_egl_1", "aim", "aim_egl_1"});
        for (size_t i = 0; i < got.at("adm2").size(); i++) {
            CHECK(got.at("adm2_egl_1")[i] <= got.at("adm2")[i]);
            CHECK(got.at("aim_egl_1")[i] >= got.at("aim")[i]);
            if (got.at("adm2_egl_1")[i] < got.at("adm2")[i] - 1e-6) differs = true;
        }
        // Identical pictures: the ratios are 1 up to the approximate
        // reciprocal's error, which only the enhancement gain covers up.
        if (pair == "chelsea_176x144_identical")
            for (size_t i = 0; i < got.at("adm2").size(); i++) {
                CHECK(got.at("adm2")[i] == 1.0);
                CHECK(got.at("adm2_egl_1")[i] == Approx(1.0).margin(1e-6));
            }
    }
    CHECK(differs);
}

TEST_CASE("float_adm through the public API: names, debug outputs, threads and the adm3 blend",
          "[float_adm][golden]")
{
    const std::string pair = "chelsea_322x186_rescale";
    const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.more.json").frames;
    const std::vector<std::string> names = {"adm2",           "aim",           "adm3",          "adm_scale1",
                                            "adm",            "adm_num",       "adm_den",       "adm_num_scale1",
                                            "adm_den_scale1", "adm_scale2", "adm2_ssz",      "adm_scale0_ssz", "adm3_aah",
                                            "adm3_dlmw_0.25", "adm2_apn_2",    "adm_scale2_bcm_1"};
    std::map<std::string, std::vector<double>> first;
    for (unsigned threads : {1u, 3u}) {
        const auto got =
            run_pair(pair,
                     {{"float_adm", {{"debug", "true"}}},
                      {"float_adm", {{"adm_skip_scale0", "true"}}},
                      {"float_adm", {{"adm_adm3_apply_hm", "true"}}},
                      {"float_adm", {{"adm_dlm_weight", "0.25"}}},
                      {"float_adm", {{"adm_p_norm", "2"}}},
                      {"float_adm", {{"adm_bypass_cm", "1"}}}},
                     names, threads);
        for (size_t i = 0; i < expected.size(); i++) {
            const double adm2 = got.at("adm2")[i], aim = got.at("aim")[i];
            CHECK(std::fabs(adm2 - expected[i].at("adm2")) <= 1e-4);
            CHECK(got.at("adm3")[i] == std::max(adm2 * 0.5 + (1 - aim) * 0.5, 0.0));
            CHECK(got.at("adm3_aah")[i] == 2 * adm2 * aim / (adm2 + aim));
            CHECK(got.at("adm3_dlmw_0.25")[i] == adm2 * 0.25 + (1 - aim) * 0.75);
            // The debug outputs restate the same sums.
            CHECK(got.at("adm")[i] == adm2);
            CHECK(got.at("adm_num")[i] / got.at("adm_den")[i] == adm2);
            CHECK(got.at("adm_num_scale1")[i] / got.at("adm_den_scale1")[i] == got.at("adm_scale1")[i]);
            // Skipping scale 0 drops its terms and writes 0 for it.
            CHECK(got.at("adm_scale0_ssz")[i] == 0.0);
            CHECK(got.at("adm2_ssz")[i] != adm2);
            CHECK(got.at("adm2_apn_2")[i] != adm2);
            CHECK(std::isfinite(got.at("adm2_apn_2")[i]));
            CHECK(got.at("adm_scale2_bcm_1")[i] != got.at("adm_scale2")[i]);
        }
        if (first.empty()) first = got;
        else CHECK(first == got);
    }
}

TEST_CASE("float_adm of identical pictures is one and aim zero", "[float_adm]")
{
    auto flat = std::vector<VmafPicture>{make_picture(8, 64, 48, [](unsigned, unsigned) { return 77u; })};
    auto tex = std::vector<VmafPicture>{
        make_picture(8, 71, 53, [](unsigned x, unsigned y) { return (x * 7 + y * 13 + ((x * y) % 17) * 9) & 255; })};
    for (auto *pics : {&flat, &tex}) {
        const MapSink s = run(*pics, *pics, {{"debug", "true"}});
        CHECK(s.at("VMAF_feature_adm2_score", 0) == 1.0);
        CHECK(s.at("VMAF_feature_aim_score", 0) == 0.0);
        CHECK(s.at("VMAF_feature_adm3_score", 0) == 1.0);
        for (const char *n : {"VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score",
                              "VMAF_feature_adm_scale2_score", "VMAF_feature_adm_scale3_score"})
            CHECK(s.at(n, 0) == 1.0);
    }
    // A flat reference without a noise floor has no energy at all: DLM is 1.
    const MapSink z = run(flat, flat, {{"adm_noise_weight", "0"}});
    CHECK(z.at("VMAF_feature_adm2_score", 0) == 1.0);
    unref_all(flat);
    unref_all(tex);
}

TEST_CASE("float_adm is invariant to widening 8-bit samples to 10, 12 and 16 bits", "[float_adm]")
{
    auto ref = load_y4m(data_dir() + "/mandel_176x144_noise_ref.y4m");
    auto dis = load_y4m(data_dir() + "/mandel_176x144_noise_dis.y4m");
    for (size_t i = 3; i < ref.size(); i++) {  // three frames are enough
        vmaf_picture_unref(&ref[i]);
        vmaf_picture_unref(&dis[i]);
    }
    ref.resize(3);
    dis.resize(3);
    const MapSink base = run(ref, dis, {{"debug", "true"}});
    for (unsigned bpc : {10u, 12u, 16u}) {
        auto wr = widen(ref, bpc), wd = widen(dis, bpc);
        INFO(bpc << " bits");
        CHECK(run(wr, wd, {{"debug", "true"}}).scores == base.scores);
        unref_all(wr);
        unref_all(wd);
    }
    unref_all(ref);
    unref_all(dis);
}

TEST_CASE("float_adm CSF models and per-scale weights", "[float_adm]")
{
    float_adm::CsfSetup s;
    float w[3];
    // Watson at 1080 lines, 3 heights: the inverse quantisation steps.
    float_adm::csf_weights(s, 0, w);
    CHECK(w[0] == w[1]);
    CHECK(w[0] == Approx(1.0 / 56.7).epsilon(0.05));
    s.f1[2] = 0.5;
    s.f2[2] = 0.25;
    float_adm::csf_weights(s, 2, w);
    CHECK(w[0] == 0.5f);
    CHECK(w[2] == 0.25f);
    // The DLM paper's CSF at the finest scale: f = 28.27 cycles/degree.
    const double f = 3.0 * 1080 * M_PI / 180.0 / 2.0;
    CHECK(float_adm::native_csf(0, 3.0, 1080, 0) == Approx((0.31 + 0.69 * f) * std::exp(-0.29 * f)).epsilon(1e-5));
    CHECK(float_adm::native_csf(0, 3.0, 1080, 45) < float_adm::native_csf(0, 3.0, 1080, 0));

    auto ref = load_y4m(data_dir() + "/chelsea_322x186_rescale_ref.y4m");
    auto dis = load_y4m(data_dir() + "/chelsea_322x186_rescale_dis.y4m");
    for (size_t i = 2; i < ref.size(); i++) {  // two frames are enough
        vmaf_picture_unref(&ref[i]);
        vmaf_picture_unref(&dis[i]);
    }
    ref.resize(2);
    dis.resize(2);
    const double base = run(ref, dis).at("VMAF_feature_adm2_score", 1);
    for (const char *mode : {"1", "2"}) {
        const double v = run(ref, dis, {{"adm_csf_mode", mode}}).at("VMAF_feature_adm2_score", 1);
        INFO("csf mode " << mode);
        CHECK(std::isfinite(v));
        CHECK(v != base);
    }
    // Modes without a model of their own are Watson's.
    CHECK(run(ref, dis, {{"adm_csf_mode", "7"}}).at("VMAF_feature_adm2_score", 1) == base);
    CHECK(run(ref, dis, {{"adm_f1s1", "0.2"}}).at("VMAF_feature_adm2_score", 1) != base);
    CHECK(run(ref, dis, {{"adm_skip_aim_scale", "0"}}).at("VMAF_feature_aim_score", 1) !=
          run(ref, dis).at("VMAF_feature_aim_score", 1));
    unref_all(ref);
    unref_all(dis);
}

TEST_CASE("float_adm rejects out-of-range options and too small pictures", "[float_adm]")
{
    VmafContext *vmaf = nullptr;
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    for (auto [key, value] :
         {std::pair{"adm_enhn_gain_limit", "0.5"}, std::pair{"adm_enhn_gain_limit", "101"},
          std::pair{"adm_csf_mode", "10"}, std::pair{"adm_norm_view_dist", "0.5"},
          std::pair{"adm_ref_display_height", "0"}, std::pair{"adm_dlm_weight", "2"},
          std::pair{"adm_p_norm", "0.5"}, std::pair{"adm_skip_aim_scale", "-1"}, std::pair{"adm_f1s0", "-2"},
          std::pair{"adm_f2s3", "11"}, std::pair{"adm_bypass_cm", "2"}, std::pair{"adm_noise_weight", "-1"},
          std::pair{"adm_csf_scale", "51"}, std::pair{"adm_min_val", "1.5"}, std::pair{"no_such_option", "1"}}) {
        VmafFeatureDictionary *d = nullptr;
        REQUIRE(vmaf_feature_dictionary_set(&d, key, value) == 0);
        INFO(key << "=" << value);
        CHECK(vmaf_use_feature(vmaf, "float_adm", d) == -EINVAL);
    }
    vmaf_close(vmaf);

    auto ex = kFloatAdmExtractor.create(options_for(kFloatAdmExtractor));
    CHECK(ex->init({VMAF_PIX_FMT_YUV400P, 8, 16, 64}) == -EINVAL);
    CHECK(ex->init({VMAF_PIX_FMT_YUV400P, 8, 64, 16}) == -EINVAL);
    auto small = std::vector<VmafPicture>{
        make_picture(8, 17, 17, [](unsigned x, unsigned y) { return (x * 31 + y * 17) & 255; })};
    auto small_dis = std::vector<VmafPicture>{
        make_picture(8, 17, 17, [](unsigned x, unsigned y) { return (x * 29 + y * 19) & 255; })};
    const MapSink s = run(small, small_dis);
    CHECK(std::isfinite(s.at("VMAF_feature_adm2_score", 0)));
    unref_all(small);
    unref_all(small_dis);
}

TEST_CASE("float_adm's debug output adm is written without the option suffix, as libvmaf does", "[float_adm]")
{
    // libvmaf's name dictionary holds the provided names only, and "adm" is not
    // one of them (its list has "adm_scale0" there): it stays bare, while
    // adm_num, a provided name, takes the suffix.
    const auto got = run_pair("chelsea_322x186_rescale",
                              {{"float_adm", {{"debug", "true"}, {"adm_enhn_gain_limit", "1"}}}},
                              {"adm", "adm2_egl_1", "adm_num_egl_1", "adm_den_egl_1"});
    for (size_t i = 0; i < got.at("adm").size(); i++) {
        CHECK(got.at("adm")[i] == got.at("adm2_egl_1")[i]);
        CHECK(got.at("adm_num_egl_1")[i] / got.at("adm_den_egl_1")[i] == got.at("adm")[i]);
    }
}
