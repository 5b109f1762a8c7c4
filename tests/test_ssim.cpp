// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_ssim and float_ms_ssim against Netflix libvmaf's outputs on every
// golden pair (default options and the aom_ctc v7.0 dB options), their
// options and size limits, and the portable and vector kernels against each
// other.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "feature/options.h"
#include "feature/ssim/ssim.h"
#include "golden.h"
#include "options.h"
#include "pictures.h"
#include "libvmaf/libvmaf.h"
#include "picture/picture.h"
#include "run.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// The per-frame values of libvmaf's SSIM outputs in a JSON file (read here:
// some preset files hold nulls for other features' infinities).
Expected load_ssim_expected(const std::string &path)
{
    std::ifstream f(path);
    REQUIRE(f.good());
    const auto j = nlohmann::json::parse(f);
    Expected e;
    for (const auto &fr : j.at("frames")) {
        std::map<std::string, double> m;
        for (const auto &[k, v] : fr.at("metrics").items())
            if (k.find("ssim") != std::string::npos) m[k] = v.get<double>();
        e.frames.push_back(std::move(m));
    }
    return e;
}

bool has(const Expected &e, const std::string &name)
{
    return !e.frames.empty() && e.frames[0].count(name);
}

void check_golden(const std::string &file_suffix, const FeatureRequest &ssim, const FeatureRequest &ms_ssim)
{
    std::map<std::string, double> worst;
    for (const auto &pair : golden_pairs()) {
        const auto expected = load_ssim_expected(data_dir() + "/" + pair + file_suffix);
        REQUIRE(has(expected, "float_ssim"));
        std::vector<std::string> names = {"float_ssim"};
        std::vector<FeatureRequest> features = {ssim};
        if (has(expected, "float_ms_ssim")) {
            names.push_back("float_ms_ssim");
            features.push_back(ms_ssim);
        }
        const auto got = run_pair(pair, features, names);
        for (const auto &n : names) {
            const double d = max_frame_diff(got.at(n), expected, n);
            INFO(pair << file_suffix << " " << n << " max |diff| " << d);
            CHECK(d <= 1e-4);
            worst[n] = std::max(worst[n], d);
            std::printf("%-32s %-14s max|diff| %.3g\n", pair.c_str(), n.c_str(), d);
        }
    }
    for (const auto &[n, d] : worst) WARN(file_suffix << " " << n << " max |diff| over all pairs " << d);
}

// Deterministic textured pictures: a smooth pattern plus hashed noise.
unsigned hash(unsigned x, unsigned y, unsigned seed)
{
    unsigned v = x * 374761393u + y * 668265263u + seed * 2246822519u;
    v = (v ^ (v >> 13)) * 1274126177u;
    return v ^ (v >> 16);
}

VmafPicture textured(unsigned bpc, unsigned w, unsigned h, unsigned seed, unsigned noise)
{
    const unsigned maxv = (1u << bpc) - 1;
    return make_picture(bpc, w, h, [&](unsigned x, unsigned y) {
        const double base = 0.5 + 0.35 * std::sin(x * 0.05 + y * 0.031) * std::cos(y * 0.043 - x * 0.017);
        const int n = int(hash(x, y, seed) % (2 * noise + 1)) - int(noise);
        const long v = std::lround(base * maxv) + n * long(maxv / 255);
        return unsigned(std::clamp<long>(v, 0, maxv));
    });
}

struct MapSink final : ScoreSink {
    int append(const char *name, unsigned index, double value) override
    {
        scores[name][index] = value;
        return 0;
    }
    int get(const char *name, unsigned index, double *value) const override
    {
        auto n = scores.find(name);
        if (n == scores.end()) return -ENOENT;
        auto v = n->second.find(index);
        if (v == n->second.end()) return -ENOENT;
        *value = v->second;
        return 0;
    }
    int set_aggregate(const char *, double) override { return 0; }
    std::map<std::string, std::map<unsigned, double>> scores;
};

// One fresh instance of an extractor (ms: float_ms_ssim) over pairs of pictures.
MapSink run_direct(bool ms, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dis,
                   const Dict &opts, ssim::Kernels which)
{
    const auto o = options_for(ms ? kFloatMsSsimExtractor : kFloatSsimExtractor, opts);
    auto ex = ms ? ssim::create_ms_ssim_cpu(o, which) : ssim::create_ssim_cpu(o, which);
    REQUIRE(ref.size() == dis.size());
    REQUIRE(ex->init(format_of(ref[0])) == 0);
    MapSink sink;
    for (unsigned i = 0; i < ref.size(); i++) REQUIRE(ex->extract(ref[i], dis[i], i, sink) == 0);
    return sink;
}

// Scores one pair of pictures through the public API; returns the error of
// the first failing call (0 when all pass) and the score, NaN when absent.
struct ApiScore {
    int err;
    double value;
};

ApiScore api_score(const char *feature, const Dict &opts, VmafPicture ref, VmafPicture dis, const char *output)
{
    VmafContext *vmaf = nullptr;
    ApiScore r{open_quiet(&vmaf, feature, opts), NAN};
    if (r.err) {
        vmaf_picture_unref(&ref);
        vmaf_picture_unref(&dis);
    } else {
        r.err = vmaf_read_pictures(vmaf, &ref, &dis, 0);
        if (r.err) {  // a refused frame's pictures stay the caller's
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
        }
        if (!r.err) r.err = vmaf_read_pictures(vmaf, nullptr, nullptr, 0);
        double v;
        if (!r.err && vmaf_feature_score_at_index(vmaf, output, &v, 0) == 0) r.value = v;
    }
    vmaf_close(vmaf);
    return r;
}

}  // namespace

TEST_CASE("float_ssim and float_ms_ssim match libvmaf on every golden pair", "[ssim][golden]")
{
    check_golden(".libvmaf.json", {"float_ssim", {}}, {"float_ms_ssim", {}});
}

TEST_CASE("float_ssim and float_ms_ssim in clipped dB match libvmaf's aom_ctc v7.0 preset", "[ssim][golden]")
{
    // libvmaf's --aom_ctc v7.0: float_ssim=scale=1:enable_db=true:clip_db=true and
    // float_ms_ssim=enable_db=true:clip_db=true; the outputs keep their names.
    check_golden(".libvmaf.aom_ctc_v7.0.json",
                 {"float_ssim", {{"scale", "1"}, {"enable_db", "true"}, {"clip_db", "true"}}},
                 {"float_ms_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}});
}

TEST_CASE("float_ssim in clipped dB matches libvmaf's nflx_ctc v1.0 preset", "[ssim][golden]")
{
    // --nflx_ctc v1.0 runs float_ssim=enable_db=true:clip_db=true (no float_ms_ssim).
    check_golden(".libvmaf.nflx_ctc_v1.0.json", {"float_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}}, {});
}

TEST_CASE("float_ms_ssim writes nothing below 176x176, without an error", "[ssim]")
{
    for (const auto &pair : golden_pairs()) {
        const auto expected = load_ssim_expected(data_dir() + "/" + pair + ".libvmaf.aom_ctc_v7.0.json");
        if (has(expected, "float_ms_ssim")) continue;
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        INFO(pair);
        REQUIRE(ref[0].h[0] < 176);
        const auto r = api_score("float_ms_ssim", {}, ref[0], dis[0], "float_ms_ssim");
        CHECK(r.err == 0);
        CHECK(std::isnan(r.value));
        for (size_t i = 1; i < ref.size(); i++) vmaf_picture_unref(&ref[i]), vmaf_picture_unref(&dis[i]);
    }
    // The smallest picture with five scales scores; one sample less does not.
    for (const auto &[w, h, scored] : {std::tuple{176u, 176u, true}, {175u, 400u, false}, {400u, 175u, false}}) {
        INFO(w << "x" << h);
        const auto r = api_score("float_ms_ssim", {}, textured(8, w, h, 1, 0), textured(8, w, h, 2, 20),
                                 "float_ms_ssim");
        CHECK(r.err == 0);
        CHECK(std::isnan(r.value) == !scored);
        if (scored) CHECK((r.value > 0 && r.value < 1));
    }
}

TEST_CASE("float_ssim options: lcs terms, dB, clipping and scale", "[ssim]")
{
    const unsigned w = 400, h = 300;
    auto ref = [&] { return textured(8, w, h, 1, 0); };
    auto dis = [&] { return textured(8, w, h, 2, 12); };

    const double plain = api_score("float_ssim", {}, ref(), dis(), "float_ssim").value;
    REQUIRE((plain > 0.3 && plain < 1));
    // 300 / 256 rounds to 1: the default keeps full size, as scale=1.
    CHECK(api_score("float_ssim", {{"scale", "1"}}, ref(), dis(), "float_ssim").value == plain);
    const double s2 = api_score("float_ssim", {{"scale", "2"}}, ref(), dis(), "float_ssim").value;
    CHECK(s2 != plain);
    CHECK(s2 > plain);  // downscaling averages the noise away
    // enable_db without and with clipping.
    CHECK(api_score("float_ssim", {{"enable_db", "true"}}, ref(), dis(), "float_ssim").value ==
          Approx(-10 * std::log10(1 - plain)).epsilon(1e-12));
    const auto same = api_score("float_ssim", {{"enable_db", "true"}}, ref(), ref(), "float_ssim");
    CHECK(same.value == INFINITY);
    const double cap = std::ceil(10 * std::log10(255.0 * 255.0 / (0.5 / (w * h))));
    CHECK(api_score("float_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}, ref(), ref(), "float_ssim").value ==
          cap);
    // clip_db alone leaves the linear score.
    CHECK(api_score("float_ssim", {{"clip_db", "true"}}, ref(), dis(), "float_ssim").value == plain);
    // 10-bit: same picture content on the 8-bit scale; the cap uses 1023.
    const double cap10 = std::ceil(10 * std::log10(1023.0 * 1023.0 / (0.5 / (w * h))));
    CHECK(api_score("float_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}, textured(10, w, h, 1, 0),
                    textured(10, w, h, 1, 0), "float_ssim")
              .value == cap10);

    // enable_lcs: the mean terms, each in (0, 1] here, and 1 for identical pictures.
    for (const char *n : {"float_ssim_l", "float_ssim_c", "float_ssim_s"}) {
        INFO(n);
        const double v = api_score("float_ssim", {{"enable_lcs", "true"}}, ref(), dis(), n).value;
        CHECK((v > 0 && v <= 1));
        CHECK(api_score("float_ssim", {{"enable_lcs", "true"}}, ref(), ref(), n).value == Approx(1.0).epsilon(1e-6));
        CHECK(std::isnan(api_score("float_ssim", {}, ref(), dis(), n).value));
    }
    CHECK(api_score("float_ssim", {{"enable_lcs", "true"}}, ref(), dis(), "float_ssim").value == plain);
}

TEST_CASE("float_ms_ssim options: lcs terms per scale, dB and clipping", "[ssim]")
{
    const unsigned w = 352, h = 288;
    auto ref = [&] { return textured(8, w, h, 3, 0); };
    auto dis = [&] { return textured(8, w, h, 4, 16); };
    const double plain = api_score("float_ms_ssim", {}, ref(), dis(), "float_ms_ssim").value;
    REQUIRE((plain > 0.3 && plain < 1));
    CHECK(api_score("float_ms_ssim", {{"enable_db", "true"}}, ref(), dis(), "float_ms_ssim").value ==
          Approx(-10 * std::log10(1 - plain)).epsilon(1e-12));
    const double cap = std::ceil(10 * std::log10(255.0 * 255.0 / (0.5 / (w * h))));
    CHECK(api_score("float_ms_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}, ref(), ref(), "float_ms_ssim")
              .value == cap);

    // The per-scale terms combine into the score with Wang's exponents.
    std::vector<VmafPicture> r = {ref()}, d = {dis()};
    const MapSink s = run_direct(true, r, d, {{"enable_lcs", "true"}}, ssim::Kernels::Best);
    const float alpha[5] = {0, 0, 0, 0, 0.1333f}, beta[5] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
    double product = 1.0;
    for (int i = 0; i < 5; i++) {
        double l = 0, c = 0, st = 0;
        const std::string k = std::to_string(i);
        REQUIRE(s.get(("float_ms_ssim_l_scale" + k).c_str(), 0, &l) == 0);
        REQUIRE(s.get(("float_ms_ssim_c_scale" + k).c_str(), 0, &c) == 0);
        REQUIRE(s.get(("float_ms_ssim_s_scale" + k).c_str(), 0, &st) == 0);
        product *= std::pow(l, double(alpha[i])) * std::pow(c, double(beta[i])) * std::pow(st, double(beta[i]));
    }
    double score;
    REQUIRE(s.get("float_ms_ssim", 0, &score) == 0);
    CHECK(score == product);
    CHECK(score == plain);
    unref_all(r);
    unref_all(d);
}

TEST_CASE("float_ssim and float_ms_ssim reject bad options and too small pictures", "[ssim]")
{
    auto tiny = [] { return textured(8, 32, 32, 1, 0); };
    CHECK(api_score("float_ssim", {{"scale", "11"}}, tiny(), tiny(), "float_ssim").err < 0);
    CHECK(api_score("float_ssim", {{"scale", "-1"}}, tiny(), tiny(), "float_ssim").err < 0);
    CHECK(api_score("float_ssim", {{"scale", "1.5"}}, tiny(), tiny(), "float_ssim").err < 0);
    CHECK(api_score("float_ssim", {{"enable_db", "maybe"}}, tiny(), tiny(), "float_ssim").err < 0);
    CHECK(api_score("float_ssim", {{"no_such_option", "1"}}, tiny(), tiny(), "float_ssim").err < 0);
    CHECK(api_score("float_ms_ssim", {{"scale", "1"}}, tiny(), tiny(), "float_ms_ssim").err < 0);
    // 32x32 scores at full size; downscaled by 2 (16x16) it still fits the
    // window, by 3 (10x10) not.
    CHECK(api_score("float_ssim", {}, tiny(), tiny(), "float_ssim").value == Approx(1.0).epsilon(1e-6));
    CHECK(api_score("float_ssim", {{"scale", "2"}}, tiny(), tiny(), "float_ssim").value == Approx(1.0).epsilon(1e-6));
    CHECK(api_score("float_ssim", {{"scale", "3"}}, tiny(), tiny(), "float_ssim").err < 0);
    CHECK(api_score("float_ssim", {}, textured(8, 10, 64, 1, 0), textured(8, 10, 64, 1, 0), "float_ssim").err < 0);
}

namespace {

// The scores libvmaf's compute_ssim / compute_ms_ssim (golden commit) give on
// textured(8, w, h, 1, 0) against textured(8, w, h, 2, 12): the downscaling
// and odd sizes the golden pairs do not reach.
struct RefScore {
    bool ms;
    unsigned w, h;
    int scale;
    double score, l, c, s;  // l, c, s: float_ssim; MS-SSIM's scale 4 l and scale 0 s in l and s
};

constexpr RefScore kLibvmafScores[] = {
    {false, 400, 300, 0, 0.67432928085327148, 0.99990600347518921, 0.89273333549499512, 0.75546693801879883},
    {false, 400, 300, 2, 0.94370019435882568, 0.99997794628143311, 0.99571001529693604, 0.94766920804977417},
    {false, 400, 300, 3, 0.98545867204666138, 0.99999088048934937, 0.99956798553466797, 0.98588979244232178},
    {false, 401, 301, 2, 0.94370752573013306, 0.99997788667678833, 0.99570572376251221, 0.9476807713508606},
    {false, 401, 301, 3, 0.98543709516525269, 0.99999082088470459, 0.99956166744232178, 0.98587429523468018},
    {false, 401, 301, 4, 0.99503022432327271, 0.99999517202377319, 0.99990338087081909, 0.99513107538223267},
    {false, 401, 301, 5, 0.99784386157989502, 0.99999707937240601, 0.9999619722366333, 0.99788469076156616},
    {false, 1920, 1080, 0, 0.99499630928039551, 0.99999469518661499, 0.99988806247711182, 0.99511277675628662},
    {true, 401, 301, 0, 0.96331500709840723, 0.9999997615814209, 0, 0.75542682409286499},
    {true, 177, 176, 0, 0.96406521230546416, 0.9999997615814209, 0, 0.75551462173461914},
    {true, 1920, 1080, 0, 0.96356708193537566, 0.9999997615814209, 0, 0.75575262308120728},
};

}  // namespace

TEST_CASE("float_ssim downscaling and MS-SSIM at odd and large sizes match libvmaf", "[ssim]")
{
    for (const RefScore &r : kLibvmafScores) {
        std::vector<VmafPicture> ref = {textured(8, r.w, r.h, 1, 0)}, dis = {textured(8, r.w, r.h, 2, 12)};
        for (const auto which : {ssim::Kernels::Portable, ssim::Kernels::Avx2, ssim::Kernels::Best}) {
            INFO((r.ms ? "float_ms_ssim " : "float_ssim ") << r.w << "x" << r.h << " scale " << r.scale
                                                            << " kernels " << int(which));
            Dict opts = {{"enable_lcs", "true"}};
            if (r.scale) opts.push_back({"scale", std::to_string(r.scale)});
            const MapSink s = run_direct(r.ms, ref, dis, opts, which);
            const std::string base = r.ms ? "float_ms_ssim" : "float_ssim";
            double v = 0, l = 0, c = 0, st = 0;
            REQUIRE(s.get(base.c_str(), 0, &v) == 0);
            CHECK(v == r.score);
            if (r.ms) {
                REQUIRE(s.get("float_ms_ssim_l_scale4", 0, &l) == 0);
                REQUIRE(s.get("float_ms_ssim_s_scale0", 0, &st) == 0);
            } else {
                REQUIRE(s.get("float_ssim_l", 0, &l) == 0);
                REQUIRE(s.get("float_ssim_c", 0, &c) == 0);
                REQUIRE(s.get("float_ssim_s", 0, &st) == 0);
                CHECK(c == r.c);
            }
            CHECK(l == r.l);
            CHECK(st == r.s);
        }
        unref_all(ref);
        unref_all(dis);
    }
}

TEST_CASE("float_ssim and float_ms_ssim one-thread time per 1080p frame", "[.][bench]")
{
    std::vector<VmafPicture> ref = {textured(8, 1920, 1080, 1, 0)}, dis = {textured(8, 1920, 1080, 2, 12)};
    struct Case {
        const char *name;
        bool ms;
        Dict opts;
    };
    const Case cases[] = {{"float_ssim (auto scale 4)", false, {}},
                          {"float_ssim scale=1", false, {{"scale", "1"}}},
                          {"float_ms_ssim", true, {}}};
    const std::pair<ssim::Kernels, const char *> kernels[] = {
        {ssim::Kernels::Portable, "portable"}, {ssim::Kernels::Avx2, "avx2"}, {ssim::Kernels::Best, "best"}};
    for (const Case &c : cases) {
        for (const auto &[which, kname] : kernels) {
            const auto o = options_for(c.ms ? kFloatMsSsimExtractor : kFloatSsimExtractor, c.opts);
            auto ex = c.ms ? ssim::create_ms_ssim_cpu(o, which) : ssim::create_ssim_cpu(o, which);
            REQUIRE(ex->init({ref[0].pix_fmt, 8, 1920, 1080}) == 0);
            MapSink sink;
            REQUIRE(ex->extract(ref[0], dis[0], 0, sink) == 0);  // warm-up
            const int n = 5;
            const auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < n; i++) REQUIRE(ex->extract(ref[0], dis[0], unsigned(i), sink) == 0);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / n;
            std::printf("%-28s %-9s %8.2f ms/frame\n", c.name, kname, ms);
        }
    }
    unref_all(ref);
    unref_all(dis);
}

TEST_CASE("float_ssim and float_ms_ssim: portable, AVX2 and best kernels agree bit for bit", "[ssim]")
{
    for (const auto &pair : golden_pairs()) {
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const bool ms = ref[0].w[0] >= 176 && ref[0].h[0] >= 176;
        for (const bool use_ms : {false, true}) {
            if (use_ms && !ms) continue;
            const Dict opts = {{"enable_lcs", "true"}};
            const MapSink portable = run_direct(use_ms, ref, dis, opts, ssim::Kernels::Portable);
            for (const auto which : {ssim::Kernels::Avx2, ssim::Kernels::Best}) {
                const MapSink other = run_direct(use_ms, ref, dis, opts, which);
                INFO(pair << (use_ms ? " float_ms_ssim" : " float_ssim") << " kernels " << int(which));
                CHECK(other.scores == portable.scores);
            }
        }
        unref_all(ref);
        unref_all(dis);
    }
}
