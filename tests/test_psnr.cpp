// SPDX-License-Identifier: BSD-2-Clause-Patent
// PSNR against Netflix libvmaf's output on every golden pair, plus closed forms.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf::test;

TEST_CASE("psnr matches libvmaf on every golden pair", "[psnr][golden]")
{
    const std::vector<std::string> names = {"psnr_y", "psnr_cb", "psnr_cr"};
    for (const auto &pair : golden_pairs()) {
        const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
        const auto got = run_pair(pair, {{"psnr", {}}}, names);
        for (const auto &n : names) {
            double max_diff = 0;
            for (size_t i = 0; i < expected.frames.size(); i++)
                max_diff = std::max(max_diff, std::fabs(got.at(n)[i] - expected.frames[i].at(n)));
            INFO(pair << " " << n << " max |diff| " << max_diff);
            CHECK(max_diff <= 1e-4);
            std::printf("%-32s %-8s max|diff| %.3g\n", pair.c_str(), n.c_str(), max_diff);
        }
    }
}

namespace {

// Two flat 4:4:4 pictures differing by `delta` in every luma sample.
void flat_pair(VmafPicture *a, VmafPicture *b, unsigned bpc, unsigned delta)
{
    REQUIRE(vmaf_picture_alloc(a, VMAF_PIX_FMT_YUV444P, bpc, 64, 32) == 0);
    REQUIRE(vmaf_picture_alloc(b, VMAF_PIX_FMT_YUV444P, bpc, 64, 32) == 0);
    for (unsigned p = 0; p < 3; p++) {
        for (unsigned y = 0; y < a->h[p]; y++) {
            for (unsigned x = 0; x < a->w[p]; x++) {
                const unsigned va = 100, vb = p == 0 ? 100 + delta : 100;
                if (bpc == 8) {
                    static_cast<uint8_t *>(a->data[p])[y * a->stride[p] + x] = uint8_t(va);
                    static_cast<uint8_t *>(b->data[p])[y * b->stride[p] + x] = uint8_t(vb);
                } else {
                    reinterpret_cast<uint16_t *>(static_cast<uint8_t *>(a->data[p]) + y * a->stride[p])[x] = uint16_t(va);
                    reinterpret_cast<uint16_t *>(static_cast<uint8_t *>(b->data[p]) + y * b->stride[p])[x] = uint16_t(vb);
                }
            }
        }
    }
}

double score_one(unsigned bpc, unsigned delta, const char *name, const char *opt_key = nullptr,
                 const char *opt_val = nullptr)
{
    VmafConfiguration cfg{};
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    VmafFeatureDictionary *d = nullptr;
    if (opt_key) REQUIRE(vmaf_feature_dictionary_set(&d, opt_key, opt_val) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "psnr", d) == 0);
    VmafPicture a, b;
    flat_pair(&a, &b, bpc, delta);
    REQUIRE(vmaf_read_pictures(vmaf, &a, &b, 0) == 0);
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    double v = -1;
    REQUIRE(vmaf_feature_score_at_index(vmaf, name, &v, 0) == 0);
    vmaf_close(vmaf);
    return v;
}

}  // namespace

TEST_CASE("psnr closed forms: peak, cap and bit depth", "[psnr]")
{
    // MSE = delta^2 everywhere, so PSNR = 10 log10(peak^2 / delta^2).
    CHECK(score_one(8, 5, "psnr_y") == Approx(10 * std::log10(255.0 * 255.0 / 25.0)).epsilon(1e-12));
    CHECK(score_one(10, 7, "psnr_y") == Approx(10 * std::log10(1023.0 * 1023.0 / 49.0)).epsilon(1e-12));
    CHECK(score_one(12, 3, "psnr_y") == Approx(10 * std::log10(4095.0 * 4095.0 / 9.0)).epsilon(1e-12));
    CHECK(score_one(16, 900, "psnr_y") == Approx(10 * std::log10(65535.0 * 65535.0 / 810000.0)).epsilon(1e-12));
    // reduced_hbd_peak: 10-bit peak becomes 255 * 4.
    CHECK(score_one(10, 7, "psnr_y", "reduced_hbd_peak", "true") ==
          Approx(10 * std::log10(1020.0 * 1020.0 / 49.0)).epsilon(1e-12));
    // Identical planes are capped at 6 * bpc + 12.
    CHECK(score_one(8, 5, "psnr_cb") == 60.0);
    CHECK(score_one(10, 5, "psnr_cr") == 72.0);
    CHECK(score_one(8, 0, "psnr_y") == 60.0);
    // enable_mse writes the MSE itself.
    CHECK(score_one(8, 5, "mse_y", "enable_mse", "true") == 25.0);
}

TEST_CASE("psnr apsnr aggregates over the sequence", "[psnr]")
{
    VmafContext *vmaf = nullptr;
    VmafConfiguration cfg{};
    cfg.n_threads = 2;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    VmafFeatureDictionary *d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "enable_apsnr", "true") == 0);
    REQUIRE(vmaf_use_feature(vmaf, "psnr", d) == 0);
    // Frames with squared errors 4 and 16: aggregate MSE 10.
    for (unsigned i = 0; i < 2; i++) {
        VmafPicture a, b;
        flat_pair(&a, &b, 8, i ? 4 : 2);
        REQUIRE(vmaf_read_pictures(vmaf, &a, &b, i) == 0);
    }
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    double y0, y1;
    REQUIRE(vmaf_feature_score_at_index(vmaf, "psnr_y", &y0, 0) == 0);
    REQUIRE(vmaf_feature_score_at_index(vmaf, "psnr_y", &y1, 1) == 0);
    CHECK(y0 == Approx(10 * std::log10(255.0 * 255.0 / 4.0)));
    CHECK(y1 == Approx(10 * std::log10(255.0 * 255.0 / 16.0)));
    vmaf_close(vmaf);
}

TEST_CASE("psnr's SSE is exact at the largest errors and on random samples", "[psnr]")
{
    // mse_y = SSE / n, checked against a plain 64-bit sum; rows wider than a
    // vector with an odd tail, errors of both signs up to the full range.
    for (unsigned bpc : {8u, 10u, 16u}) {
        for (int pattern = 0; pattern < 2; pattern++) {
            const unsigned w = 4099, h = 3, max = (1u << bpc) - 1;
            VmafContext *vmaf = nullptr;
            VmafConfiguration cfg{};
            REQUIRE(vmaf_init(&vmaf, cfg) == 0);
            VmafFeatureDictionary *d = nullptr;
            REQUIRE(vmaf_feature_dictionary_set(&d, "enable_mse", "true") == 0);
            REQUIRE(vmaf_use_feature(vmaf, "psnr", d) == 0);
            VmafPicture a, b;
            REQUIRE(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV444P, bpc, w, h) == 0);
            REQUIRE(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV444P, bpc, w, h) == 0);
            uint64_t seed = 0x2545f4914f6cdd1dull + bpc, sse = 0;
            for (unsigned p = 0; p < 3; p++)
                for (unsigned y = 0; y < h; y++)
                    for (unsigned x = 0; x < w; x++) {
                        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                        const bool hi = (x + y) % 2;
                        const unsigned va = pattern ? unsigned(seed) & max : (hi ? max : 0);
                        const unsigned vb = pattern ? unsigned(seed >> 32) & max : (hi ? 0 : max);
                        if (p == 0) sse += uint64_t((int64_t(va) - vb) * (int64_t(va) - vb));
                        for (auto [pic, v] : {std::pair{&a, va}, std::pair{&b, vb}}) {
                            auto *row = static_cast<uint8_t *>(pic->data[p]) + ptrdiff_t(y) * pic->stride[p];
                            if (bpc == 8) row[x] = uint8_t(v);
                            else reinterpret_cast<uint16_t *>(row)[x] = uint16_t(v);
                        }
                    }
            REQUIRE(vmaf_read_pictures(vmaf, &a, &b, 0) == 0);
            REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
            double mse = -1;
            REQUIRE(vmaf_feature_score_at_index(vmaf, "mse_y", &mse, 0) == 0);
            INFO("bpc " << bpc << " pattern " << pattern);
            CHECK(mse == double(sse) / double(uint64_t(w) * h));
            if (pattern == 0) CHECK(mse == double(max) * double(max));
            vmaf_close(vmaf);
        }
    }
}
