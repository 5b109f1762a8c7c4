// SPDX-License-Identifier: BSD-2-Clause-Patent
// Constants of the float VIF family (behaviour of libvmaf's float_vif.c,
// vif.c and vif_tools.c), shared by the CPU extractor, float_motion and
// SpEED (so they live in feature/common/, with float_vif_kernel.h,
// float_vif_filter.h and float_vif_scale.h). float_vif and float_motion have
// no Vulkan twin: the GPU backend runs them on the CPU.
#pragma once

#include <cstdint>

namespace vmaf::float_vif {

inline constexpr int kScales = 4;

// Pixels enter as (sample - 128) on the 8-bit scale.
inline constexpr float kPixelOffset = -128.0f;

// Option defaults and ranges.
inline constexpr double kDefaultGainLimit = 100.0;
inline constexpr double kDefaultKernelScale = 1.0;
inline constexpr double kDefaultPrescale = 1.0;
inline constexpr double kDefaultSigmaNsq = 2.0;

// The statistic's floor on variances, in float.
inline constexpr float kEps = 1.0e-10f;

// The kernel scales accepted by vif_kernelscale (as float, matched within 1e-3).
inline constexpr int kNumKernelScales = 21;
inline constexpr float kValidKernelScales[kNumKernelScales] = {
    1.0f,         1.0f / 2.0f,   3.0f / 2.0f,  2.0f,        2.0f / 3.0f,   24.0f / 10.0f, 360.0f / 97.0f,
    4.0f / 3.0f,  3.5f / 3.0f,   3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f,   3.0f,          1.0f / 2.25f,
    1.4746f,      1.54f,         1.6f,         1.06667f,    0.711111f,     0.740740f,     1.111111f,
};
inline constexpr float kKernelScaleTolerance = 1e-3f;

// Gaussian kernels: scale s has (2^(4-s) + 1) * kernelscale taps, rounded up to
// odd and at least 3, with sigma = taps / 5.
inline constexpr int kMaxTaps = 128;
inline constexpr int kMinTaps = 3;
inline constexpr float kSigmaDivisor = 5.0f;

// The fast log2 of the statistic: exponent plus this polynomial (Horner, in
// float, highest power first) of the mantissa minus one. The coefficients are
// doubles rounded to float.
inline constexpr int kLog2PolyLen = 9;
inline constexpr float kLog2Poly[kLog2PolyLen] = {
    float(-0.012671635276421), float(0.064841182402670), float(-0.157048836463065),
    float(0.257167726303123),  float(-0.353800560300520), float(0.480131410397451),
    float(-0.721314327952201), float(1.442694803896991),  float(0.0),
};
inline constexpr uint32_t kFloatOneBits = 0x3F800000u;
inline constexpr uint32_t kExponentMask = 0x7F800000u;
inline constexpr uint32_t kMantissaMask = 0x007FFFFFu;
inline constexpr int kExponentBias = 127;

// Bilinear prescaling keeps its column tables on the stack in libvmaf, which
// caps the scaled width.
inline constexpr int kBilinearMaxWidth = 7680;

// Bicubic (a = -0.75) and Lanczos (a = 4) resampling kernels.
inline constexpr float kBicubicA = -0.75f;
inline constexpr int kLanczosA = 4;

}  // namespace vmaf::float_vif
