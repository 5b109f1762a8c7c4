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

#include "feature/common/srgb.h"
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

using srgb::Conversion;

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

using srgb::fma_by_double;

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
