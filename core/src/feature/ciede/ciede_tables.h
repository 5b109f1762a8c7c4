// SPDX-License-Identifier: BSD-2-Clause-Patent
// ciede constants shared by the CPU extractor and its Vulkan twin
// (behaviour of libvmaf's ciede.c: BT.709 YUV -> sRGB -> XYZ (D65) -> CIELAB,
// then CIEDE2000 per pixel with kL = 0.65, kC = 1, kH = 4).
#pragma once

#include <cmath>
#include <cstdint>

namespace vmaf::ciede {

inline constexpr const char *kName = "ciede2000";

inline constexpr double kPi = 3.14159265358979323846;

// The score: 45 - 20 log10(mean dE00).
inline constexpr double kScoreOffset = 45.0;
inline constexpr double kScoreScale = 20.0;

// The score of a frame from its sum of per-pixel dE00 over n pixels.
inline double score(double sum, double n) { return kScoreOffset - kScoreScale * std::log10(sum / n); }

// Video range at 8 bit, scaled by 2^(bpc - 8): black 16, span 219 (luma);
// centre 128, span 224 (chroma).
inline constexpr double kLumaBlack = 16.0, kLumaRange = 219.0;
inline constexpr double kChromaZero = 128.0, kChromaRange = 224.0;

// What a sample is shifted by and scaled with, per plane kind, at bpc bits.
struct Normalization {
    double luma_black, luma_scale, chroma_zero, chroma_scale;
};
inline Normalization normalization(unsigned bpc)
{
    const double scale = double(1u << (bpc - 8));
    return {kLumaBlack * scale, 1.0 / (kLumaRange * scale), kChromaZero * scale, 1.0 / (kChromaRange * scale)};
}

// Entries per channel of ciede::linear_rb_table_8bit() (ciede.h): one per pair
// of 8-bit samples. Deeper input has no table: a 10-bit one (16 MiB, some 0.1 s
// to build) gained only 3% on the GPU and 9% on 16 CPU threads
// (docs/features/ciede.md, ADR 0046).
inline constexpr unsigned kLinearTableSide = 1u << 16;

// BT.709 YUV -> R'G'B'.
inline constexpr double kRFromV = 1.28033;
inline constexpr double kGFromU = 0.21482, kGFromV = 0.38059;
inline constexpr double kBFromU = 2.12798;

// sRGB transfer: linear below 10/255, else ((c + 0.055) / 1.055)^2.4.
inline constexpr double kSrgbKnee = 10.0 / 255.0;
inline constexpr double kSrgbOffset = 0.055;
inline constexpr double kSrgbInvScale = 1.0 / 1.055;
inline constexpr double kSrgbGamma = 2.4;
inline constexpr double kSrgbInvSlope = 1.0 / 12.92;

// Linear sRGB -> XYZ (rows X, Y, Z; columns R, G, B).
inline constexpr double kXyz[3][3] = {
    {0.4124564390896921, 0.357576077643909, 0.18043748326639894},
    {0.21267285140562248, 0.715152155287818, 0.07217499330655958},
    {0.019333895582329317, 0.119192025881303, 0.9503040785363677},
};

// D65 white: X and Z are divided by these (Y by 1).
inline constexpr double kInvWhiteX = 1.0 / 0.95047;
inline constexpr double kInvWhiteZ = 1.0 / 1.08883;

// CIELAB's f(t): cube root above epsilon, (kappa t + 16) / 116 below.
inline constexpr double kLabKappa = 24389.0 / 27.0;
inline constexpr double kLabEpsilon = 216.0 / 24389.0;
inline constexpr double kCubeRoot = 1.0 / 3.0;
inline constexpr double kInv116 = 1.0 / 116.0;

// CIELAB from f(X), f(Y), f(Z): L = 116 fy - 16, a = 500 (fx - fy), b = 200 (fy - fz).
inline constexpr double kLabL = 116.0, kLabLOffset = 16.0, kLabA = 500.0, kLabB = 200.0;

// CIEDE2000 (Sharma, Wu, Dalal). G's and R_T's chroma knee 25 (raised to the 7th).
inline constexpr double kChromaKnee = 25.0;
inline constexpr float kChromaKneeF = 25.0f;
// S_L: 1 + kSl (L - 50)^2 / sqrt(kSlOffset + (L - 50)^2); S_C = 1 + kSc C';
// S_H = 1 + kSh C' T.
inline constexpr float kLightnessMid = 50.0f;
inline constexpr double kSl = 0.015, kSlOffset = 20.0, kSc = 0.045, kSh = 0.015;
// T = 1 - kT1 cos(h - pi/6) + kT2 cos(2h) + kT3 cos(3h + pi/30) - kT4 cos(4h - 63 deg).
inline constexpr double kT1 = 0.17, kT2 = 0.24, kT3 = 0.32, kT4 = 0.20;
// R_T's hue bump: angle kRtAngle exp(-((h - kRtCentre) / kRtWidth)^2) degrees.
inline constexpr double kRtCentre = 275.0, kRtWidth = 25.0, kRtAngle = 60.0;

// C'^7 in R_T, as libvmaf takes it: the C library's powf (not correctly
// rounded: one ulp off for about 0.07 % of arguments with glibc).
inline float chroma_power7(float c) { return ::powf(c, 7.0f); }

// CIEDE2000 weights, as float.
inline constexpr float kWeightL = float(0.65), kWeightC = 1.0f, kWeightH = 4.0f;

// libvmaf's picture layout, which its chroma upsampling reads past row ends
// into: rows of a plane padded to a multiple of 32 samples (padding zeroed),
// the Cr plane right after the Cb plane.
inline constexpr unsigned kLibvmafRowAlign = 32;

// libvmaf's chroma planes of a w x h picture with chroma shifts ss_x, ss_y:
// their size (rounded down) and row pitch in samples (0 when a subsampled
// picture is one sample wide: no chroma).
struct LibvmafChromaLayout {
    unsigned w, h, stride;
};
inline LibvmafChromaLayout libvmaf_chroma_layout(unsigned ss_x, unsigned ss_y, unsigned w, unsigned h)
{
    const unsigned wc = w >> ss_x, hc = h >> ss_y;
    return {wc, hc, (wc + kLibvmafRowAlign - 1) & ~(kLibvmafRowAlign - 1)};
}

// The Vulkan kernel's layout (feature/ciede/ciede_de.comp, feature/ciede/ciede_vk.cpp).
namespace gpu {
// A workgroup of 32 x 8 threads owns a tile of 32 x 32 pixels.
inline constexpr uint32_t kTileW = 32, kTileH = 32;
// The kernel rounds C'^7 correctly; where the exact power lies within
// 2^-kAmbiguityBits of a float ulp of a rounding boundary, powf may round the
// other way (glibc's worst seen: 2^-8.5 ulp, 4e7 arguments) and the kernel
// also evaluates the pixel with the other neighbour. Where that changes the
// pixel's dE00, the tile sums the change (dE00 with the other neighbour minus
// dE00 with the exact one) per value of C' (flat areas repeat one), for up to
// kSettleKeys values, and the host adds each sum where powf does round C'^7
// the other way.
inline constexpr int32_t kAmbiguityBits = 6;
inline constexpr uint32_t kSettleKeys = 4;
// A tile's slot in 32-bit words: the double sum, the number of C' values
// recorded, the number of pixels left unsettled (past kSettleKeys values), then
// per value: C', C'^7 as the kernel took it, the double sum of changes.
inline constexpr uint32_t kKeyWords = 4;
inline constexpr uint32_t kSlotWords = 4 + kSettleKeys * kKeyWords;
}  // namespace gpu

}  // namespace vmaf::ciede
