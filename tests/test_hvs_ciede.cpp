// SPDX-License-Identifier: BSD-2-Clause-Patent
// psnr_hvs, ciede, float_psnr, float_ansnr and float_moment against Netflix
// libvmaf's output on every golden pair, plus closed forms and input checks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf::test;

namespace {

const std::vector<FeatureRequest> kAllFive = {
    {"psnr_hvs", {}}, {"ciede", {}}, {"float_psnr", {}}, {"float_ansnr", {}}, {"float_moment", {}},
};

const std::vector<std::string> kMoreNames = {
    "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs", "ciede2000",
    "float_psnr", "float_ansnr", "float_anpsnr",
    "float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd",
};

const std::vector<std::string> kCtcNames = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs",
                                            "ciede2000"};

// Per-frame values of those of `names` a libvmaf JSON file has (the aom_ctc
// runs of the 176x144 pairs stop before psnr_hvs: libvmaf refuses float_ms_ssim
// there). libvmaf prints a non-finite score (e.g. psnr_hvs of identical
// pictures) as null; that becomes +infinity here.
std::vector<std::map<std::string, double>> load_frames(const std::string &path,
                                                        const std::vector<std::string> &names)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    const auto j = nlohmann::json::parse(in);
    std::vector<std::map<std::string, double>> frames;
    for (const auto &fr : j.at("frames")) {
        std::map<std::string, double> m;
        for (const auto &n : names) {
            if (!fr.at("metrics").contains(n)) continue;
            const auto &v = fr.at("metrics").at(n);
            m[n] = v.is_null() ? std::numeric_limits<double>::infinity() : v.get<double>();
        }
        frames.push_back(std::move(m));
    }
    return frames;
}

// |a - b|, 0 when both are the same infinity, +inf when only one is finite.
double diff(double a, double b)
{
    if (std::isinf(a) || std::isinf(b)) return a == b ? 0.0 : std::numeric_limits<double>::infinity();
    return std::fabs(a - b);
}

void compare_golden(const char *suffix, const std::vector<std::string> &names, unsigned n_threads)
{
    std::map<std::string, double> worst;
    std::map<std::string, int> compared;  // pairs per name
    for (const auto &pair : golden_pairs()) {
        const auto expected = load_frames(data_dir() + "/" + pair + suffix, names);
        const auto got = run_pair(pair, kAllFive, names, n_threads);
        for (const auto &n : names) {
            if (!expected.front().count(n)) continue;
            REQUIRE(got.at(n).size() == expected.size());
            double max_diff = 0;
            for (size_t i = 0; i < expected.size(); i++)
                max_diff = std::max(max_diff, diff(got.at(n)[i], expected[i].at(n)));
            INFO(pair << " " << n << " max |diff| " << max_diff);
            CHECK(max_diff <= 1e-4);
            worst[n] = std::max(worst[n], max_diff);
            compared[n]++;
        }
    }
    for (const auto &[n, d] : worst)
        std::printf("%s %-20s max|diff| %.3g over %d pairs\n", suffix, n.c_str(), d, compared[n]);
}

// A w x h picture: luma from f(x, y), chroma flat at `chroma`.
template <typename F>
VmafPicture make_picture(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, F f, unsigned chroma)
{
    VmafPicture pic;
    REQUIRE(vmaf_picture_alloc(&pic, fmt, bpc, w, h) == 0);
    const unsigned planes = fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
    for (unsigned p = 0; p < planes; p++) {
        for (unsigned y = 0; y < pic.h[p]; y++) {
            for (unsigned x = 0; x < pic.w[p]; x++) {
                const unsigned v = p ? chroma : f(x, y);
                auto *row = static_cast<uint8_t *>(pic.data[p]) + y * pic.stride[p];
                if (bpc == 8)
                    row[x] = uint8_t(v);
                else
                    reinterpret_cast<uint16_t *>(row)[x] = uint16_t(v);
            }
        }
    }
    return pic;
}

struct Scored {
    int init_err = 0;  // first error of use_feature / read_pictures (0 when none)
    std::map<std::string, double> v;
};

// Score one picture pair with `feature`; read `names` when it ran.
Scored score_pair(const char *feature, VmafPicture a, VmafPicture b, const std::vector<std::string> &names,
                  const char *opt_key = nullptr, const char *opt_val = nullptr)
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    VmafFeatureDictionary *d = nullptr;
    if (opt_key) REQUIRE(vmaf_feature_dictionary_set(&d, opt_key, opt_val) == 0);
    Scored s;
    s.init_err = vmaf_use_feature(vmaf, feature, d);
    if (!s.init_err) s.init_err = vmaf_read_pictures(vmaf, &a, &b, 0);
    if (s.init_err) {  // the pictures were not taken
        vmaf_picture_unref(&a);
        vmaf_picture_unref(&b);
    }
    if (!s.init_err) s.init_err = vmaf_read_pictures(vmaf, nullptr, nullptr, 0);
    if (!s.init_err) {
        for (const auto &n : names) {
            double v = 0;
            INFO(feature << " " << n);
            REQUIRE(vmaf_feature_score_at_index(vmaf, n.c_str(), &v, 0) == 0);
            s.v[n] = v;
        }
    }
    vmaf_close(vmaf);
    return s;
}

unsigned texture(unsigned x, unsigned y) { return 40 + (x * 7 + y * 13 + (x * y) % 17) % 160; }

}  // namespace

TEST_CASE("psnr_hvs, ciede and the float psnr/ansnr/moment match libvmaf on every golden pair",
          "[psnr_hvs][ciede][float_psnr][float_ansnr][float_moment][golden]")
{
    compare_golden(".libvmaf.more.json", kMoreNames, 1);
}

TEST_CASE("psnr_hvs and ciede match libvmaf's aom_ctc v7.0 run", "[psnr_hvs][ciede][golden]")
{
    compare_golden(".libvmaf.aom_ctc_v7.0.json", kCtcNames, 3);
}

TEST_CASE("closed forms on identical and shifted pictures", "[psnr_hvs][ciede][float_psnr][float_moment]")
{
    for (unsigned bpc : {8u, 10u, 12u}) {
        const unsigned s = 1u << (bpc - 8);
        auto f = [s](unsigned x, unsigned y) { return texture(x, y) * s; };
        const auto pic = [&] { return make_picture(VMAF_PIX_FMT_YUV420P, bpc, 64, 48, f, 100 * s); };
        INFO("bpc " << bpc);
        // Identical pictures: float_psnr at its cap, the others infinite.
        const auto psnr = score_pair("float_psnr", pic(), pic(), {"float_psnr"});
        REQUIRE(psnr.init_err == 0);
        CHECK(psnr.v.at("float_psnr") == 6.0 * bpc + 12.0);
        const auto hvs = score_pair("psnr_hvs", pic(), pic(), {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs"});
        REQUIRE(hvs.init_err == 0);
        CHECK(std::isinf(hvs.v.at("psnr_hvs_y")));
        CHECK(std::isinf(hvs.v.at("psnr_hvs")));
        const auto de = score_pair("ciede", pic(), pic(), {"ciede2000"});
        REQUIRE(de.init_err == 0);
        CHECK(std::isinf(de.v.at("ciede2000")));
        CHECK(de.v.at("ciede2000") > 0);
        // Moments of a flat picture: v and v^2 on the 8-bit scale.
        const auto flat = [&](unsigned v) {
            return make_picture(VMAF_PIX_FMT_YUV420P, bpc, 64, 48, [&](unsigned, unsigned) { return v * s; }, 0);
        };
        const auto m = score_pair("float_moment", flat(90), flat(30),
                                  {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                                   "float_moment_dis2nd"});
        REQUIRE(m.init_err == 0);
        CHECK(m.v.at("float_moment_ref1st") == 90.0);
        CHECK(m.v.at("float_moment_dis1st") == 30.0);
        CHECK(m.v.at("float_moment_ref2nd") == 8100.0);
        CHECK(m.v.at("float_moment_dis2nd") == 900.0);
        // A constant luma error of d (8-bit scale): PSNR = 10 log10(peak^2 / d^2).
        const auto shifted = score_pair("float_psnr", flat(90), flat(87), {"float_psnr"});
        REQUIRE(shifted.init_err == 0);
        const double peak = double((1u << bpc) - 1) / s;
        CHECK(shifted.v.at("float_psnr") == Approx(10 * std::log10(peak * peak / 9.0)).epsilon(1e-12));
    }
}

TEST_CASE("ciede2000 rises as the colour error shrinks", "[ciede]")
{
    auto f = [](unsigned x, unsigned y) { return texture(x, y); };
    const auto far = score_pair("ciede", make_picture(VMAF_PIX_FMT_YUV444P, 8, 32, 32, f, 128),
                                make_picture(VMAF_PIX_FMT_YUV444P, 8, 32, 32, f, 150), {"ciede2000"});
    const auto near = score_pair("ciede", make_picture(VMAF_PIX_FMT_YUV444P, 8, 32, 32, f, 128),
                                 make_picture(VMAF_PIX_FMT_YUV444P, 8, 32, 32, f, 131), {"ciede2000"});
    REQUIRE(far.init_err == 0);
    REQUIRE(near.init_err == 0);
    CHECK(std::isfinite(far.v.at("ciede2000")));
    CHECK(near.v.at("ciede2000") > far.v.at("ciede2000"));
}

TEST_CASE("unknown options are refused", "[psnr_hvs][ciede][float_psnr][float_ansnr][float_moment]")
{
    for (const char *feature : {"psnr_hvs", "ciede", "float_psnr", "float_ansnr", "float_moment"}) {
        INFO(feature);
        auto f = [](unsigned x, unsigned y) { return texture(x, y); };
        const auto s = score_pair(feature, make_picture(VMAF_PIX_FMT_YUV420P, 8, 32, 32, f, 128),
                                  make_picture(VMAF_PIX_FMT_YUV420P, 8, 32, 32, f, 128), {}, "no_such_option", "1");
        CHECK(s.init_err < 0);
    }
}

TEST_CASE("unsupported inputs fail cleanly", "[psnr_hvs][ciede]")
{
    auto f = [](unsigned x, unsigned y) { return texture(x, y) * 256; };
    // psnr_hvs scores at most 12 bits.
    const auto deep = score_pair("psnr_hvs", make_picture(VMAF_PIX_FMT_YUV420P, 16, 32, 32, f, 1u << 15),
                                 make_picture(VMAF_PIX_FMT_YUV420P, 16, 32, 32, f, 1u << 15), {"psnr_hvs"});
    CHECK(deep.init_err < 0);
    // Both need chroma.
    auto g = [](unsigned x, unsigned y) { return texture(x, y); };
    for (const char *feature : {"psnr_hvs", "ciede"}) {
        INFO(feature);
        const auto gray = score_pair(feature, make_picture(VMAF_PIX_FMT_YUV400P, 8, 32, 32, g, 0),
                                     make_picture(VMAF_PIX_FMT_YUV400P, 8, 32, 32, g, 0), {});
        CHECK(gray.init_err < 0);
    }
    // The luma-only float features take 4:0:0.
    for (const char *feature : {"float_psnr", "float_ansnr", "float_moment"}) {
        INFO(feature);
        const auto gray = score_pair(feature, make_picture(VMAF_PIX_FMT_YUV400P, 8, 32, 32, g, 0),
                                     make_picture(VMAF_PIX_FMT_YUV400P, 8, 32, 32, g, 0), {});
        CHECK(gray.init_err == 0);
    }
}

TEST_CASE("small and odd sizes", "[psnr_hvs][ciede][float_ansnr]")
{
    auto f = [](unsigned x, unsigned y) { return texture(x, y); };
    auto g = [](unsigned x, unsigned y) { return texture(x + 1, y); };
    // Under 8x8 psnr_hvs has no block: libvmaf's 0 / 0 gives NaN.
    const auto tiny = score_pair("psnr_hvs", make_picture(VMAF_PIX_FMT_YUV444P, 8, 6, 6, f, 128),
                                 make_picture(VMAF_PIX_FMT_YUV444P, 8, 6, 6, g, 128), {"psnr_hvs_y"});
    REQUIRE(tiny.init_err == 0);
    CHECK(std::isnan(tiny.v.at("psnr_hvs_y")));
    // float_ansnr's 5x5 filter needs 3x3.
    const auto small = score_pair("float_ansnr", make_picture(VMAF_PIX_FMT_YUV444P, 8, 2, 8, f, 128),
                                  make_picture(VMAF_PIX_FMT_YUV444P, 8, 2, 8, g, 128), {"float_ansnr"});
    CHECK(small.init_err < 0);
    const auto three = score_pair("float_ansnr", make_picture(VMAF_PIX_FMT_YUV444P, 8, 3, 3, f, 128),
                                  make_picture(VMAF_PIX_FMT_YUV444P, 8, 3, 3, g, 128), {"float_ansnr"});
    CHECK(three.init_err == 0);
    // Odd sizes in every layout run through (libvmaf's chroma is rounded down).
    for (VmafPixelFormat fmt : {VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV444P}) {
        for (unsigned bpc : {8u, 10u}) {
            INFO("fmt " << fmt << " bpc " << bpc);
            for (const char *feature : {"psnr_hvs", "ciede"}) {
                const char *name = feature[0] == 'p' ? "psnr_hvs" : "ciede2000";
                const auto odd = score_pair(feature, make_picture(fmt, bpc, 33, 17, f, 120),
                                            make_picture(fmt, bpc, 33, 17, g, 125), {name});
                REQUIRE(odd.init_err == 0);
                CHECK(std::isfinite(odd.v.at(name)));
            }
            const auto one = score_pair("ciede", make_picture(fmt, bpc, 1, 1, f, 120),
                                        make_picture(fmt, bpc, 1, 1, g, 125), {"ciede2000"});
            REQUIRE(one.init_err == 0);
        }
    }
}
