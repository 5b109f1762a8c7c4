// SPDX-License-Identifier: BSD-2-Clause-Patent
// The per-element arithmetic of SpEED-QA, written as small functions a shader
// can mirror. Every expression keeps libvmaf's operand types: float storage,
// with double where libvmaf mixes in a double (its sqrt, log2 and the 1e-6
// thresholds), and its order of operations. Nothing is fused except where
// libvmaf's x86-64 build fuses (the covariance sums, see cov_sum).
#pragma once

#include <cmath>
#include <cstddef>

#include "feature/speed/speed_tables.h"

namespace vmaf::speed {

inline float sign_of(float x)
{
    return x >= 0 ? 1.0f : -1.0f;
}

// sqrt(x^2 + y^2): the squares summed in float, the root taken in double.
inline float hypot_f(float x, float y)
{
    return float(std::sqrt(double(x * x + y * y)));
}

// A float sum of squares, rooted in double.
inline float norm_f(float sum_sq)
{
    return float(std::sqrt(double(sum_sq)));
}

// A Givens rotation (c, s) that zeroes b against a.
inline void givens(float a, float b, float *c, float *s)
{
    if (b == 0) {
        *c = 1;
        *s = 0;
    } else if (std::fabs(b) > std::fabs(a)) {
        const float t = -a / b;
        const float s1 = float(1.0 / std::sqrt(double(1 + t * t)));
        *s = s1;
        *c = s1 * t;
    } else {
        const float t = -b / a;
        const float c1 = float(1.0 / std::sqrt(double(1 + t * t)));
        *c = c1;
        *s = c1 * t;
    }
}

// Whether a subdiagonal element is negligible next to its two diagonal
// neighbours (compared in double).
inline bool negligible(float sd, float d0, float d1)
{
    return double(std::fabs(sd)) < kEps * double(std::fabs(d0) + std::fabs(d1));
}

// One row's share of the covariance sum of two windows with double means, in
// the order of libvmaf's AVX2 kernel: runs of 8 samples go to two 4-lane
// accumulators (samples 0-3 to acc0, 4-7 to acc1), then runs of 4 to acc0,
// each step a fused multiply-add of the centred samples; the last 0-3 samples
// go to a plain double tail sum (multiply, then add).
struct CovAcc {
    double acc0[4] = {0, 0, 0, 0};
    double acc1[4] = {0, 0, 0, 0};
    double tail = 0.0;

    double total() const
    {
        double lane[4];
        for (int l = 0; l < 4; l++) lane[l] = acc0[l] + acc1[l];
        return lane[0] + lane[1] + lane[2] + lane[3] + tail;
    }
};

inline void cov_row(const float *x, const float *y, std::size_t w, double mx, double my, CovAcc &a)
{
    std::size_t j = 0;
    for (; j + 7 < w; j += 8) {
        for (int l = 0; l < 4; l++) {
            a.acc0[l] = std::fma(double(x[j + l]) - mx, double(y[j + l]) - my, a.acc0[l]);
            a.acc1[l] = std::fma(double(x[j + 4 + l]) - mx, double(y[j + 4 + l]) - my, a.acc1[l]);
        }
    }
    for (; j + 3 < w; j += 4)
        for (int l = 0; l < 4; l++) a.acc0[l] = std::fma(double(x[j + l]) - mx, double(y[j + l]) - my, a.acc0[l]);
    for (; j < w; j++) {
        const double p = (double(x[j]) - mx) * (double(y[j]) - my);
        a.tail += p;
    }
}

// log2(2 pi e), the entropy of a unit Gaussian.
inline double log2_two_pi_e()
{
    return std::log2(2 * M_PI * M_E);
}

// One eigenvalue's term of a block's entropy: entropy += log2(L * S + sigma_nn)
// + log2(2 pi e), the product and sum in float, the logs and the addition in
// double, the result rounded to float.
inline float add_entropy(float entropy, float eigenvalue, float variance, float sigma_nn)
{
    const float arg = eigenvalue * variance + sigma_nn;
    return float(double(entropy) + (std::log2(double(arg)) + log2_two_pi_e()));
}

// The entropy a block at the noise floor has: kBlockElems * (log2((1 +
// nn_floor) * sigma_nn) + log2(2 pi e)), rounded to float.
inline float base_entropy(float sigma_nn, float nn_floor)
{
    return float(double(kBlockElems) * (std::log2(double((1 + nn_floor) * sigma_nn)) + log2_two_pi_e()));
}

// entropy * log2(1 + variance), with the variance weight chosen by
// speed_weight_var_mode (see weighted_difference).
inline float spatial(float entropy, float weight_arg_f)
{
    return float(double(entropy) * std::log2(double(1 + weight_arg_f)));
}
inline float spatial_d(float entropy, double weight_arg)
{
    return float(double(entropy) * std::log2(1 + weight_arg));
}

// |spatial_ref - spatial_dis| of one block for speed_weight_var_mode 0..6:
// 0 weighs each side by its own variance, 1 both by the reference's, 2 both
// by the distorted's, 3 both by their mean, 4-6 the reference by its own and
// the distorted by the mean, 3:1 and 1:3 mixes of the two.
inline float weighted_difference(int mode, float e_ref, float e_dis, float v_ref, float v_dis)
{
    float sr = 0.0f, sd = 0.0f;
    switch (mode) {
    case 0:
        sr = spatial(e_ref, v_ref);
        sd = spatial(e_dis, v_dis);
        break;
    case 1:
        sr = spatial(e_ref, v_ref);
        sd = spatial(e_dis, v_ref);
        break;
    case 2:
        sr = spatial(e_ref, v_dis);
        sd = spatial(e_dis, v_dis);
        break;
    case 3:
        sr = spatial_d(e_ref, double(v_ref + v_dis) / 2.0);
        sd = spatial_d(e_dis, double(v_ref + v_dis) / 2.0);
        break;
    case 4:
        sr = spatial(e_ref, v_ref);
        sd = spatial_d(e_dis, double(v_ref + v_dis) / 2.0);
        break;
    case 5:
        sr = spatial(e_ref, v_ref);
        sd = spatial_d(e_dis, 0.75 * double(v_ref) + 0.25 * double(v_dis));
        break;
    default:
        sr = spatial(e_ref, v_ref);
        sd = spatial_d(e_dis, 0.25 * double(v_ref) + 0.75 * double(v_dis));
        break;
    }
    return std::fabs(sr - sd);
}

// The GPU twin's layout (speed_vk.cpp, speed_*.comp): the most taps its
// kernels take for the anti-aliasing blur and the local mean (speed_supports
// declines kernel scales that need more), the 32-bit specialization constant
// ids of those taps, and the covariance kernel's work: the lower triangle of
// the 25 x 25 matrix, each entry summed as CovAcc's kCovLanes accumulators
// (acc0[0..3], acc1[0..3], tail), each by a thread of its own.
namespace gpu {
inline constexpr int kMaxAaTaps = 40;
inline constexpr int kMaxLocalTaps = 12;
inline constexpr int kAaTapsSpecId = 16;
inline constexpr int kLocalTapsSpecId = kAaTapsSpecId + kMaxAaTaps;
inline constexpr int kCovEntries = kBlockElems * (kBlockElems + 1) / 2;
inline constexpr int kCovLanes = 9;
inline constexpr int kCovThreads = 64;
inline constexpr int kTile = 8;  // the blur and local-mean kernels' tiles of kTile x kTile outputs

// CovAcc from the covariance kernel's kCovLanes accumulators of one entry.
inline CovAcc cov_from_lanes(const double lanes[kCovLanes])
{
    CovAcc a;
    for (int l = 0; l < 4; l++) {
        a.acc0[l] = lanes[l];
        a.acc1[l] = lanes[4 + l];
    }
    a.tail = lanes[8];
    return a;
}
}  // namespace gpu

}  // namespace vmaf::speed
