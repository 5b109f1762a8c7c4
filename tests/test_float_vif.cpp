// SPDX-License-Identifier: BSD-2-Clause-Patent
// Float VIF against Netflix libvmaf's output on every golden pair, options and
// their output names, bad options and size limits, and the float VMAF model.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf::test;

namespace {

const std::vector<std::string> kScales = {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"};

bool has_all(const Expected &e, const std::vector<std::string> &names)
{
    for (const auto &f : e.frames)
        for (const auto &n : names)
            if (!f.count(n)) return false;
    return !e.frames.empty();
}

}  // namespace

TEST_CASE("float_vif matches libvmaf on every golden pair", "[float_vif][golden]")
{
    std::map<std::string, double> worst;
    unsigned compared = 0;
    for (const auto &pair : golden_pairs()) {
        const auto got = run_pair(pair, {{"float_vif", {}}}, kScales);
        for (const char *suffix : {".libvmaf.json", ".libvmaf.more.json"}) {
            const auto expected = load_expected(data_dir() + "/" + pair + suffix);
            if (!has_all(expected, kScales)) continue;
            compared++;
            for (const auto &n : kScales) {
                const double d = max_frame_diff(got.at(n), expected, n);
                INFO(pair << suffix << " " << n << " max |diff| " << d);
                CHECK(d <= 1e-4);
                worst[n] = std::max(worst[n], d);
            }
        }
    }
    CHECK(compared >= 10);
    for (const auto &[n, d] : worst) WARN(n << " max |diff| over all golden pairs: " << d);
}

namespace {

// One feature request's outputs on a pair (1 thread unless said).
std::map<std::string, std::vector<double>> run_vif(const std::string &pair,
                                                   std::vector<std::pair<std::string, std::string>> opts,
                                                   const std::vector<std::string> &outputs, unsigned threads = 1)
{
    return run_pair(pair, {{"float_vif", std::move(opts)}}, outputs, threads);
}

// vmaf_use_feature's result for float_vif with these options.
int use_with(const std::vector<std::pair<std::string, std::string>> &opts)
{
    return vmaf::test::use_with("float_vif", opts);
}

// Feed `n` frames of a w x h 8-bit 4:2:0 gradient with float_vif and these
// options; returns the first vmaf_read_pictures error, or the flush result.
int run_synthetic(unsigned w, unsigned h, unsigned n,
                  const std::vector<std::pair<std::string, std::string>> &opts)
{
    VmafContext *vmaf = nullptr;
    REQUIRE(open_quiet(&vmaf, "float_vif", opts) == 0);
    int err = 0;
    for (unsigned i = 0; i < n && !err; i++) {
        VmafPicture a, b;
        REQUIRE(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 8, w, h) == 0);
        REQUIRE(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV420P, 8, w, h) == 0);
        for (unsigned p = 0; p < 3; p++)
            for (unsigned y = 0; y < a.h[p]; y++)
                for (unsigned x = 0; x < a.w[p]; x++) {
                    static_cast<uint8_t *>(a.data[p])[y * a.stride[p] + x] = uint8_t((x * 7 + y * 3 + i) & 255);
                    static_cast<uint8_t *>(b.data[p])[y * b.stride[p] + x] = uint8_t((x * 7 + y * 5 + i) & 255);
                }
        err = vmaf_read_pictures(vmaf, &a, &b, i);
        if (err) {
            vmaf_picture_unref(&a);
            vmaf_picture_unref(&b);
        }
    }
    if (!err) err = vmaf_read_pictures(vmaf, nullptr, nullptr, 0);
    vmaf_close(vmaf);
    return err;
}

}  // namespace

TEST_CASE("float_vif is independent of the thread count", "[float_vif][threads]")
{
    const auto one = run_vif("coffee_320x240_crf28", {}, kScales, 1);
    const auto four = run_vif("coffee_320x240_crf28", {}, kScales, 4);
    for (const auto &n : kScales) CHECK(one.at(n) == four.at(n));
}

TEST_CASE("float_vif debug outputs are the per-scale sums", "[float_vif]")
{
    std::vector<std::string> names = kScales;
    for (const char *n : {"vif", "vif_num", "vif_den"}) names.push_back(n);
    for (int s = 0; s < 4; s++) {
        names.push_back("vif_num_scale" + std::to_string(s));
        names.push_back("vif_den_scale" + std::to_string(s));
    }
    const auto got = run_vif("astronaut_176x144_crf35", {{"debug", "true"}}, names);
    for (size_t i = 0; i < got.at("vif").size(); i++) {
        double num = 0, den = 0;
        for (int s = 0; s < 4; s++) {
            const double n = got.at("vif_num_scale" + std::to_string(s))[i];
            const double d = got.at("vif_den_scale" + std::to_string(s))[i];
            CHECK(got.at(kScales[s])[i] == n / d);
            num += n;
            den += d;
        }
        CHECK(got.at("vif_num")[i] == num);
        CHECK(got.at("vif_den")[i] == den);
        CHECK(got.at("vif")[i] == num / den);
    }
}

TEST_CASE("float_vif options change the scores and tag the output names", "[float_vif][options]")
{
    const std::string pair = "coffee_320x240_crf28";
    const auto base = run_vif(pair, {}, kScales);

    SECTION("gain limit 1 never raises a scale")
    {
        const std::vector<std::string> n = {"vif_scale0_egl_1", "vif_scale1_egl_1", "vif_scale2_egl_1",
                                            "vif_scale3_egl_1"};
        const auto egl = run_vif(pair, {{"vif_enhn_gain_limit", "1.0"}}, n);
        for (int s = 0; s < 4; s++)
            for (size_t i = 0; i < base.at(kScales[s]).size(); i++) CHECK(egl.at(n[s])[i] <= base.at(kScales[s])[i]);
    }
    SECTION("kernel scale, sigma_nsq and prescale give other scores")
    {
        const auto ks = run_vif(pair, {{"vif_kernelscale", "0.5"}}, {"vif_scale0_ks_0.5"});
        CHECK(ks.at("vif_scale0_ks_0.5") != base.at("vif_scale0"));
        const auto snsq = run_vif(pair, {{"vif_sigma_nsq", "1"}}, {"vif_scale0_snsq_1"});
        CHECK(snsq.at("vif_scale0_snsq_1") != base.at("vif_scale0"));
        for (const char *m : {"nearest", "bilinear", "bicubic", "lanczos4"}) {
            const std::string name = std::string("vif_scale0_ps_1.5_pm_") + m;
            const std::string plain = "vif_scale0_ps_1.5";
            const bool is_default = std::string(m) == "nearest";
            const auto ps = run_vif(pair, {{"vif_prescale", "1.5"}, {"vif_prescale_method", m}},
                                    {is_default ? plain : name});
            const auto &v = ps.at(is_default ? plain : name);
            CHECK(v != base.at("vif_scale0"));
            for (double x : v) CHECK(std::isfinite(x));
        }
    }
    SECTION("prescale 1 is the plain score whatever the method")
    {
        const auto pm = run_vif(pair, {{"vif_prescale_method", "bicubic"}}, {"vif_scale0_pm_bicubic"});
        CHECK(pm.at("vif_scale0_pm_bicubic") == base.at("vif_scale0"));
    }
    SECTION("skip_scale0 writes 0 for scale 0 and leaves the others")
    {
        const auto sk = run_vif(pair, {{"vif_skip_scale0", "true"}}, {"vif_scale0_ssclz", "vif_scale1_ssclz",
                                                                      "vif_scale3_ssclz"});
        for (double v : sk.at("vif_scale0_ssclz")) CHECK(v == 0.0);
        CHECK(sk.at("vif_scale1_ssclz") == base.at("vif_scale1"));
        CHECK(sk.at("vif_scale3_ssclz") == base.at("vif_scale3"));
    }
    SECTION("min_val floors a scale")
    {
        const auto mv = run_vif(pair, {{"vif_scale3_min_val", "0.9"}}, {"vif_scale3_s3miv_0.9", "vif_scale2_s3miv_0.9"});
        for (size_t i = 0; i < base.at("vif_scale3").size(); i++) {
            CHECK(mv.at("vif_scale3_s3miv_0.9")[i] == std::max(base.at("vif_scale3")[i], 0.9));
            CHECK(mv.at("vif_scale2_s3miv_0.9")[i] == base.at("vif_scale2")[i]);
        }
    }
}

TEST_CASE("float_vif options match libvmaf's", "[float_vif][options]")
{
    // libvmaf (f85a8536, built with float features) on coffee_320x240_crf28,
    // frames 0-3, with vif_prescale=1.5, vif_prescale_method=lanczos4,
    // vif_kernelscale=1.5 and vif_enhn_gain_limit=1.2.
    const std::string sfx = "_egl_1.2_ks_1.5_ps_1.5_pm_lanczos4";
    const std::map<std::string, std::vector<double>> libvmaf = {
        {"vif_scale0" + sfx, {0.53129528129154002, 0.51449771929505717, 0.51653772123888542, 0.51418938170653039}},
        {"vif_scale1" + sfx, {0.92349075052702556, 0.90878167068671234, 0.91379837455196689, 0.90837167877191594}},
        {"vif_scale2" + sfx, {0.96467067989244359, 0.95536290141564972, 0.96014735600466861, 0.95552801693979139}},
        {"vif_scale3" + sfx, {0.97888606463208838, 0.97229961888830418, 0.97651704188602129, 0.97315064705341847}},
    };
    std::vector<std::string> names;
    for (const auto &[n, v] : libvmaf) names.push_back(n);
    const auto got = run_vif("coffee_320x240_crf28",
                             {{"vif_prescale", "1.5"}, {"vif_prescale_method", "lanczos4"}, {"vif_kernelscale", "1.5"},
                              {"vif_enhn_gain_limit", "1.2"}},
                             names);
    for (const auto &[n, want] : libvmaf)
        for (size_t i = 0; i < want.size(); i++) {
            INFO(n << " frame " << i);
            CHECK(got.at(n)[i] == want[i]);
        }
}

TEST_CASE("float_vif rejects bad options", "[float_vif][options]")
{
    CHECK(use_with({{"vif_enhn_gain_limit", "0.5"}}) == -EINVAL);
    CHECK(use_with({{"vif_kernelscale", "5"}}) == -EINVAL);
    CHECK(use_with({{"vif_prescale", "0"}}) == -EINVAL);
    CHECK(use_with({{"vif_sigma_nsq", "6"}}) == -EINVAL);
    CHECK(use_with({{"vif_scale1_min_val", "2"}}) == -EINVAL);
    CHECK(use_with({{"vif_prescale_method", "area"}}) == -EINVAL);
    CHECK(use_with({{"no_such_option", "1"}}) == -EINVAL);
    // In range but not one of libvmaf's kernel scales: refused at the first frame.
    CHECK(use_with({{"vif_kernelscale", "1.3"}}) == 0);
    CHECK(run_synthetic(64, 64, 1, {{"vif_kernelscale", "1.3"}}) == -EINVAL);
    CHECK(run_synthetic(64, 64, 1, {{"vif_kernelscale", "1.5"}}) == 0);
}

TEST_CASE("float_vif size limits", "[float_vif][limits]")
{
    // Scale 3 (an eighth of the size) needs 2 samples for the 3-tap filter.
    CHECK(run_synthetic(16, 16, 2, {}) == 0);
    CHECK(run_synthetic(15, 16, 1, {}) == -EINVAL);
    CHECK(run_synthetic(16, 14, 1, {}) == -EINVAL);
    // Kernel scale 2 widens scale 3's filter to 7 taps: 4 samples, so 32.
    CHECK(run_synthetic(32, 32, 1, {{"vif_kernelscale", "2"}}) == 0);
    CHECK(run_synthetic(31, 32, 1, {{"vif_kernelscale", "2"}}) == -EINVAL);
    // The prescaled size counts.
    CHECK(run_synthetic(16, 16, 1, {{"vif_prescale", "0.5"}}) == -EINVAL);
    CHECK(run_synthetic(16, 16, 1, {{"vif_prescale", "2"}, {"vif_kernelscale", "2"}}) == 0);
    // Bilinear prescaling is capped at a scaled width of 7680.
    CHECK(run_synthetic(4000, 16, 1, {{"vif_prescale", "2"}, {"vif_prescale_method", "bilinear"}}) == -EINVAL);
}

TEST_CASE("the float VMAF model scores like libvmaf's vmaf_float", "[float_vif][model]")
{
    // The model also needs float_adm. Without it, libvmaf's own adm2 values are
    // imported so that this feature's part of the model is still checked.
    bool have_adm;
    {
        VmafContext *probe = nullptr;
        VmafConfiguration cfg{};
        cfg.log_level = VMAF_LOG_LEVEL_NONE;
        REQUIRE(vmaf_init(&probe, cfg) == 0);
        have_adm = vmaf_use_feature(probe, "float_adm", nullptr) == 0;
        vmaf_close(probe);
    }
    if (!have_adm)
        WARN("float_adm is not a known feature here: vmaf_float_v0.6.1 is checked with libvmaf's adm2 "
             "imported, not computed");
    const char *dir = std::getenv("VMAF_MODEL_DIR");
    REQUIRE(dir);
    const std::string path = std::string(dir) + "/vmaf_float_v0.6.1.json";
    double worst = 0;
    for (const auto &pair : golden_pairs()) {
        const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.more.json");
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        REQUIRE(ref.size() == expected.frames.size());
        VmafModelConfig mcfg{"vmaf_float", VMAF_MODEL_FLAGS_DEFAULT};
        VmafModel *model = nullptr;
        REQUIRE(vmaf_model_load_from_path(&model, &mcfg, path.c_str()) == 0);
        VmafContext *vmaf = nullptr;
        VmafConfiguration cfg{};
        cfg.log_level = VMAF_LOG_LEVEL_ERROR;
        REQUIRE(vmaf_init(&vmaf, cfg) == 0);
        if (have_adm) {
            REQUIRE(vmaf_use_features_from_model(vmaf, model) == 0);
        } else {
            REQUIRE(vmaf_use_feature(vmaf, "float_vif", nullptr) == 0);
            REQUIRE(vmaf_use_feature(vmaf, "float_motion", nullptr) == 0);
            for (unsigned i = 0; i < ref.size(); i++)
                REQUIRE(vmaf_import_feature_score(vmaf, "VMAF_feature_adm2_score", expected.frames[i].at("adm2"),
                                                  i) == 0);
        }
        for (unsigned i = 0; i < ref.size(); i++) REQUIRE(vmaf_read_pictures(vmaf, &ref[i], &dis[i], i) == 0);
        REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
        double d = 0;
        for (unsigned i = 0; i < ref.size(); i++) {
            double v = 0;
            REQUIRE(vmaf_score_at_index(vmaf, model, &v, i) == 0);
            d = std::max(d, std::fabs(v - expected.frames[i].at("vmaf_float")));
        }
        INFO(pair << " vmaf_float max |diff| " << d);
        CHECK(d <= 1e-4);
        worst = std::max(worst, d);
        vmaf_close(vmaf);
        vmaf_model_destroy(model);
    }
    WARN("vmaf_float max |diff| over all golden pairs: " << worst << (have_adm ? "" : " (adm2 imported)"));
}
