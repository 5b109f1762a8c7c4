// SPDX-License-Identifier: BSD-2-Clause-Patent
// The AVX2 and AVX-512 builds of the float SSIM kernels: the kernels are
// written once, in ssim_simd_tmpl.h, and compiled twice below, each inside a
// target region and a namespace of its own with the vector operations of its
// width (as VIF's, ADR 0016). Callers reach them only through the kernel
// sets of ssim_engine.cpp.
#pragma once

#include "feature/ssim/ssim_engine.h"
#include "feature/ssim/ssim_kernel.h"

#if VMAF_X86
#include <immintrin.h>

VMAF_BEGIN_TARGET("avx2")
namespace vmaf::ssim::avx2 {

// L float lanes, and double vectors of L / 2 lanes for their low and high halves.
struct Isa {
    using F = __m256;
    using D = __m256d;
    static constexpr int L = 8;
    static VMAF_INLINE F load(const float *p) { return _mm256_loadu_ps(p); }
    static VMAF_INLINE void store(float *p, F v) { _mm256_storeu_ps(p, v); }
    static VMAF_INLINE F set1(float v) { return _mm256_set1_ps(v); }
    static VMAF_INLINE F add(F a, F b) { return _mm256_add_ps(a, b); }
    static VMAF_INLINE F sub(F a, F b) { return _mm256_sub_ps(a, b); }
    static VMAF_INLINE F mul(F a, F b) { return _mm256_mul_ps(a, b); }
    static VMAF_INLINE F div(F a, F b) { return _mm256_div_ps(a, b); }
    static VMAF_INLINE F sqrt(F a) { return _mm256_sqrt_ps(a); }
    // max(0, v) returns its second operand unless 0 > v: clamp_variance().
    static VMAF_INLINE F max0(F v) { return _mm256_max_ps(_mm256_setzero_ps(), v); }
    // (cov < 0 && sigma12 <= 0) ? 0 : cov, false for NaN as in C.
    static VMAF_INLINE F clamp_cov(F cov, F sigma12)
    {
        const F zero = _mm256_setzero_ps();
        const F m = _mm256_and_ps(_mm256_cmp_ps(cov, zero, _CMP_LT_OQ), _mm256_cmp_ps(sigma12, zero, _CMP_LE_OQ));
        return _mm256_blendv_ps(cov, zero, m);
    }
    static VMAF_INLINE D lo(F v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
    static VMAF_INLINE D hi(F v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }
    static VMAF_INLINE F narrow(D lo, D hi)
    {
        return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1);
    }
    static VMAF_INLINE D zerod() { return _mm256_setzero_pd(); }
    static VMAF_INLINE D set1d(double v) { return _mm256_set1_pd(v); }
    static VMAF_INLINE D addd(D a, D b) { return _mm256_add_pd(a, b); }
    static VMAF_INLINE D muld(D a, D b) { return _mm256_mul_pd(a, b); }
    static VMAF_INLINE D divd(D a, D b) { return _mm256_div_pd(a, b); }
    static VMAF_INLINE void stored(double *p, D v) { _mm256_storeu_pd(p, v); }
};

#include "feature/ssim/ssim_simd_tmpl.h"

}  // namespace vmaf::ssim::avx2
VMAF_END_TARGET

VMAF_BEGIN_TARGET(VMAF_TARGET_AVX512)
namespace vmaf::ssim::avx512 {

struct Isa {
    using F = __m512;
    using D = __m512d;
    static constexpr int L = 16;
    static VMAF_INLINE F load(const float *p) { return _mm512_loadu_ps(p); }
    static VMAF_INLINE void store(float *p, F v) { _mm512_storeu_ps(p, v); }
    static VMAF_INLINE F set1(float v) { return _mm512_set1_ps(v); }
    static VMAF_INLINE F add(F a, F b) { return _mm512_add_ps(a, b); }
    static VMAF_INLINE F sub(F a, F b) { return _mm512_sub_ps(a, b); }
    static VMAF_INLINE F mul(F a, F b) { return _mm512_mul_ps(a, b); }
    static VMAF_INLINE F div(F a, F b) { return _mm512_div_ps(a, b); }
    static VMAF_INLINE F sqrt(F a) { return _mm512_maskz_sqrt_ps(0xffff, a); }
    static VMAF_INLINE F max0(F v) { return _mm512_maskz_max_ps(0xffff, _mm512_setzero_ps(), v); }
    static VMAF_INLINE F clamp_cov(F cov, F sigma12)
    {
        const F zero = _mm512_setzero_ps();
        const __mmask16 m = _mm512_cmp_ps_mask(cov, zero, _CMP_LT_OQ) & _mm512_cmp_ps_mask(sigma12, zero, _CMP_LE_OQ);
        return _mm512_mask_blend_ps(m, cov, zero);
    }
    // The zero-masked forms with a full mask: the unmasked ones trip GCC 12's
    // -Wmaybe-uninitialized through their undefined pass-through operand.
    static VMAF_INLINE D lo(F v) { return _mm512_maskz_cvtps_pd(0xff, _mm512_maskz_extractf32x8_ps(0xff, v, 0)); }
    static VMAF_INLINE D hi(F v) { return _mm512_maskz_cvtps_pd(0xff, _mm512_maskz_extractf32x8_ps(0xff, v, 1)); }
    static VMAF_INLINE F narrow(D lo, D hi)
    {
        return _mm512_maskz_insertf32x8(0xffff, _mm512_castps256_ps512(_mm512_maskz_cvtpd_ps(0xff, lo)),
                                        _mm512_maskz_cvtpd_ps(0xff, hi), 1);
    }
    static VMAF_INLINE D zerod() { return _mm512_setzero_pd(); }
    static VMAF_INLINE D set1d(double v) { return _mm512_set1_pd(v); }
    static VMAF_INLINE D addd(D a, D b) { return _mm512_add_pd(a, b); }
    static VMAF_INLINE D muld(D a, D b) { return _mm512_mul_pd(a, b); }
    static VMAF_INLINE D divd(D a, D b) { return _mm512_div_pd(a, b); }
    static VMAF_INLINE void stored(double *p, D v) { _mm512_storeu_pd(p, v); }
};

#include "feature/ssim/ssim_simd_tmpl.h"

}  // namespace vmaf::ssim::avx512
VMAF_END_TARGET

#endif  // VMAF_X86
