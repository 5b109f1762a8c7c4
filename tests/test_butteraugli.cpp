// SPDX-License-Identifier: BSD-2-Clause-Patent
// butteraugli against libjxl's own butteraugli_main on every golden pair, built
// for Highway's AVX2 target (fused multiply-adds: tests/data/NAME.butteraugli.json)
// and for its SSE2 target (unfused: NAME.butteraugli.nofma.json), both written
// by scripts/truth/butteraugli.sh from RGB files an independent converter made:
// the distance is the maximum of the tool's own map, a float, which the
// extractor must give exactly; the 3-norm is as the tool prints it (6
// decimals). Also: identical frames, bad options, too small pictures, and the
// portable and AVX2 builds giving the same bits.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <utility>
#include <vector>

#include "feature/butteraugli/butteraugli.h"
#include "golden.h"
#include "kernels.h"
#include "libvmaf/libvmaf.h"
#include "options.h"
#include "pictures.h"
#include "run.h"
#include "sink.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// The tool prints the 3-norm with 6 decimals: the extractor's must round to it.
constexpr double kNormTolerance = 5e-7 + 1e-12;

void check_pair(const std::string &pair, const std::string &suffix, const ApiOptions &opts,
                const std::string &tag = "")
{
    const std::string path = data_dir() + "/" + pair + suffix;
    INFO(path);
    REQUIRE(std::ifstream(path).good());
    const Expected e = load_expected(path);
    const std::string dist = "butteraugli" + tag, norm = "butteraugli_3norm" + tag;
    const auto got = run_pair(pair, {{"butteraugli", opts}}, {dist, norm});
    const double ddiff = max_frame_diff(got.at(dist), e, "butteraugli");
    const double ndiff = max_frame_diff(got.at(norm), e, "butteraugli_3norm");
    std::printf("butteraugli %-32s %-26s distance max |diff| %.3g, 3-norm %.3g over %zu frames\n", pair.c_str(),
                suffix.c_str(), ddiff, ndiff, e.frames.size());
    CHECK(ddiff == 0.0);
    CHECK(ndiff <= kNormTolerance);
}

struct Scored {
    int err;
    double distance, norm;
};

Scored score_once(const Dict &opts, const VmafPicture &ref, const VmafPicture &dis)
{
    auto ex = kButteraugliExtractor.create(options_for(kButteraugliExtractor, opts));
    Scored s{ex->init(format_of(ref)), NAN, NAN};
    if (s.err) return s;
    MapSink sink;
    s.err = ex->extract(ref, dis, 0, sink);
    if (!s.err) s.err = sink.get("butteraugli", 0, &s.distance);
    if (!s.err) s.err = sink.get("butteraugli_3norm", 0, &s.norm);
    return s;
}

}  // namespace

TEST_CASE("butteraugli matches libjxl's tool (AVX2, fused) on every golden pair", "[butteraugli][golden]")
{
    for (const auto &pair : golden_pairs()) check_pair(pair, ".butteraugli.json", {});
}

TEST_CASE("butteraugli libjxl_fma=0 matches libjxl's tool (SSE2, unfused) on every golden pair",
          "[butteraugli][golden]")
{
    for (const auto &pair : golden_pairs()) check_pair(pair, ".butteraugli.nofma.json", {{"libjxl_fma", "0"}}, "_nofma");
}

TEST_CASE("butteraugli of identical frames is 0, of different frames more", "[butteraugli]")
{
    for (VmafPixelFormat fmt : {VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV444P}) {
        const auto gen = hashed(1);
        VmafPicture a = make_picture(fmt, 8, 37, 29, gen), b = make_picture(fmt, 8, 37, 29, gen);
        const Scored s = score_once({}, a, b);
        CHECK(s.err == 0);
        CHECK(s.distance == 0.0);
        CHECK(s.norm == 0.0);
        VmafPicture c = make_picture(fmt, 8, 37, 29, hashed(2));
        const Scored d = score_once({}, a, c);
        CHECK(d.err == 0);
        CHECK(d.distance > 0.0);
        CHECK(d.norm > 0.0);
        CHECK(d.norm <= d.distance);
        // A brighter display shows the same difference as a larger one.
        const Scored bright = score_once({{"intensity_target", "250"}}, a, c);
        CHECK(bright.err == 0);
        CHECK(bright.distance != d.distance);
        vmaf_picture_unref(&a);
        vmaf_picture_unref(&b);
        vmaf_picture_unref(&c);
    }
}

TEST_CASE("butteraugli rejects bad options and pictures below 8x8", "[butteraugli]")
{
    FeatureOptions o;
    std::string err;
    CHECK(FeatureOptions::parse(kButteraugliExtractor.options, {{"matrix", "bt470"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kButteraugliExtractor.options, {{"range", "tv"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kButteraugliExtractor.options, {{"intensity_target", "0"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kButteraugliExtractor.options, {{"intensity_target", "nits"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kButteraugliExtractor.options, {{"no_such_option", "1"}}, &o, &err) == -EINVAL);
    CHECK(use_with("butteraugli", {{"matrix", "bt470"}}) < 0);
    CHECK(use_with("butteraugli", {{"matrix", "bt2020"}, {"range", "full"}, {"intensity_target", "203"}}) == 0);

    const auto gen = hashed(3);
    for (const auto &[w, h] : {std::pair{7u, 8u}, std::pair{8u, 7u}, std::pair{1u, 1u}}) {
        VmafPicture a = make_picture(VMAF_PIX_FMT_YUV420P, 8, w, h, gen);
        CHECK(score_once({}, a, a).err == -EINVAL);
        vmaf_picture_unref(&a);
    }
    // 8x8, the smallest libjxl's comparator scores (its 4x4 subsample is left out).
    VmafPicture a = make_picture(VMAF_PIX_FMT_YUV420P, 8, 8, 8, gen);
    const Scored s = score_once({}, a, a);
    CHECK(s.err == 0);
    CHECK(s.distance == 0.0);
    vmaf_picture_unref(&a);
    VmafPicture g = make_picture(VMAF_PIX_FMT_YUV400P, 8, 16, 16, gen);
    CHECK(score_once({}, g, g).err == -EINVAL);
    vmaf_picture_unref(&g);
}

TEST_CASE("butteraugli: the portable and the AVX2 kernels agree bit for bit", "[butteraugli]")
{
    // A golden pair whose width leaves a tail after the 5-tap blur's vectors
    // (322 and its subsample 161), and pictures whose widths take the blur's
    // scalar path throughout (9: narrower than 8 lanes + 2) or at the
    // subsample (38 -> 19).
    std::vector<FramePairs> inputs;
    inputs.push_back(golden_frames("chelsea_322x186_rescale"));
    inputs.push_back(hashed_pair(9, 12));
    inputs.push_back(hashed_pair(38, 21));
    check_kernels_agree(kButteraugliExtractor, create_butteraugli_cpu, std::move(inputs));
}
