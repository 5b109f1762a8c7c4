// Integer motion against Netflix libvmaf's output on every golden pair, plus
// closed forms and thread-count independence.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf::test;

namespace {

const std::vector<std::string> kOutputs = {"integer_motion2", "integer_motion3",
                                           "VMAF_integer_feature_motion_sad_score"};

}  // namespace

TEST_CASE("motion matches libvmaf on every golden pair", "[motion][golden]")
{
    for (const auto &pair : golden_pairs()) {
        const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
        const auto got = run_pair(pair, {{"motion", {}}}, kOutputs);
        for (const auto &n : kOutputs) {
            double max_diff = 0;
            for (size_t i = 0; i < expected.frames.size(); i++)
                max_diff = std::max(max_diff, std::fabs(got.at(n)[i] - expected.frames[i].at(n)));
            INFO(pair << " " << n << " max |diff| " << max_diff);
            CHECK(max_diff <= 1e-4);
            std::printf("%-32s %-40s max|diff| %.3g\n", pair.c_str(), n.c_str(), max_diff);
        }
    }
}

TEST_CASE("motion is independent of the thread count", "[motion][threads]")
{
    const auto one = run_pair("coffee_320x240_crf28", {{"motion", {}}, {"psnr", {}}}, kOutputs, 1);
    const auto four = run_pair("coffee_320x240_crf28", {{"motion", {}}, {"psnr", {}}}, kOutputs, 4);
    for (const auto &n : kOutputs) CHECK(one.at(n) == four.at(n));
}

TEST_CASE("motion of a still sequence is zero; force_zero names its output", "[motion]")
{
    // ref == dis and the identical pair's reference still moves, so use the
    // same picture twice: SAD is exactly 0.
    auto pics = load_y4m(data_dir() + "/mandel_176x144_noise_ref.y4m");
    VmafContext *vmaf = nullptr;
    VmafConfiguration cfg{};
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "motion", nullptr) == 0);
    VmafFeatureDictionary *d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "motion_force_zero", "true") == 0);
    REQUIRE(vmaf_use_feature(vmaf, "motion", d) == 0);
    for (unsigned i = 0; i < 3; i++) {
        VmafPicture a, b;
        REQUIRE(vmaf_picture_alloc(&a, pics[0].pix_fmt, pics[0].bpc, pics[0].w[0], pics[0].h[0]) == 0);
        REQUIRE(vmaf_picture_alloc(&b, pics[0].pix_fmt, pics[0].bpc, pics[0].w[0], pics[0].h[0]) == 0);
        for (unsigned p = 0; p < 3; p++) {
            std::memcpy(a.data[p], pics[0].data[p], size_t(a.stride[p]) * a.h[p]);
            std::memcpy(b.data[p], pics[0].data[p], size_t(b.stride[p]) * b.h[p]);
        }
        REQUIRE(vmaf_read_pictures(vmaf, &a, &b, i) == 0);
    }
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    for (unsigned i = 0; i < 3; i++) {
        double m2 = -1, forced = -1;
        REQUIRE(vmaf_feature_score_at_index(vmaf, "integer_motion2", &m2, i) == 0);
        REQUIRE(vmaf_feature_score_at_index(vmaf, "integer_motion2_force_0", &forced, i) == 0);
        CHECK(m2 == 0.0);
        CHECK(forced == 0.0);
    }
    vmaf_close(vmaf);
    unref_all(pics);
}

TEST_CASE("motion rejects out-of-range options", "[motion]")
{
    VmafContext *vmaf = nullptr;
    VmafConfiguration cfg{};
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    VmafFeatureDictionary *d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "motion_blend_factor", "1.5") == 0);
    CHECK(vmaf_use_feature(vmaf, "motion", d) == -EINVAL);
    d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "no_such_option", "1") == 0);
    CHECK(vmaf_use_feature(vmaf, "motion", d) == -EINVAL);
    vmaf_close(vmaf);
}
