// SPDX-License-Identifier: BSD-2-Clause-Patent
// Per-sample arithmetic of the float ADM, in libvmaf's order of float and
// double operations (adm_tools.c, scalar C: libvmaf has no SIMD float ADM).
// Each function is small and free of buffers' layout so that a shader can
// mirror it line for line.
#pragma once

#include <cmath>

#include "feature/float_adm/float_adm_tables.h"
#include "util/simd.h"

#if VMAF_X86
#include <immintrin.h>
#endif

namespace vmaf::float_adm {

// Index k of a sample in [-1, n + 2) mirrored into [0, n): -1 -> 1,
// n -> n - 1, n + 1 -> n - 2 (the transform's and the masking window's rule).
VMAF_INLINE int mirror(int k, int n)
{
    return k < 0 ? -k : (k >= n ? 2 * n - k - 1 : k);
}

// Rectangles [top, bottom) x [left, right) of an n-sample-wide band.
struct Rect {
    int top, bottom, left, right;
};

// Where scores are summed: the band minus 10 % on each side (truncated).
inline Rect score_rect(int w, int h)
{
    const int left = int(w * kBorderFactor - 0.5);
    const int top = int(h * kBorderFactor - 0.5);
    return {top, h - top, left, w - left};
}

// Where decoupling and the CSF run: the score region widened by one sample,
// and by one more at the far sides, clipped to the band. The far edge is
// taken from the unclipped near one.
inline Rect work_rect(int w, int h)
{
    const int left = int(w * kBorderFactor - 0.5 - 1);
    const int top = int(h * kBorderFactor - 0.5 - 1);
    const int right = w - left + 2;
    const int bottom = h - top + 2;
    return {top < 0 ? 0 : top, bottom > h ? h : bottom, left < 0 ? 0 : left, right > w ? w : right};
}

// ------------------------------------------------------------- wavelet --

// One 4-tap filter of the db2 transform: taps added in order into a float
// accumulator that starts at zero.
VMAF_INLINE float dwt_tap(const float (&f)[4], float s0, float s1, float s2, float s3)
{
    float acc = 0.0f;
    acc += f[0] * s0;
    acc += f[1] * s1;
    acc += f[2] * s2;
    acc += f[3] * s3;
    return acc;
}

// ------------------------------------------------------------ decoupling --

// n / d as libvmaf's x86-64 build divides here: the hardware's approximate
// reciprocal (rcpss, 12 bits) refined by one Newton step, times n. The
// estimate's low bits are the processor's; elsewhere a true quotient stands
// in for it.
VMAF_INLINE float approx_div(float n, float d)
{
#if VMAF_X86
    const float r = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(d)));
    return n * (r + r * (1.0f - d * r));
#else
    return n / d;
#endif
}

VMAF_INLINE float clamp01(float k)
{
    return k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
}

// The restored part of a distorted coefficient t given its reference o: o
// scaled by the clamped ratio, or, where the orientations agree within a
// degree (enhancement), up to `gain_limit` times that, never past t (in
// double, rounded to float).
VMAF_INLINE float restore(float o, float t, float k, bool enhanced, double gain_limit)
{
    float r = k * o;
    if (enhanced && r > 0.0f) {
        const double g = r * gain_limit;
        r = float(g < double(t) ? g : double(t));
    }
    if (enhanced && r < 0.0f) {
        const double g = r * gain_limit;
        r = float(g > double(t) ? g : double(t));
    }
    return r;
}

// Splits the distorted detail (th, tv, td) against the reference (oh, ov, od)
// into restored r[] and additive a[] = t - r.
VMAF_INLINE void decouple(float oh, float ov, float od, float th, float tv, float td, double gain_limit, float r[3],
                          float a[3])
{
    const float kh = clamp01(approx_div(th, oh + kRatioEps));
    const float kv = clamp01(approx_div(tv, ov + kRatioEps));
    const float kd = clamp01(approx_div(td, od + kRatioEps));

    // |angle| < 1 degree between (oh, ov) and (th, tv), without atan.
    const float dot = oh * th + ov * tv;
    const float o_sq = oh * oh + ov * ov;
    const float t_sq = th * th + tv * tv;
    const bool enhanced = dot >= 0.0f && dot * dot >= kCos1DegSq * o_sq * t_sq;

    r[0] = restore(oh, th, kh, enhanced, gain_limit);
    r[1] = restore(ov, tv, kv, enhanced, gain_limit);
    r[2] = restore(od, td, kd, enhanced, gain_limit);
    a[0] = th - r[0];
    a[1] = tv - r[1];
    a[2] = td - r[2];
}

// ---------------------------------------------------- CSF and masking --

// A masker coefficient's contribution to its neighbours' thresholds:
// |csf| / 30, formed in double, stored as float.
VMAF_INLINE float neighbour_mask(float csf)
{
    return float(kOneBy30 * std::fabs(csf));
}

// The masking threshold of one orientation: the 3x3 window of neighbour_mask
// values (rows r0..r2, columns c0..c2, mirrored at the edges) with the centre
// replaced by |csf| / 15, summed in float in row order; the centre term is
// added in double.
VMAF_INLINE float window_threshold(const float *row0, const float *row1, const float *row2, int c0, int c1, int c2,
                                   float centre_csf)
{
    float sum = 0.0f;
    sum += row0[c0];
    sum += row0[c1];
    sum += row0[c2];
    sum += row1[c0];
    sum = float(sum + kOneBy15 * std::fabs(centre_csf));
    sum += row1[c2];
    sum += row2[c0];
    sum += row2[c1];
    sum += row2[c2];
    return sum;
}

// x^p of a non-negative value, p = 3 as a product (libvmaf's fast path).
VMAF_INLINE float power(float x, bool cube, float p)
{
    return cube ? x * x * x : ::powf(x, p);
}

// The masked signal of one coefficient: |csf(x)| less the threshold, at
// least zero.
VMAF_INLINE float masked(float csf_x, float thr)
{
    const float m = std::fabs(csf_x) - thr;
    return m < 0.0f ? 0.0f : m;
}

// The p-norm of summed powers plus the noise floor of a region of `area`
// samples: (area * weight)^(1/p).
VMAF_INLINE float norm_with_noise(float sum, double area_times_weight, float inv_p)
{
    return ::powf(sum, inv_p) + ::powf(float(area_times_weight), inv_p);
}

}  // namespace vmaf::float_adm
