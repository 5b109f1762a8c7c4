// SPDX-License-Identifier: BSD-2-Clause-Patent
// ssimulacra2 against libjxl's own ssimulacra2 tool on every golden pair, built
// for Highway's AVX2 target (fused multiply-adds: tests/data/NAME.ssimulacra2.json)
// and for its SSE2 target (unfused: NAME.ssimulacra2.nofma.json), both written
// by scripts/truth/ssimulacra2.sh from RGB files an independent converter
// made; the score of identical frames; the errors for bad options and too
// small pictures.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <utility>
#include <vector>

#include "feature/ssimulacra2/ssimulacra2.h"
#include "feature/ssimulacra2/ssimulacra2_kernels.h"
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

// libjxl prints its score with 8 decimals; the extractor must agree to 1e-6.
constexpr double kTolerance = 1e-6;

// The per-frame scores of `pair` in output `output` (options add a suffix)
// against the tool's in NAME`suffix`.
void check_pair(const std::string &pair, const std::string &suffix, const ApiOptions &opts,
                const std::string &output = "ssimulacra2")
{
    const std::string path = data_dir() + "/" + pair + suffix;
    INFO(path);
    REQUIRE(std::ifstream(path).good());
    const Expected e = load_expected(path);
    const auto got = run_pair(pair, {{"ssimulacra2", opts}}, {output});
    const double diff = max_frame_diff(got.at(output), e, "ssimulacra2");
    std::printf("ssimulacra2 %-32s %-24s max |diff| %.3g over %zu frames\n", pair.c_str(), suffix.c_str(), diff,
                e.frames.size());
    CHECK(diff <= kTolerance);
}

// One picture pair scored by the extractor itself.
struct Scored {
    int err;
    double value;
};

Scored score_once(const Dict &opts, const VmafPicture &ref, const VmafPicture &dis)
{
    auto ex = kSsimulacra2Extractor.create(options_for(kSsimulacra2Extractor, opts));
    Scored s{ex->init(format_of(ref)), NAN};
    if (s.err) return s;
    MapSink sink;
    s.err = ex->extract(ref, dis, 0, sink);
    if (!s.err) s.err = sink.get("ssimulacra2", 0, &s.value);
    return s;
}

}  // namespace

TEST_CASE("ssimulacra2 matches libjxl's tool (AVX2, fused) on every golden pair", "[ssimulacra2][golden]")
{
    for (const auto &pair : golden_pairs()) check_pair(pair, ".ssimulacra2.json", {});
    for (const char *pair : {"coffee_320x240_crf28", "rocket_320x240_10bit_crf30"})
        check_pair(pair, ".ssimulacra2.bt709_full.json", {{"matrix", "bt709"}, {"range", "full"}},
                   "ssimulacra2_matrix_bt709_range_full");
}

TEST_CASE("ssimulacra2 libjxl_fma=0 matches libjxl's tool (SSE2, unfused) on every golden pair",
          "[ssimulacra2][golden]")
{
    for (const auto &pair : golden_pairs())
        check_pair(pair, ".ssimulacra2.nofma.json", {{"libjxl_fma", "0"}}, "ssimulacra2_nofma");
    for (const char *pair : {"coffee_320x240_crf28", "rocket_320x240_10bit_crf30"})
        check_pair(pair, ".ssimulacra2.nofma.bt709_full.json",
                   {{"matrix", "bt709"}, {"range", "full"}, {"libjxl_fma", "0"}},
                   "ssimulacra2_nofma_matrix_bt709_range_full");
}

TEST_CASE("ssimulacra2 of identical frames is 100", "[ssimulacra2]")
{
    for (VmafPixelFormat fmt : {VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV444P}) {
        const auto gen = hashed(1);
        VmafPicture a = make_picture(fmt, 8, 37, 29, gen), b = make_picture(fmt, 8, 37, 29, gen);
        const Scored s = score_once({}, a, b);
        CHECK(s.err == 0);
        CHECK(s.value == 100.0);
        VmafPicture c = make_picture(fmt, 8, 37, 29, hashed(2));
        const Scored d = score_once({}, a, c);
        CHECK(d.err == 0);
        CHECK(d.value < 100.0);
        vmaf_picture_unref(&a);
        vmaf_picture_unref(&b);
        vmaf_picture_unref(&c);
    }
}

TEST_CASE("ssimulacra2 rejects bad options and pictures below 8x8", "[ssimulacra2]")
{
    FeatureOptions o;
    std::string err;
    CHECK(FeatureOptions::parse(kSsimulacra2Extractor.options, {{"matrix", "bt470"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kSsimulacra2Extractor.options, {{"range", "tv"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kSsimulacra2Extractor.options, {{"no_such_option", "1"}}, &o, &err) == -EINVAL);
    CHECK(use_with("ssimulacra2", {{"matrix", "bt470"}}) < 0);
    CHECK(use_with("ssimulacra2", {{"matrix", "bt2020"}, {"range", "full"}}) == 0);

    const auto gen = hashed(3);
    for (const auto &[w, h] : {std::pair{7u, 8u}, std::pair{8u, 7u}, std::pair{1u, 1u}}) {
        VmafPicture a = make_picture(VMAF_PIX_FMT_YUV420P, 8, w, h, gen);
        CHECK(score_once({}, a, a).err == -EINVAL);
        vmaf_picture_unref(&a);
    }
    // 8x8 is libjxl's smallest: two scales (8x8 and 4x4), scored.
    VmafPicture a = make_picture(VMAF_PIX_FMT_YUV420P, 8, 8, 8, gen);
    const Scored s = score_once({}, a, a);
    CHECK(s.err == 0);
    CHECK(s.value == 100.0);
    vmaf_picture_unref(&a);
    VmafPicture g = make_picture(VMAF_PIX_FMT_YUV400P, 8, 16, 16, gen);
    CHECK(score_once({}, g, g).err == -EINVAL);
    vmaf_picture_unref(&g);
}

TEST_CASE("ssimulacra2: the portable and the AVX2 kernels agree bit for bit", "[ssimulacra2]")
{
    // Golden pairs (322 columns leave a tail of 2 after groups of 8) and a
    // picture of odd size.
    std::vector<FramePairs> inputs;
    for (const char *pair : {"chelsea_322x186_rescale", "rocket_320x240_10bit_crf30", "astronaut_320x240_422_crf33"})
        inputs.push_back(golden_frames(pair));
    inputs.push_back(hashed_pair(45, 23));
    check_kernels_agree(kSsimulacra2Extractor, create_ssimulacra2_cpu, std::move(inputs));
}

TEST_CASE("ssimulacra2: the portable fused multiply-add rounds as fmaf", "[ssimulacra2]")
{
    // Random bit patterns, and products cancelled by c so that the sum lands
    // near halfway cases of the float grid.
    uint64_t state = 0x9e3779b97f4a7c15u;
    const auto next = [&state] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return uint32_t(state >> 16);
    };
    const auto bits = [](uint32_t u) {
        float f;
        std::memcpy(&f, &u, sizeof f);
        return f;
    };
    unsigned mismatches = 0, checked = 0;
    for (int i = 0; i < 2000000; i++) {
        const float a = bits(next()), b = bits(next());
        float c = bits(next());
        if (i % 2) {
            // c = -(a * b rounded), nudged by a few ulps: the exact low bits decide.
            const float p = a * b;
            uint32_t u;
            std::memcpy(&u, &p, sizeof u);
            c = -bits(u + (next() % 5) - 2);
        } else if (i % 4 == 2) {
            c = float(std::ldexp(double(bits(0x3f800000u | (next() >> 9))), int(next() % 40) - 20));
        }
        const float want = std::fma(a, b, c), got = ssimulacra2::fma_by_double(a, b, c);
        uint32_t uw, ug;
        std::memcpy(&uw, &want, sizeof uw);
        std::memcpy(&ug, &got, sizeof ug);
        checked++;
        if (uw != ug && !(std::isnan(want) && std::isnan(got))) mismatches++;
    }
    // Exact sums just off a float halfway point by less than half a double
    // ulp, where rounding to double and then to float would go the wrong way:
    // (1 + 2^-k)(1 - 2^-k) 2^-24 + (1 + 2^-23), scaled and with either sign.
    for (int k = 12; k <= 23; k++)
        for (int e = -60; e <= 60; e += 15)
            for (const float sign : {1.0f, -1.0f})
                for (const float dir : {1.0f, -1.0f}) {
                    const float a = sign * std::ldexp(1.0f + std::ldexp(1.0f, -k), e - 12);
                    const float b = std::ldexp(1.0f - dir * std::ldexp(1.0f, -k), -12);
                    const float c = sign * std::ldexp(1.0f + std::ldexp(1.0f, -23), e);
                    const float want = std::fma(a, b, c), got = ssimulacra2::fma_by_double(a, b, c);
                    checked++;
                    if (std::memcmp(&want, &got, sizeof want)) mismatches++;
                }
    // The same below the normal floats, where a float drops more than 29 of
    // the double's bits: c an odd number of the smallest floats near 2^-127,
    // a * b = 2^-150 (1 -+ 2^-46), so that the double sum is halfway.
    for (const float sign : {1.0f, -1.0f})
        for (const float dir : {1.0f, -1.0f}) {
            const float a = sign * std::ldexp(1.0f + std::ldexp(1.0f, -23), -75);
            const float b = std::ldexp(1.0f - dir * std::ldexp(1.0f, -23), -75);
            const float c = sign * std::ldexp(float((1 << 22) + 1), -149);
            const float want = std::fma(a, b, c), got = ssimulacra2::fma_by_double(a, b, c);
            checked++;
            if (std::memcmp(&want, &got, sizeof want)) mismatches++;
        }
    INFO(mismatches << " of " << checked);
    CHECK(mismatches == 0);
    CHECK(ssimulacra2::fma_by_double(0.1f, 10.0f, -1.0f) == std::fma(0.1f, 10.0f, -1.0f));
    CHECK(ssimulacra2::fma_by_double(0.1f, 10.0f, -1.0f) != 0.1f * 10.0f - 1.0f);
}
