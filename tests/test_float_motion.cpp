// SPDX-License-Identifier: BSD-2-Clause-Patent
// Float motion against Netflix libvmaf's output on every golden pair, options
// and their output names, bad options, thread counts and short sequences.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf::test;

namespace {

const std::vector<std::string> kOutputs = {"motion", "motion2", "motion3"};

}  // namespace

TEST_CASE("float_motion matches libvmaf on every golden pair", "[float_motion][golden]")
{
    std::map<std::string, double> worst;
    unsigned compared = 0;
    for (const auto &pair : golden_pairs()) {
        const auto got = run_pair(pair, {{"float_motion", {}}}, kOutputs);
        for (const char *suffix : {".libvmaf.json", ".libvmaf.more.json"}) {
            const auto expected = load_expected(data_dir() + "/" + pair + suffix);
            for (const auto &n : kOutputs) {
                if (!expected.frames.at(0).count(n)) continue;
                compared++;
                const double d = max_frame_diff(got.at(n), expected, n);
                INFO(pair << suffix << " " << n << " max |diff| " << d);
                CHECK(d <= 1e-4);
                worst[n] = std::max(worst[n], d);
            }
        }
    }
    CHECK(compared >= 50);
    for (const auto &[n, d] : worst) WARN(n << " max |diff| over all golden pairs: " << d);
}

namespace {

std::map<std::string, std::vector<double>> run_motion(const std::string &pair,
                                                      std::vector<std::pair<std::string, std::string>> opts,
                                                      const std::vector<std::string> &outputs, unsigned threads = 1)
{
    return run_pair(pair, {{"float_motion", std::move(opts)}}, outputs, threads);
}

// Score the first `n` frames of a golden pair (or a synthetic picture format)
// and return the context for reading scores; the caller closes it.
struct Session {
    VmafContext *vmaf = nullptr;
    int err = 0;
    ~Session() { vmaf_close(vmaf); }
};

void feed(Session &s, const std::string &pair, unsigned n,
          const std::vector<std::pair<std::string, std::string>> &opts)
{
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    REQUIRE(open_quiet(&s.vmaf, "float_motion", opts) == 0);
    for (unsigned i = 0; i < ref.size(); i++) {
        if (i < n && !s.err) {
            s.err = vmaf_read_pictures(s.vmaf, &ref[i], &dis[i], i);
            if (!s.err) continue;
        }
        vmaf_picture_unref(&ref[i]);
        vmaf_picture_unref(&dis[i]);
    }
    if (!s.err) s.err = vmaf_read_pictures(s.vmaf, nullptr, nullptr, 0);
}

double score(Session &s, const char *name, unsigned i)
{
    double v = -1;
    REQUIRE(vmaf_feature_score_at_index(s.vmaf, name, &v, i) == 0);
    return v;
}

int use_with(const std::vector<std::pair<std::string, std::string>> &opts)
{
    return vmaf::test::use_with("float_motion", opts);
}

}  // namespace

TEST_CASE("float_motion is independent of the thread count", "[float_motion][threads]")
{
    const std::vector<FeatureRequest> f = {{"float_motion", {}}, {"float_vif", {}}, {"psnr", {}}};
    const auto one = run_pair("motorcycle_320x240_blur", f, kOutputs, 1);
    const auto four = run_pair("motorcycle_320x240_blur", f, kOutputs, 4);
    for (const auto &n : kOutputs) CHECK(one.at(n) == four.at(n));
}

TEST_CASE("float_motion options match libvmaf's", "[float_motion][options]")
{
    // libvmaf (f85a8536, built with float features) on coffee_320x240_crf28,
    // frames 0-3, with motion_add_uv, motion_add_scale1, motion_filter_size=3,
    // motion_blend_factor=0.5 and motion_blend_offset=5.
    const std::string sfx = "_mdc_mau_mbf_0.5_mbo_5_mfs_3";
    const std::map<std::string, std::vector<double>> libvmaf = {
        {"motion" + sfx, {0, 25.373934268951416, 17.848109245300293, 17.763644218444824}},
        {"motion2" + sfx, {0, 17.848109245300293, 17.763644218444824, 17.763644218444824}},
        {"motion3" + sfx, {15.186967134475708, 11.424054622650146, 11.381822109222412, 11.381822109222412}},
    };
    std::vector<std::string> names;
    for (const auto &[n, v] : libvmaf) names.push_back(n);
    const auto got = run_motion("coffee_320x240_crf28",
                                {{"motion_add_uv", "true"}, {"motion_add_scale1", "true"}, {"motion_filter_size", "3"},
                                 {"motion_blend_factor", "0.5"}, {"motion_blend_offset", "5"}},
                                names);
    for (const auto &[n, want] : libvmaf)
        for (size_t i = 0; i < want.size(); i++) {
            INFO(n << " frame " << i);
            CHECK(got.at(n)[i] == want[i]);
        }
}

TEST_CASE("float_motion options change the scores and tag the output names", "[float_motion][options]")
{
    const std::string pair = "testsrc2_320x240_crf45";
    const auto base = run_motion(pair, {}, kOutputs);
    const size_t n = base.at("motion").size();

    SECTION("fps weight multiplies every score")
    {
        const auto w = run_motion(pair, {{"motion_fps_weight", "2"}}, {"motion_mfw_2", "motion2_mfw_2"});
        for (size_t i = 0; i < n; i++) {
            CHECK(w.at("motion_mfw_2")[i] == base.at("motion")[i] * 2);
            CHECK(w.at("motion2_mfw_2")[i] == base.at("motion2")[i] * 2);
        }
    }
    SECTION("max_val clips")
    {
        const auto c = run_motion(pair, {{"motion_max_val", "1"}}, {"motion2_mmxv_1", "motion3_mmxv_1"});
        for (size_t i = 0; i < n; i++) {
            CHECK(c.at("motion2_mmxv_1")[i] == std::min(base.at("motion2")[i], 1.0));
            CHECK(c.at("motion3_mmxv_1")[i] == std::min(base.at("motion3")[i], 1.0));
        }
    }
    SECTION("blending pulls motion3 towards the offset")
    {
        const auto b = run_motion(pair, {{"motion_blend_factor", "0"}, {"motion_blend_offset", "0.5"}},
                                  {"motion3_mbf_0_mbo_0.5"});
        for (size_t i = 0; i < n; i++) CHECK(b.at("motion3_mbf_0_mbo_0.5")[i] == std::min(0.5, base.at("motion3")[i]));
    }
    SECTION("filter size and extra terms give other scores")
    {
        for (const auto &[key, val, name] : std::vector<std::tuple<std::string, std::string, std::string>>{
                 {"motion_filter_size", "1", "motion_mfs_1"},
                 {"motion_filter_size", "3", "motion_mfs_3"},
                 {"motion_add_uv", "true", "motion_mau"},
                 {"motion_add_scale1", "true", "motion_mdc"}}) {
            const auto o = run_motion(pair, {{key, val}}, {name});
            CHECK(o.at(name) != base.at("motion"));
        }
        // Any size other than 1 and 3 is the 5-tap default.
        const auto o = run_motion(pair, {{"motion_filter_size", "7"}}, {"motion_mfs_7"});
        CHECK(o.at("motion_mfs_7") == base.at("motion"));
    }
    SECTION("force_zero writes zeros")
    {
        const auto z = run_motion(pair, {{"motion_force_zero", "true"}},
                                  {"motion_force_0", "motion2_force_0", "motion3_force_0"});
        for (const auto &[name, v] : z)
            for (double x : v) CHECK(x == 0.0);
    }
}

TEST_CASE("float_motion debug off leaves motion out", "[float_motion][options]")
{
    Session s;
    feed(s, "coffee_320x240_crf28", 3, {{"debug", "false"}});
    REQUIRE(s.err == 0);
    double v;
    CHECK(vmaf_feature_score_at_index(s.vmaf, "motion", &v, 1) != 0);
    CHECK(score(s, "motion2", 1) > 0);
}

TEST_CASE("float_motion of short sequences", "[float_motion]")
{
    SECTION("one frame: every score 0")
    {
        Session s;
        feed(s, "coffee_320x240_crf28", 1, {});
        REQUIRE(s.err == 0);
        CHECK(score(s, "motion", 0) == 0.0);
        CHECK(score(s, "motion2", 0) == 0.0);
        CHECK(score(s, "motion3", 0) == 0.0);
    }
    SECTION("two frames: motion2 of the last frame is its own motion; motion3 of frame 0 is frame 1's")
    {
        Session s;
        feed(s, "coffee_320x240_crf28", 2, {});
        REQUIRE(s.err == 0);
        const double m1 = score(s, "motion", 1);
        CHECK(m1 > 0);
        CHECK(score(s, "motion2", 0) == 0.0);
        CHECK(score(s, "motion2", 1) == m1);
        CHECK(score(s, "motion3", 0) == m1);
        CHECK(score(s, "motion3", 1) == m1);
    }
    SECTION("motion2 is the smaller of a frame's motion and the next frame's")
    {
        Session s;
        feed(s, "coffee_320x240_crf28", 10, {});
        REQUIRE(s.err == 0);
        for (unsigned i = 1; i + 1 < 10; i++)
            CHECK(score(s, "motion2", i) == std::min(score(s, "motion", i), score(s, "motion", i + 1)));
    }
}

TEST_CASE("float_motion rejects bad options", "[float_motion][options]")
{
    CHECK(use_with({{"motion_blend_factor", "1.5"}}) == -EINVAL);
    CHECK(use_with({{"motion_fps_weight", "6"}}) == -EINVAL);
    CHECK(use_with({{"motion_filter_size", "10"}}) == -EINVAL);
    CHECK(use_with({{"motion_max_val", "-1"}}) == -EINVAL);
    CHECK(use_with({{"motion_five_frame_window", "true"}}) == -EINVAL);  // integer motion only
    CHECK(use_with({{"no_such_option", "1"}}) == -EINVAL);
}

TEST_CASE("float_motion input limits", "[float_motion][limits]")
{
    auto run = [](VmafPixelFormat fmt, unsigned w, unsigned h,
                  const std::vector<std::pair<std::string, std::string>> &opts, const char *name = "motion") {
        VmafContext *vmaf = nullptr;
        REQUIRE(open_quiet(&vmaf, "float_motion", opts) == 0);
        int err = 0;
        for (unsigned i = 0; i < 2 && !err; i++) {
            VmafPicture a, b;
            REQUIRE(vmaf_picture_alloc(&a, fmt, 8, w, h) == 0);
            REQUIRE(vmaf_picture_alloc(&b, fmt, 8, w, h) == 0);
            for (unsigned p = 0; p < (fmt == VMAF_PIX_FMT_YUV400P ? 1u : 3u); p++)
                std::memset(a.data[p], int(16 + 40 * i), size_t(a.stride[p]) * a.h[p]);
            err = vmaf_read_pictures(vmaf, &a, &b, i);
            if (err) {
                vmaf_picture_unref(&a);
                vmaf_picture_unref(&b);
            }
        }
        if (!err) err = vmaf_read_pictures(vmaf, nullptr, nullptr, 0);
        double v = -1;
        if (!err) REQUIRE(vmaf_feature_score_at_index(vmaf, name, &v, 1) == 0);
        vmaf_close(vmaf);
        return std::make_pair(err, v);
    };
    // A flat picture 40 levels up from the previous one: motion is 40 (up to
    // the float rounding of the blur taps' sum).
    const auto r = run(VMAF_PIX_FMT_YUV420P, 8, 8, {});
    CHECK(r.first == 0);
    CHECK(r.second == Approx(40.0).epsilon(1e-6));
    const auto tiny = run(VMAF_PIX_FMT_YUV400P, 3, 3, {});
    CHECK(tiny.first == 0);
    CHECK(tiny.second == Approx(40.0).epsilon(1e-6));
    // The 5-tap blur needs 3 samples; the 3-tap one 2.
    CHECK(run(VMAF_PIX_FMT_YUV400P, 2, 8, {}).first == -EINVAL);
    CHECK(run(VMAF_PIX_FMT_YUV400P, 2, 8, {{"motion_filter_size", "3"}}, "motion_mfs_3").first == 0);
    // Chroma of 4:2:0 at 4x4 is 2x2: too small for the 5-tap blur with motion_add_uv.
    CHECK(run(VMAF_PIX_FMT_YUV420P, 4, 4, {{"motion_add_uv", "true"}}).first == -EINVAL);
    CHECK(run(VMAF_PIX_FMT_YUV400P, 16, 16, {{"motion_add_uv", "true"}}).first == -EINVAL);
}
