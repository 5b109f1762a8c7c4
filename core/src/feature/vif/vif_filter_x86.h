// SPDX-License-Identifier: BSD-2-Clause-Patent
// The AVX2 and AVX-512 builds of VIF's window-sum kernels (vif_filter.h says
// how they work). The kernels are written once, in vif_filter_tmpl.h, and
// compiled twice below, each time inside a target region and a namespace of
// its own with the vector operations of its width, so that no code outside a
// region is built for an instruction set the processor may lack. Callers
// reach them only through the dispatch in vif_cpu.cpp.
#pragma once

#include "feature/vif/vif_filter.h"

#if VMAF_X86
#include <immintrin.h>

VMAF_BEGIN_TARGET("avx2")
namespace vmaf::vif::avx2 {

// The few vector operations the kernels need. L is the number of 32-bit
// lanes; a block of the kernels is 2L outputs.
struct Isa {
    using V = __m256i;
    static constexpr unsigned L = 8;
    static VMAF_INLINE V load(const int16_t *p) { return _mm256_loadu_si256(reinterpret_cast<const V *>(p)); }
    static VMAF_INLINE V set1(uint32_t v) { return _mm256_set1_epi32(int(v)); }
    static VMAF_INLINE V madd(V a, V b) { return _mm256_madd_epi16(a, b); }
    static VMAF_INLINE V add(V a, V b) { return _mm256_add_epi32(a, b); }
    template <int N>
    static VMAF_INLINE V srli(V a) { return _mm256_srli_epi32(a, N); }
    static VMAF_INLINE V mullo(V a, V b) { return _mm256_mullo_epi32(a, b); }
    static VMAF_INLINE V low16(V a) { return _mm256_and_si256(a, set1(0xffff)); }
    // 2L bytes widened to 16 bits.
    static VMAF_INLINE V load8(const uint8_t *p)
    {
        return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
    }
    static VMAF_INLINE V unpacklo16(V a, V b) { return _mm256_unpacklo_epi16(a, b); }
    static VMAF_INLINE V unpackhi16(V a, V b) { return _mm256_unpackhi_epi16(a, b); }
    // Inverse of the unpacks: 32-bit lanes below 2^16 from the lo and hi
    // halves, narrowed, biased and stored as 2L samples.
    static VMAF_INLINE void store_biased(int16_t *p, V lo, V hi)
    {
        const V packed = _mm256_xor_si256(_mm256_packus_epi32(lo, hi), _mm256_set1_epi16(int16_t(0x8000)));
        _mm256_storeu_si256(reinterpret_cast<V *>(p), packed);
    }
    static VMAF_INLINE void store(uint32_t *p, V v) { _mm256_storeu_si256(reinterpret_cast<V *>(p), v); }
    // A block's even and odd outputs, stored in natural order.
    static VMAF_INLINE void store_interleaved(uint32_t *p, V even, V odd)
    {
        const V lo = _mm256_unpacklo_epi32(even, odd), hi = _mm256_unpackhi_epi32(even, odd);
        store(p, _mm256_permute2x128_si256(lo, hi, 0x20));
        store(p + L, _mm256_permute2x128_si256(lo, hi, 0x31));
    }
    // L values below 2^16, narrowed.
    static VMAF_INLINE void store16(uint16_t *p, V v)
    {
        const V packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(v, v), 0x08);
        _mm_storeu_si128(reinterpret_cast<__m128i *>(p), _mm256_castsi256_si128(packed));
    }
};

#include "feature/vif/vif_filter_tmpl.h"

}  // namespace vmaf::vif::avx2
VMAF_END_TARGET

VMAF_BEGIN_TARGET(VMAF_TARGET_AVX512)
namespace vmaf::vif::avx512 {

struct Isa {
    using V = __m512i;
    static constexpr unsigned L = 16;
    static VMAF_INLINE V load(const int16_t *p) { return _mm512_loadu_si512(p); }
    static VMAF_INLINE V set1(uint32_t v) { return _mm512_set1_epi32(int(v)); }
    static VMAF_INLINE V madd(V a, V b) { return _mm512_madd_epi16(a, b); }
    static VMAF_INLINE V add(V a, V b) { return _mm512_add_epi32(a, b); }
    // The zero-masked forms with a full mask: the unmasked ones trip GCC 12's
    // -Wmaybe-uninitialized through their undefined pass-through operand.
    template <int N>
    static VMAF_INLINE V srli(V a) { return _mm512_maskz_srli_epi32(0xffff, a, N); }
    static VMAF_INLINE V mullo(V a, V b) { return _mm512_mullo_epi32(a, b); }
    static VMAF_INLINE V low16(V a) { return _mm512_and_si512(a, set1(0xffff)); }
    static VMAF_INLINE V load8(const uint8_t *p)
    {
        return _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
    }
    static VMAF_INLINE V unpacklo16(V a, V b) { return _mm512_unpacklo_epi16(a, b); }
    static VMAF_INLINE V unpackhi16(V a, V b) { return _mm512_unpackhi_epi16(a, b); }
    static VMAF_INLINE void store_biased(int16_t *p, V lo, V hi)
    {
        _mm512_storeu_si512(p, _mm512_xor_si512(_mm512_packus_epi32(lo, hi), _mm512_set1_epi16(int16_t(0x8000))));
    }
    static VMAF_INLINE void store(uint32_t *p, V v) { _mm512_storeu_si512(p, v); }
    static VMAF_INLINE void store_interleaved(uint32_t *p, V even, V odd)
    {
        const V lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
        const V hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
        store(p, _mm512_permutex2var_epi32(even, lo, odd));
        store(p + L, _mm512_permutex2var_epi32(even, hi, odd));
    }
    static VMAF_INLINE void store16(uint16_t *p, V v)
    {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), _mm512_maskz_cvtepi32_epi16(0xffff, v));
    }
};

#include "feature/vif/vif_filter_tmpl.h"

}  // namespace vmaf::vif::avx512
VMAF_END_TARGET

#endif  // VMAF_X86
