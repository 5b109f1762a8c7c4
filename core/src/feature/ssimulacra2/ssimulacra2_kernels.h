// SPDX-License-Identifier: BSD-2-Clause-Patent
// The builds of ssimulacra2's multiply-add passes (ssimulacra2_kernels_tmpl.h):
// portable, and AVX2 with FMA for processors that have both. The extractor
// picks one set at start-up (kernels()); every set gives the same bits.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "feature/ssimulacra2/ssimulacra2_tables.h"
#include "util/simd.h"

namespace vmaf::ssimulacra2 {

// The recursive Gaussian's constants (Charalampidis 2016, as libjxl computes
// them from sigma).
struct RecursiveGaussian {
    int radius;
    float n2[3], d1[3];
    // Four outputs at once: the multipliers of each of the four lanes, and
    // those of the inputs 1 to 3 places on (zero where a lane has none).
    float mul_prev[3][4], mul_prev2[3][4], mul_in[3][4];
    float mul_in_shifted[3][4][4];
};

// YUV -> RGB: normalized = (sample - off) / scale; R = Y + cr_r Cr,
// G = Y - cb_g Cb - cr_g Cr, B = Y + cb_b Cb, each clamped to [0, 1].
struct Conversion {
    double y_off, y_scale, c_off, c_scale;
    double cr_r, cb_g, cr_g, cb_b;
};

// Floats of scratch per column that blur_plane() needs besides its w x h
// plane: the vertical recursions' state (6) and 8 rows transposed, in and out.
inline constexpr std::size_t kBlurScratch = 6 + 16;

struct KernelSet {
    void (*rgb_row)(const double *ys, const double *us, const double *vs, std::size_t n, const Conversion &cv,
                    float *r, float *g, float *b);
    void (*linearize)(float *v, std::size_t n);
    void (*to_xyb)(const float *r, const float *g, const float *b, std::size_t n, float neg_bias_cbrt, float *x,
                   float *y, float *bo);
    void (*blur_plane)(const RecursiveGaussian &rg, const float *in, float *out, float *temp, float *state, unsigned w,
                       unsigned h);
    void (*ssim_terms)(const float *m1, const float *m2, const float *s11, const float *s22, const float *s12,
                       std::size_t n, double *d, double *d4);
    void (*edge_terms)(const float *img1, const float *mu1, const float *img2, const float *mu2, std::size_t n,
                       double *art, double *art4, double *lost, double *lost4);
};

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
VMAF_INLINE float fma_by_double(float a, float b, float c)
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

namespace generic {
namespace s2 = vmaf::ssimulacra2;
VMAF_INLINE float fmadd(float a, float b, float c) { return fma_by_double(a, b, c); }
template <bool kFused, bool kTop, bool kBottom, bool kOut>
void column_step(const RecursiveGaussian &rg, const float *top, const float *bottom, float *out, float *state,
                 unsigned w);
template <bool kFused>
void blur_rows(const RecursiveGaussian &rg, const float *in, float *out, float *scratch, unsigned w, unsigned h);
#include "feature/ssimulacra2/ssimulacra2_kernels_tmpl.h"
template <bool kFused, bool kTop, bool kBottom, bool kOut>
void column_step(const RecursiveGaussian &rg, const float *top, const float *bottom, float *out, float *state,
                 unsigned w)
{
    blur_column_step<kFused, kTop, kBottom, kOut>(rg, top, bottom, out, state, w);
}
template <bool kFused>
void blur_rows(const RecursiveGaussian &rg, const float *in, float *out, float *, unsigned w, unsigned h)
{
    for (unsigned y = 0; y < h; y++) blur_row<kFused>(rg, in + std::size_t(y) * w, out + std::size_t(y) * w, w);
}
}  // namespace generic

#if VMAF_X86
#include <immintrin.h>

VMAF_BEGIN_TARGET("avx2,fma")
namespace avx2 {
namespace s2 = vmaf::ssimulacra2;
VMAF_INLINE float fmadd(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
template <bool kFused, bool kTop, bool kBottom, bool kOut>
void column_step(const RecursiveGaussian &rg, const float *top, const float *bottom, float *out, float *state,
                 unsigned w);
template <bool kFused>
void blur_rows(const RecursiveGaussian &rg, const float *in, float *out, float *scratch, unsigned w, unsigned h);
#include "feature/ssimulacra2/ssimulacra2_kernels_tmpl.h"
#include "feature/ssimulacra2/ssimulacra2_avx2.h"
}  // namespace avx2
VMAF_END_TARGET
#endif

// The build `which` names (the portable one where the processor lacks AVX2 or
// FMA), fused (libjxl_fma=1) or not. All give the same bits; tests compare
// them.
inline const KernelSet &kernels(bool fused, Kernels which = Kernels::Best)
{
    static const KernelSet kGeneric[2] = {
        {generic::rgb_row, generic::linearize<false>, generic::to_xyb<false>, generic::blur_plane<false>, generic::ssim_terms,
         generic::edge_terms},
        {generic::rgb_row, generic::linearize<true>, generic::to_xyb<true>, generic::blur_plane<true>, generic::ssim_terms,
         generic::edge_terms}};
#if VMAF_X86
    static const KernelSet kAvx2[2] = {
        {avx2::rgb_row_v, avx2::linearize_v<false>, avx2::to_xyb_v<false>, avx2::blur_plane<false>, avx2::ssim_terms_v,
         avx2::edge_terms_v},
        {avx2::rgb_row_v, avx2::linearize_v<true>, avx2::to_xyb_v<true>, avx2::blur_plane<true>, avx2::ssim_terms_v, avx2::edge_terms_v}};
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (has && which != Kernels::Portable) return kAvx2[fused];
#endif
    return kGeneric[fused];
}

}  // namespace vmaf::ssimulacra2
