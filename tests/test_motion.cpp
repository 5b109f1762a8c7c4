// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer motion against Netflix libvmaf's output on every golden pair, plus
// closed forms and thread-count independence.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <vector>

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

namespace {

// The blurred SAD of libvmaf's integer motion, written plainly in 64 bits: a
// 5-tap Q16 blur of the sample difference down the columns ((sum + round) >>
// (bpc == 8 ? 8 : bpc)), then along the rows (Q16 with rounding), mirrored at
// the edges; absolute values summed per row in 32 bits (wrapping), then over rows.
uint64_t model_sad(const std::vector<int64_t> &prev, const std::vector<int64_t> &cur, int w, int h,
                   unsigned bpc)
{
    static constexpr int64_t f[5] = {3571, 16004, 26386, 16004, 3571};
    const int shift = bpc == 8 ? 8 : int(bpc);
    auto mirror = [](int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i; };
    std::vector<int64_t> v(static_cast<size_t>(w));
    uint64_t sad = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++) {
                const int yy = mirror(y - 2 + k, h);
                acc += f[k] * (prev[size_t(yy * w + x)] - cur[size_t(yy * w + x)]);
            }
            v[size_t(x)] = (acc + (int64_t(1) << (shift - 1))) >> shift;
        }
        uint32_t row = 0;
        for (int x = 0; x < w; x++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++) acc += f[k] * v[size_t(mirror(x - 2 + k, w))];
            const int64_t b = (acc + (int64_t(1) << 15)) >> 16;
            row += uint32_t(b < 0 ? -b : b);
        }
        sad += row;
    }
    return sad;
}

}  // namespace

TEST_CASE("motion's SAD equals a plain 64-bit model at every bit depth", "[motion]")
{
    // Random samples with runs of the extremes (the largest differences the
    // blurs can see), odd sizes, a width past a vector's worth.
    for (unsigned bpc : {8u, 10u, 12u, 16u}) {
        for (auto [w, h] : {std::pair{67u, 9u}, std::pair{5u, 3u}, std::pair{130u, 17u}}) {
            const unsigned max = (1u << bpc) - 1;
            uint64_t seed = 0x9e3779b97f4a7c15ull * (bpc + w);
            auto next = [&] {
                seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                return seed;
            };
            VmafContext *vmaf = nullptr;
            VmafConfiguration cfg{};
            REQUIRE(vmaf_init(&vmaf, cfg) == 0);
            REQUIRE(vmaf_use_feature(vmaf, "motion", nullptr) == 0);
            std::vector<std::vector<int64_t>> luma(3, std::vector<int64_t>(size_t(w) * h));
            for (unsigned i = 0; i < 3; i++) {
                VmafPicture r, d;
                REQUIRE(vmaf_picture_alloc(&r, VMAF_PIX_FMT_YUV444P, bpc, w, h) == 0);
                REQUIRE(vmaf_picture_alloc(&d, VMAF_PIX_FMT_YUV444P, bpc, w, h) == 0);
                for (unsigned p = 0; p < 3; p++)
                    for (unsigned y = 0; y < h; y++)
                        for (unsigned x = 0; x < w; x++) {
                            const uint64_t z = next();
                            const unsigned s =
                                (z >> 8) % 4 == 0 ? ((x / 3 + y + i) % 2 ? max : 0) : unsigned(z >> 20) & max;
                            if (p == 0) luma[i][size_t(y) * w + x] = s;
                            for (VmafPicture *pic : {&r, &d}) {
                                auto *row = static_cast<uint8_t *>(pic->data[p]) + ptrdiff_t(y) * pic->stride[p];
                                if (bpc == 8) row[x] = uint8_t(s);
                                else reinterpret_cast<uint16_t *>(row)[x] = uint16_t(s);
                            }
                        }
                REQUIRE(vmaf_read_pictures(vmaf, &r, &d, i) == 0);
            }
            REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
            for (unsigned i = 1; i < 3; i++) {
                double got = -1;
                REQUIRE(vmaf_feature_score_at_index(vmaf, "VMAF_integer_feature_motion_sad_score", &got, i) == 0);
                const uint64_t sad = model_sad(luma[i - 1], luma[i], int(w), int(h), bpc);
                const double expect = std::min(double(sad) / 256.0 / (double(w) * h), 10000.0);
                INFO("bpc " << bpc << " " << w << "x" << h << " frame " << i);
                CHECK(got == expect);
            }
            vmaf_close(vmaf);
        }
    }
}
