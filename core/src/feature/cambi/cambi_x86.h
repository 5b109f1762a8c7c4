// SPDX-License-Identifier: BSD-2-Clause-Patent
// The AVX2 and AVX-512 builds of CAMBI's histogram updates (runs of counts
// 16 or 32 at a time) and c-value row (cambi_kernels.h's c_values_row, 8 or
// 16 columns at a time with gathers). Each lane does the
// scalar arithmetic: the same integer counts, the same int-to-float product
// with the same reciprocal and the same maximum, so the floats are identical.
// Reads stay inside the histograms: band indices are clamped where a lane is
// inactive, and a 32-bit gather of a 16-bit count reads one count past it
// (the histogram buffer is padded).
#pragma once

#include "feature/cambi/cambi_kernels.h"

#if VMAF_X86
#include <immintrin.h>

VMAF_BEGIN_TARGET("avx2")
namespace vmaf::cambi::avx2 {

// counts[lo, hi) += delta, 16 counts a step, the rest one by one.
struct RangeAdd {
    static VMAF_INLINE void apply(uint16_t *counts, int lo, int hi, int delta)
    {
        const __m256i d = _mm256_set1_epi16(int16_t(delta));
        int x = lo;
        for (; x + 16 <= hi; x += 16) {
            __m256i *p = reinterpret_cast<__m256i *>(counts + x);
            _mm256_storeu_si256(p, _mm256_add_epi16(_mm256_loadu_si256(p), d));
        }
        for (; x < hi; x++) counts[x] = uint16_t(counts[x] + delta);
    }
};

#include "feature/cambi/cambi_histogram_tmpl.h"

inline void c_values_row(const uint16_t *hist, const uint16_t *image, const uint16_t *mask, unsigned w,
                         const ContrastParams &p, float *out)
{
    const __m256i zero = _mm256_setzero_si256(), low16 = _mm256_set1_epi32(0xffff);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i base = _mm256_set1_epi32(p.band_base), top = _mm256_set1_epi32(p.band_size - 1);
    const __m256i nd = _mm256_set1_epi32(p.num_diffs), width = _mm256_set1_epi32(int(w));
    const __m256i vlt = _mm256_set1_epi32(p.vlt_luma);
    const int32_t *h32 = reinterpret_cast<const int32_t *>(hist);
    unsigned x = 0;
    for (; x + 8 <= w && p.band_size > 0; x += 8) {
        const __m256i m = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(mask + x)));
        const __m256i sample = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(image + x)));
        const __m256i compact = _mm256_sub_epi32(sample, base);
        // Masked and 0 <= compact <= top.
        const __m256i in_band = _mm256_andnot_si256(
            _mm256_or_si256(_mm256_cmpgt_epi32(zero, compact), _mm256_cmpgt_epi32(compact, top)),
            _mm256_xor_si256(_mm256_cmpeq_epi32(m, zero), _mm256_set1_epi32(-1)));
        if (_mm256_testz_si256(in_band, in_band)) {
            _mm256_storeu_ps(out + x, _mm256_setzero_ps());
            continue;
        }
        const __m256i row = _mm256_min_epi32(_mm256_max_epi32(compact, zero), top);
        const __m256i col = _mm256_add_epi32(_mm256_set1_epi32(int(x)), lanes);
        const __m256i value = _mm256_add_epi32(sample, nd);
        const __m256i p0 = _mm256_and_si256(
            _mm256_i32gather_epi32(h32, _mm256_add_epi32(_mm256_mullo_epi32(row, width), col), 2), low16);
        __m256 c = _mm256_setzero_ps();
        for (int d = 0; d < p.num_diffs; d++) {
            const __m256i visible = _mm256_andnot_si256(
                _mm256_cmpgt_epi32(value, _mm256_set1_epi32(p.tvi[d])),
                _mm256_cmpgt_epi32(_mm256_add_epi32(value, _mm256_set1_epi32(d + 1)), vlt));
            const __m256i on = _mm256_and_si256(visible, in_band);
            if (_mm256_testz_si256(on, on)) continue;
            const __m256i up = _mm256_min_epi32(_mm256_add_epi32(row, _mm256_set1_epi32(d + 1)), top);
            const __m256i down_raw = _mm256_sub_epi32(row, _mm256_set1_epi32(d + 1));
            const __m256i down_ok = _mm256_cmpgt_epi32(down_raw, _mm256_set1_epi32(-1));
            const __m256i down = _mm256_max_epi32(down_raw, zero);
            const __m256i p1 = _mm256_and_si256(
                _mm256_i32gather_epi32(h32, _mm256_add_epi32(_mm256_mullo_epi32(up, width), col), 2), low16);
            const __m256i p2 = _mm256_and_si256(
                _mm256_and_si256(
                    _mm256_i32gather_epi32(h32, _mm256_add_epi32(_mm256_mullo_epi32(down, width), col), 2),
                    low16),
                down_ok);
            const __m256i pm = _mm256_max_epu32(p1, p2);
            const __m256i num = _mm256_mullo_epi32(_mm256_set1_epi32(p.weights[d]), _mm256_mullo_epi32(p0, pm));
            const __m256 rcp = _mm256_i32gather_ps(p.reciprocal, _mm256_add_epi32(pm, p0), 4);
            const __m256 v = _mm256_and_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(num), rcp), _mm256_castsi256_ps(on));
            c = _mm256_max_ps(c, v);
        }
        _mm256_storeu_ps(out + x, c);
    }
    for (; x < w; x++) out[x] = c_value(hist, w, x, image[x], mask[x], p);
}

}  // namespace vmaf::cambi::avx2
VMAF_END_TARGET

VMAF_BEGIN_TARGET(VMAF_TARGET_AVX512)
namespace vmaf::cambi::avx512 {

// The zero-masked forms with a full mask: the unmasked ones trip GCC 12's
// -Wmaybe-uninitialized through their undefined pass-through operand.
constexpr __mmask16 kAll = 0xffff;

// counts[lo, hi) += delta, 32 counts a step, the last step masked.
struct RangeAdd {
    static VMAF_INLINE void apply(uint16_t *counts, int lo, int hi, int delta)
    {
        const __m512i d = _mm512_set1_epi16(int16_t(delta));
        for (int x = lo; x < hi; x += 32) {
            const int n = std::min(hi - x, 32);
            const __mmask32 m = n == 32 ? ~__mmask32(0) : (__mmask32(1) << n) - 1;
            const __m512i v = _mm512_maskz_loadu_epi16(m, counts + x);
            _mm512_mask_storeu_epi16(counts + x, m, _mm512_add_epi16(v, d));
        }
    }
};

#include "feature/cambi/cambi_histogram_tmpl.h"

inline void c_values_row(const uint16_t *hist, const uint16_t *image, const uint16_t *mask, unsigned w,
                         const ContrastParams &p, float *out)
{
    const __m512i zero = _mm512_setzero_si512(), low16 = _mm512_set1_epi32(0xffff);
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i base = _mm512_set1_epi32(p.band_base), top = _mm512_set1_epi32(p.band_size - 1);
    const __m512i nd = _mm512_set1_epi32(p.num_diffs), width = _mm512_set1_epi32(int(w));
    const __m512i vlt = _mm512_set1_epi32(p.vlt_luma);
    unsigned x = 0;
    for (; x + 16 <= w && p.band_size > 0; x += 16) {
        const __m512i m = _mm512_maskz_cvtepu16_epi32(kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(mask + x)));
        const __m512i sample =
            _mm512_maskz_cvtepu16_epi32(kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(image + x)));
        const __m512i compact = _mm512_sub_epi32(sample, base);
        const __mmask16 in_band = _mm512_test_epi32_mask(m, m) & _mm512_cmpge_epi32_mask(compact, zero) &
                                  _mm512_cmple_epi32_mask(compact, top);
        if (!in_band) {
            _mm512_storeu_ps(out + x, _mm512_setzero_ps());
            continue;
        }
        const __m512i row = _mm512_maskz_min_epi32(kAll, _mm512_maskz_max_epi32(kAll, compact, zero), top);
        const __m512i col = _mm512_add_epi32(_mm512_set1_epi32(int(x)), lanes);
        const __m512i value = _mm512_add_epi32(sample, nd);
        const __m512i p0 = _mm512_and_si512(
            _mm512_mask_i32gather_epi32(zero, in_band, _mm512_add_epi32(_mm512_mullo_epi32(row, width), col), hist, 2),
            low16);
        __m512 c = _mm512_setzero_ps();
        for (int d = 0; d < p.num_diffs; d++) {
            const __mmask16 on = in_band & _mm512_cmple_epi32_mask(value, _mm512_set1_epi32(p.tvi[d])) &
                                 _mm512_cmpgt_epi32_mask(_mm512_add_epi32(value, _mm512_set1_epi32(d + 1)), vlt);
            if (!on) continue;
            const __m512i up = _mm512_maskz_min_epi32(kAll, _mm512_add_epi32(row, _mm512_set1_epi32(d + 1)), top);
            const __m512i down = _mm512_sub_epi32(row, _mm512_set1_epi32(d + 1));
            const __mmask16 down_ok = on & _mm512_cmpge_epi32_mask(down, zero);
            const __m512i p1 = _mm512_and_si512(
                _mm512_mask_i32gather_epi32(zero, on, _mm512_add_epi32(_mm512_mullo_epi32(up, width), col), hist, 2),
                low16);
            const __m512i p2 = _mm512_and_si512(
                _mm512_mask_i32gather_epi32(zero, down_ok, _mm512_add_epi32(_mm512_mullo_epi32(down, width), col),
                                            hist, 2),
                low16);
            const __m512i pm = _mm512_maskz_max_epu32(kAll, p1, p2);
            const __m512i num = _mm512_mullo_epi32(_mm512_set1_epi32(p.weights[d]), _mm512_mullo_epi32(p0, pm));
            const __m512 rcp =
                _mm512_mask_i32gather_ps(_mm512_setzero_ps(), on, _mm512_add_epi32(pm, p0), p.reciprocal, 4);
            const __m512 v = _mm512_maskz_mul_ps(on, _mm512_maskz_cvtepi32_ps(kAll, num), rcp);
            c = _mm512_maskz_max_ps(kAll, c, v);
        }
        _mm512_storeu_ps(out + x, c);
    }
    for (; x < w; x++) out[x] = c_value(hist, w, x, image[x], mask[x], p);
}

}  // namespace vmaf::cambi::avx512
VMAF_END_TARGET

#endif
