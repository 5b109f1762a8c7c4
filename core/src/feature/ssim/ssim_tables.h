// SPDX-License-Identifier: BSD-2-Clause-Patent
// Constants of the float SSIM family (float_ssim and float_ms_ssim), shared by
// both CPU extractors and their Vulkan twins (ssim_vk.cpp). Values and their float
// rounding are libvmaf's (feature/iqa/ssim_tools.h, ssim.c, ms_ssim.c).
#pragma once

namespace vmaf::ssim {

// The 11-tap Gaussian window (sigma 1.5), applied separably: the same taps
// horizontally and vertically. The window covers only positions where it
// lies wholly inside the plane, so each pass shrinks the plane by 10.
inline constexpr int kWindow = 11;
inline constexpr int kWindowHalf = kWindow / 2;
inline constexpr float kGaussian[kWindow] = {
    0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
    0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f,
};

// Stabilising constants: C1 = (K1 L)^2, C2 = (K2 L)^2, C3 = C2 / 2, each
// step rounded to float (L = 255 whatever the bit depth: planes are on the
// 8-bit scale).
inline constexpr float kK1 = 0.01f, kK2 = 0.03f;
inline constexpr int kL = 255;
inline constexpr float kC1 = (kK1 * kL) * (kK1 * kL);
inline constexpr float kC2 = (kK2 * kL) * (kK2 * kL);
inline constexpr float kC3 = kC2 / 2.0f;

// float_ssim's downscaling: with scale 0 ("auto") the factor is
// max(1, round(min(w, h) / 256)); the low-pass filter is a factor x factor
// box of 1 / factor^2 taps.
inline constexpr int kMaxScaleFactor = 10;
inline constexpr float kAutoScaleSide = 256.0f;

// MS-SSIM: five scales, each half the previous (rounded up), through the 9x9
// low-pass filter of the 9/7 biorthogonal wavelet (not separable in libvmaf:
// its own 2D taps are used).
inline constexpr int kScales = 5;
inline constexpr int kLpf = 9;
inline constexpr int kLpfHalf = kLpf / 2;
inline constexpr float kLowPass[kLpf][kLpf] = {
    {0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f},
    {-0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f},
    {-0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f},
    {0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f},
    {0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f, 0.160885f, -0.047149f, -0.010146f, 0.016114f},
    {0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f},
    {-0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f},
    {-0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f},
    {0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f},
};

// Exponents of each scale's mean luminance, contrast and structure terms
// (Wang's weights; luminance counts only at the coarsest scale).
inline constexpr float kAlpha[kScales] = {0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f};
inline constexpr float kBeta[kScales] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
inline constexpr float kGamma[kScales] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};

// libvmaf refuses MS-SSIM when any of the five scales, halving the size
// rounded down, is narrower or shorter than the window: both sides need at
// least 11 << 4 = 176 samples.
inline constexpr unsigned kMsSsimMinSide = unsigned(kWindow) << (kScales - 1);

}  // namespace vmaf::ssim
