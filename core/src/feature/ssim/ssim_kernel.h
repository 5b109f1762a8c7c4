// SPDX-License-Identifier: BSD-2-Clause-Patent
// The arithmetic of the float SSIM family, one output at a time, in libvmaf's
// order of float and double operations (feature/iqa/convolve.c, decimate.c,
// ssim_tools.c). The portable kernels are loops over these functions; the
// vector kernels (ssim_simd_tmpl.h) do the same operations per lane and hand
// their leftover columns to these; a shader can mirror them.
#pragma once

#include <cmath>
#include <cstddef>

#include "feature/ssim/ssim_tables.h"
#include "util/simd.h"

namespace vmaf::ssim {

// libvmaf's symmetric boundary: -1 -> 0, -2 -> 1, n -> n - 1, n + 1 -> n - 2.
VMAF_INLINE int mirror(int i, int n)
{
    if (i < 0) return -1 - i;
    if (i >= n) return n - (i - n) - 1;
    return i;
}

// One output of a 1D window pass: the float products of samples and taps
// summed in double, tap by tap, and rounded to float.
VMAF_INLINE float window_sum(const float *src, std::ptrdiff_t step, const float *taps, int n)
{
    double sum = 0.0;
    for (int k = 0; k < n; k++) sum += src[k * step] * taps[k];
    return float(sum);
}

// The same over the float products a * b (the second moments' input planes).
VMAF_INLINE float window_sum_product(const float *a, const float *b, const float *taps, int n)
{
    double sum = 0.0;
    for (int k = 0; k < n; k++) {
        const float p = a[k] * b[k];
        sum += p * taps[k];
    }
    return float(sum);
}

// The same down a column: rows[k][x] for k = 0 .. n - 1.
VMAF_INLINE float column_sum(const float *const *rows, std::ptrdiff_t x, const float *taps, int n)
{
    double sum = 0.0;
    for (int k = 0; k < n; k++) sum += rows[k][x] * taps[k];
    return float(sum);
}

// libvmaf's MAX(0.0, v): negative variances become 0 (-0 and NaN pass).
VMAF_INLINE float clamp_variance(float v) { return 0.0f > v ? 0.0f : v; }

// The per-pixel terms of SSIM from the window means and the windowed second
// moments (E[x^2], E[y^2], E[xy]). l and c are double quotients of double
// numerators and float denominators; s is a float quotient.
struct PixelTerms {
    double l, c, s;
};

VMAF_INLINE PixelTerms pixel_terms(float mu1, float mu2, float e11, float e22, float e12)
{
    const float var1 = clamp_variance(e11 - mu1 * mu1);
    const float var2 = clamp_variance(e22 - mu2 * mu2);
    const float cov = e12 - mu1 * mu2;
    // sqrtf equals libvmaf's float(sqrt(double(v))): a double square root
    // rounded to float is the correctly rounded float one.
    const float sigma12 = std::sqrt(var1 * var2);
    PixelTerms t;
    t.l = (2.0 * mu1 * mu2 + kC1) / double(mu1 * mu1 + mu2 * mu2 + kC1);
    t.c = (2.0 * sigma12 + kC2) / double(var1 + var2 + kC2);
    // A flat window of identical planes can leave a tiny negative covariance
    // with zero deviations: libvmaf takes it as 0 so that s is 1.
    const float cov_clamped = (cov < 0.0f && sigma12 <= 0.0f) ? 0.0f : cov;
    t.s = double((cov_clamped + kC3) / (sigma12 + kC3));
    return t;
}

// One output of a 2D low-pass filter at (x, y) of a w x h plane: rows
// outer, columns inner, float products summed in double, mirrored at the
// edges. `taps` is kh x kw, centred at (kw / 2, kh / 2) and, for even sizes,
// reaching one sample further before the centre than after it.
VMAF_INLINE float filter_point(const float *img, int w, int h, int x, int y, const float *taps, int kw, int kh)
{
    const int uc = kw / 2, vc = kh / 2;
    const int u_end = uc - (kw & 1 ? 0 : 1), v_end = vc - (kh & 1 ? 0 : 1);
    double sum = 0.0;
    int k = 0;
    for (int v = -vc; v <= v_end; v++) {
        const float *row = img + std::ptrdiff_t(mirror(y + v, h)) * w;
        for (int u = -uc; u <= u_end; u++, k++) sum += row[mirror(x + u, w)] * taps[k];
    }
    return float(sum);
}

// One output of MS-SSIM's halving (the 9x9 low-pass filter at column 2x of
// a window of 9 rows), in filter_point's order, from rows split into their
// even and odd samples: even[v][i] = P_v[2i], odd[v][i] = P_v[2i + 1], where
// P_v is row v of the window padded with kLpfHalf mirrored samples on each
// side. Column 2x + t - kLpfHalf of the row is then even[x + t / 2] for even
// t and odd[x + t / 2] for odd t.
VMAF_INLINE float lpf_point(const float *const *even, const float *const *odd, int x)
{
    double sum = 0.0;
    for (int v = 0; v < kLpf; v++)
        for (int t = 0; t < kLpf; t++) {
            const float sample = t & 1 ? odd[v][x + t / 2] : even[v][x + t / 2];
            sum += sample * kLowPass[v][t];
        }
    return float(sum);
}

// libvmaf's size after decimating by `factor`: w / factor, plus one when w
// is odd (whatever the factor).
VMAF_INLINE int decimated_size(int n, int factor) { return n / factor + (n & 1); }

// float_ssim's automatic factor: max(1, round(min(w, h) / 256)), rounding
// halves away from zero as libvmaf's _round does.
inline int auto_scale(int w, int h)
{
    const float a = float(w < h ? w : h) / kAutoScaleSide;
    const int t = int(a);
    const int r = a - t >= 0.5 ? t + (a > 0.0f ? 1 : -1) : t;
    return r > 1 ? r : 1;
}

// The dB cap of clip_db: ceil(10 log10(peak^2 / (0.5 / (w h)))) with the
// input's own peak, (1 << bpc) - 1.
inline double max_db(unsigned bpc, unsigned w, unsigned h)
{
    const unsigned peak = (1u << bpc) - 1;
    const double mse = 0.5 / (w * h);
    return std::ceil(10. * std::log10(peak * peak / mse));
}

// -10 log10(1 - score), capped at `cap` (libvmaf's MIN: a NaN gives the cap).
inline double to_db(double score, double cap)
{
    const double db = -10. * std::log10(1 - score);
    return db < cap ? db : cap;
}

}  // namespace vmaf::ssim
