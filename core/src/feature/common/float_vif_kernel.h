// SPDX-License-Identifier: BSD-2-Clause-Patent
// The per-sample arithmetic of float VIF, written as small functions a shader
// can mirror: kernel taps, edge mirroring, the fast log2 and the per-pixel
// statistic. Every expression keeps libvmaf's operand types (float, or double
// where libvmaf mixes in a double option) and its order of operations.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "feature/common/float_vif_tables.h"

namespace vmaf::float_vif {

// Mirror an index into [0, n) without repeating the edge sample:
// -1 -> 1, n -> n - 2. Valid while |overshoot| < n.
inline int mirror(int i, int n)
{
    return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}

inline bool valid_kernel_scale(float ks)
{
    for (float v : kValidKernelScales)
        if (std::fabs(ks - v) < kKernelScaleTolerance) return true;
    return false;
}

// Taps of scale `scale`'s Gaussian (17, 9, 5, 3 at kernelscale 1).
inline int filter_taps(int scale, float kernelscale)
{
    const int n = (1 << (4 - scale)) + 1;
    int taps = int(std::ceil(double(float(n) * kernelscale)));
    if (taps % 2 == 0) taps++;
    return taps < kMinTaps ? kMinTaps : taps;
}

// One normalised Gaussian of `taps` taps with sigma = taps / 5: each tap is
// exp(...) / (1 / (sigma sqrt(2 pi))) rounded to float, then divided by the
// float sum of all taps.
struct Kernel {
    int taps = 0;
    float f[kMaxTaps] = {};
    int radius() const { return taps / 2; }
};

inline float gaussian_tap(float x, float sigma)
{
    const double d = double(x);  // x - mean with mean 0, exact in float
    const float num = float(std::exp(-0.5 * d / double(sigma) * d / double(sigma)));
    const float den = float(1 / (double(sigma) * std::sqrt(2 * M_PI)));
    return num / den;
}

inline Kernel gaussian_kernel(int taps, float sigma)
{
    Kernel k;
    k.taps = taps;
    float sum = 0.0f;
    const int half = (taps - 1) / 2;
    for (int i = 0; i < taps; i++) {
        k.f[i] = gaussian_tap(float(i - half), sigma);
        sum += k.f[i];
    }
    for (int i = 0; i < taps; i++) k.f[i] /= sum;
    return k;
}

inline Kernel scale_kernel(int scale, float kernelscale)
{
    const int taps = filter_taps(scale, kernelscale);
    return gaussian_kernel(taps, float(taps) / kSigmaDivisor);
}

// log2 from the exponent bits plus a polynomial of the mantissa.
inline float log2_approx(float x)
{
    if (x == 0) return -std::numeric_limits<float>::infinity();
    if (x < 0) return std::numeric_limits<float>::quiet_NaN();
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const uint32_t exponent = (bits & kExponentMask) >> 23;
    const uint32_t mant_bits = (bits & kMantissaMask) | kFloatOneBits;
    float mant;
    std::memcpy(&mant, &mant_bits, sizeof mant);
    const float base = float(int32_t(exponent) - kExponentBias);
    const float t = mant - 1.0f;
    float poly = 0.0f;
    for (int i = 0; i < kLog2PolyLen; i++) poly = poly * t + kLog2Poly[i];
    return base + poly;
}

// Settings of the statistic that stay fixed over a run.
struct StatParams {
    float gain_limit;      // vif_enhn_gain_limit as float
    double sigma_nsq;      // vif_sigma_nsq, kept double as libvmaf does
    float sigma_max_inv;   // powf(sigma_nsq, 2) / 255^2, rounded to float
};

inline StatParams stat_params(double gain_limit, double sigma_nsq)
{
    StatParams p;
    p.gain_limit = float(gain_limit);
    p.sigma_nsq = sigma_nsq;
    p.sigma_max_inv = float(double(powf(float(sigma_nsq), 2.0f)) / (255.0 * 255.0));
    return p;
}

struct PixelStat {
    float num, den;
};

// One pixel's information terms from the local means (mu1 of the reference,
// mu2 of the distorted) and the filtered squares and product.
inline PixelStat pixel_stat(float mu1, float mu2, float xx, float yy, float xy, const StatParams &p)
{
    float sigma1_sq = xx - mu1 * mu1;
    float sigma2_sq = yy - mu2 * mu2;
    const float sigma12 = xy - mu1 * mu2;

    sigma1_sq = sigma1_sq > 0.0f ? sigma1_sq : 0.0f;
    sigma2_sq = sigma2_sq > 0.0f ? sigma2_sq : 0.0f;

    float g = sigma12 / (sigma1_sq + kEps);
    float sv_sq = sigma2_sq - g * sigma12;
    if (sigma1_sq < kEps) {
        g = 0.0f;
        sv_sq = sigma2_sq;
        sigma1_sq = 0.0f;
    }
    if (sigma2_sq < kEps) {
        g = 0.0f;
        sv_sq = 0.0f;
    }
    if (g < 0.0f) {
        sv_sq = sigma2_sq;
        g = 0.0f;
    }
    sv_sq = sv_sq > kEps ? sv_sq : kEps;
    g = g < p.gain_limit ? g : p.gain_limit;

    // The divisions and the 1 + ... run in double (sigma_nsq is a double);
    // the log's argument is rounded to float.
    float num = log2_approx(float(1.0 + double(g * g * sigma1_sq) / (double(sv_sq) + p.sigma_nsq)));
    float den = log2_approx(float(1.0 + double(sigma1_sq) / p.sigma_nsq));
    if (sigma12 < 0.0f) num = 0.0f;
    if (double(sigma1_sq) < p.sigma_nsq) {
        num = 1.0f - sigma2_sq * p.sigma_max_inv;
        den = 1.0f;
    }
    return {num, den};
}

}  // namespace vmaf::float_vif
