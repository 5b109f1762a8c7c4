// SPDX-License-Identifier: BSD-2-Clause-Patent
// What the features scored on RGB pictures share (ssimulacra2, butteraugli):
// the YUV -> RGB conversion this project defines (docs/features/ssimulacra2.md)
// and libjxl's sRGB -> linear transfer function (libjxl 0.11:
// lib/jxl/cms/transfer_functions-inl.h, TF_SRGB::DisplayFromEncoded), whose
// float values the scores depend on bit for bit; and a * b + c rounded once
// without FMA instructions.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "feature/extractor.h"
#include "libvmaf/picture.h"

namespace vmaf::srgb {

// ---- YUV -> RGB ----

// Luma weights (Kr, Kb) of the matrices the `matrix` option names.
struct LumaWeights {
    double kr, kb;
};
inline constexpr LumaWeights kBt601 = {0.299, 0.114};
inline constexpr LumaWeights kBt709 = {0.2126, 0.0722};
inline constexpr LumaWeights kBt2020 = {0.2627, 0.0593};
// matrix=auto: BT.709 above this height, BT.601 up to it (as the VapourSynth
// tools decide for clips without matrix metadata).
inline constexpr unsigned kAutoHdHeight = 650;

// YUV -> RGB: normalized = (sample - off) / scale; R = Y + cr_r Cr,
// G = Y - cb_g Cb - cr_g Cr, B = Y + cb_b Cb, each clamped to [0, 1].
struct Conversion {
    double y_off, y_scale, c_off, c_scale;
    double cr_r, cb_g, cr_g, cb_b;
};

// The conversion the options `matrix` (auto, bt601, bt709, bt2020) and
// `range` (full or not) name for this format.
Conversion conversion_for(const FrameFormat &fmt, const std::string &matrix, bool full);

// The options of the features scored on RGB pictures: the conversion's, and
// libjxl's multiply-adds fused or not.
inline constexpr OptionSpec kMatrixOption = {
    "matrix", nullptr, OptType::String, 0, 0, 0, true,
    "YUV -> RGB matrix: auto (bt709 above 650 lines, else bt601), bt601, bt709 or bt2020", "auto",
    "auto|bt601|bt709|bt2020"};
inline constexpr OptionSpec kRangeOption = {
    "range", nullptr, OptType::String, 0, 0, 0, true,
    "YUV sample range: limited (16-235 luma, 16-240 chroma at 8 bits) or full", "limited", "limited|full"};
inline constexpr OptionSpec kLibjxlFmaOption = {
    "libjxl_fma", "nofma", OptType::Bool, 1, 0, 1, true,
    "fuse multiply-adds as libjxl's AVX2/AVX-512 code does (0: as its SSE2/SSE4 code)"};

// 0 where feature `name` can score this format (chroma planes, at least
// min_side samples in each direction), else -EINVAL and one log line saying
// why.
int check_format(const FrameFormat &fmt, const char *name, unsigned min_side);

// YUV samples (as doubles, chroma repeated) -> RGB clamped to [0, 1], n
// pixels: normalization, matrix and clamp in double, then rounded to float.
inline void rgb_row(const double *ys, const double *us, const double *vs, std::size_t n, const Conversion &cv,
                    float *r, float *g, float *b)
{
    const auto clamp01 = [](double v) { return float(std::min(std::max(v, 0.0), 1.0)); };
    for (std::size_t x = 0; x < n; x++) {
        const double yn = (ys[x] - cv.y_off) / cv.y_scale;
        const double cb = (us[x] - cv.c_off) / cv.c_scale;
        const double cr = (vs[x] - cv.c_off) / cv.c_scale;
        r[x] = clamp01(yn + cv.cr_r * cr);
        g[x] = clamp01(yn - cv.cb_g * cb - cv.cr_g * cr);
        b[x] = clamp01(yn + cv.cb_b * cb);
    }
}

// One picture to RGB, row by row: the samples as doubles (chroma repeated
// over the luma samples it covers; T the sample type), then `row` (rgb_row()
// or a vector build of it). `rows` holds 3 w doubles.
template <typename T, typename RowFn>
void picture_to_rgb(const VmafPicture &pic, const Conversion &cv, unsigned ss_x, unsigned ss_y, unsigned w,
                    unsigned h, RowFn row, double *rows, float *r, float *g, float *b)
{
    double *ys = rows, *us = rows + w, *vs = rows + 2 * std::size_t(w);
    for (unsigned y = 0; y < h; y++) {
        const T *ly = reinterpret_cast<const T *>(static_cast<const uint8_t *>(pic.data[0]) +
                                                  std::ptrdiff_t(y) * pic.stride[0]);
        const T *lu = reinterpret_cast<const T *>(static_cast<const uint8_t *>(pic.data[1]) +
                                                  std::ptrdiff_t(y >> ss_y) * pic.stride[1]);
        const T *lv = reinterpret_cast<const T *>(static_cast<const uint8_t *>(pic.data[2]) +
                                                  std::ptrdiff_t(y >> ss_y) * pic.stride[2]);
        for (unsigned x = 0; x < w; x++) {
            ys[x] = double(ly[x]);
            us[x] = double(lu[x >> ss_x]);
            vs[x] = double(lv[x >> ss_x]);
        }
        const std::size_t o = std::size_t(y) * w;
        row(ys, us, vs, w, cv, r + o, g + o, b + o);
    }
}

// ---- sRGB -> linear (TF_SRGB::DisplayFromEncoded) ----

inline constexpr float kSrgbThreshold = 0.04045f;
inline constexpr float kSrgbLowDivInv = 1.0f / 12.92f;
// Rational polynomial p(x) / q(x), coefficients of x^0 .. x^4.
inline constexpr float kSrgbP[5] = {2.200248328e-04f, 1.043637593e-02f, 1.624820318e-01f,
                                    7.961564959e-01f, 8.210152774e-01f};
inline constexpr float kSrgbQ[5] = {2.631846970e-01f, 1.076976492e+00f, 4.987528350e-01f,
                                    -5.512498495e-02f, 6.521209011e-03f};

// a * b + c rounded once, without FMA instructions: the product of two floats
// is exact in double; the sum is rounded to double to odd (a result between
// two doubles takes the one with an odd last bit), which then rounds to float
// as the exact value would (53 >= 24 + 2 bits). The same bits as fmaf(), and
// far faster than the C library's fmaf() on processors without FMA, whose
// fallback changes the rounding mode for each call. Rounding to odd moves the
// sum by one unit of the double at most, to an odd double, which is never
// halfway between two floats: it changes the float only where the sum is
// halfway itself (the 29 bits a float drops are 1 then 28 zeros), so every
// other sum in the normal floats' range is rounded at once (as
// ssimulacra2_common.glsl's fma_once, which this function's test covers).
inline float fma_by_double(float a, float b, float c)
{
    const double p = double(a) * double(b), dc = c;
    double s = p + dc;
    uint64_t u;
    std::memcpy(&u, &s, sizeof u);
    if ((u & 0x1fffffffu) != 0x10000000u && std::abs(s) >= double(FLT_MIN)) return float(s);
    if (std::isfinite(s)) {
        const double bv = s - p;
        const double err = (p - (s - bv)) + (dc - bv);  // exact: s + err = p + c
        if (err != 0.0 && !(u & 1)) {
            u += (s > 0) == (err > 0) ? 1 : -1;  // one step towards err
            std::memcpy(&s, &u, sizeof s);
        }
    }
    return float(s);
}

}  // namespace vmaf::srgb
