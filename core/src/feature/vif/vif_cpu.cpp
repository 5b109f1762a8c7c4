// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer VIF on the CPU: per-scale local means, variances and covariance from
// separable Gaussian windows in fixed point, then the information ratio through
// a Q11 log2 table, over four dyadic scales of the luma plane.
//
// The arithmetic reproduces libvmaf's integer_vif.c bit for bit. Wide sums are
// kept in 32-bit lanes by splitting 32-bit second moments into 16-bit halves:
// (hi * 2^16 + lo + round) >> s == hi << (16 - s) + ((lo + round) >> s) for
// s <= 16, so no 64-bit accumulator is needed and the loops vectorize. The
// window sums also have AVX2 and AVX-512 builds on 16-bit multiply-adds
// (vif_filter.h), and the information terms AVX2 and AVX-512 builds of one
// body (vif_accumulate_tmpl.h), picked at run time.
#include "feature/vif/vif.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "feature/vif/vif_filter.h"
#include "feature/vif/vif_filter_x86.h"
#include "feature/vif/vif_score.h"
#include "feature/vif/vif_tables.h"

#include "util/simd.h"
#if VMAF_X86
#include <immintrin.h>
#endif

namespace vmaf {

namespace {

constexpr OptionSpec kOptions[] = {
    {"debug", nullptr, OptType::Bool, 0, 0, 1, false,
     "also write integer_vif and the numerator and denominator of every scale"},
    {"vif_enhn_gain_limit", "egl", OptType::Double, vif::kDefaultEnhnGainLimit, 1.0,
     vif::kDefaultEnhnGainLimit, true,
     "cap on the enhancement gain; 1.0 disables gains above unity"},
    {"vif_skip_scale0", "ssclz", OptType::Bool, 0, 0, 1, true,
     "skip scale 0: its score is written as 0"},
};

constexpr const char *kProvided[] = {
    vif::kScaleNames[0], vif::kScaleNames[1], vif::kScaleNames[2], vif::kScaleNames[3],
    "integer_vif", "integer_vif_num", "integer_vif_den",
    vif::kNumNames[0], vif::kDenNames[0], vif::kNumNames[1], vif::kDenNames[1],
    vif::kNumNames[2], vif::kDenNames[2], vif::kNumNames[3], vif::kDenNames[3],
};

// A read-only luma plane; stride in samples.
template <typename T>
struct Plane {
    const T *data;
    ptrdiff_t stride;
    unsigned w, h;
    const T *row(int y) const { return data + ptrdiff_t(y) * stride; }
};

// Whole-sample mirror without repeating the edge: -1 -> 1, n -> n - 2.
constexpr int mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i;
}

template <int W, typename T>
VMAF_INLINE void window_rows(const Plane<T> &p, int centre, const T *(&rows)[W])
{
    for (int k = 0; k < W; k++) rows[k] = p.row(mirror(centre - W / 2 + k, int(p.h)));
}

// Mirror a padded row's kMaxFilterHalf samples on either side of [0, w).
template <typename T>
VMAF_INLINE void pad_row(T *row, unsigned w, int half)
{
    for (int f = 1; f <= half; f++) {
        row[-f] = row[f];
        row[int(w) - 1 + f] = row[int(w) - 1 - f];
    }
}

// Window sums below fold the symmetric taps: the centre tap, then one
// multiply per mirrored pair. They run in wrapping 32-bit arithmetic; every
// true sum fits in 32 bits, so wrapped partial products cancel exactly.

// Vertical means of one row of both pictures: (sum + round) >> shift, below
// 2^16, stored biased for the horizontal pass (vif_filter.h).
template <int S, typename T>
VMAF_INLINE void vertical_means(const T *const (&r)[vif::kFilterWidth[S]],
                               const T *const (&d)[vif::kFilterWidth[S]], unsigned w, unsigned shift,
                               int16_t *__restrict mu1, int16_t *__restrict mu2, unsigned j0 = 0)
{
    constexpr int W = vif::kFilterWidth[S], H = W / 2;
    constexpr const uint16_t *f = vif::kFilter[S];
    const uint32_t round = vif::round_of(shift);
#pragma GCC ivdep
    for (unsigned j = j0; j < w; j++) {
        uint32_t m1 = f[H] * uint32_t(r[H][j]), m2 = f[H] * uint32_t(d[H][j]);
#pragma GCC unroll 8
        for (int k = 0; k < H; k++) {
            m1 += f[k] * (uint32_t(r[k][j]) + r[W - 1 - k][j]);
            m2 += f[k] * (uint32_t(d[k][j]) + d[W - 1 - k][j]);
        }
        mu1[j] = vif::bias16((m1 + round) >> shift);
        mu2[j] = vif::bias16((m2 + round) >> shift);
    }
}

using vif::MomentRow;

VMAF_INLINE void store_split(int16_t *__restrict hi, int16_t *__restrict lo, unsigned j, uint32_t v)
{
    hi[j] = vif::bias16(v >> 16);
    lo[j] = vif::bias16(v & 0xffff);
}

// 8-bit samples square into 16 bits: the window sums of x^2, y^2 and x*y are
// exact in 32 bits and need no shift.
template <int S>
VMAF_INLINE void vertical_moments(const uint8_t *const (&r)[vif::kFilterWidth[S]],
                                 const uint8_t *const (&d)[vif::kFilterWidth[S]], unsigned w, unsigned,
                                 const MomentRow &out, unsigned j0)
{
    constexpr int W = vif::kFilterWidth[S], H = W / 2;
    constexpr const uint16_t *f = vif::kFilter[S];
#pragma GCC ivdep
    for (unsigned j = j0; j < w; j++) {
        uint32_t a = r[H][j], b = d[H][j];
        uint32_t xx = f[H] * (a * a), yy = f[H] * (b * b), xy = f[H] * (a * b);
#pragma GCC unroll 8
        for (int k = 0; k < H; k++) {
            const uint32_t a0 = r[k][j], a1 = r[W - 1 - k][j], b0 = d[k][j], b1 = d[W - 1 - k][j];
            xx += f[k] * (a0 * a0 + a1 * a1);
            yy += f[k] * (b0 * b0 + b1 * b1);
            xy += f[k] * (a0 * b0 + a1 * b1);
        }
        store_split(out.xx_hi, out.xx_lo, j, xx);
        store_split(out.yy_hi, out.yy_lo, j, yy);
        store_split(out.xy_hi, out.xy_lo, j, xy);
    }
}

// Deeper samples square into 32 bits: sum their 16-bit halves separately,
// then (hi * 2^16 + lo + round) >> s == (hi << (16 - s)) + ((lo + round) >> s).
template <int S, bool Cross>
VMAF_INLINE void vertical_moments16(const uint16_t *const (&r)[vif::kFilterWidth[S]],
                                   const uint16_t *const (&d)[vif::kFilterWidth[S]], unsigned w,
                                   unsigned shift, int16_t *__restrict a_hi, int16_t *__restrict a_lo,
                                   int16_t *__restrict b_hi, int16_t *__restrict b_lo)
{
    constexpr int W = vif::kFilterWidth[S], H = W / 2;
    constexpr const uint16_t *f = vif::kFilter[S];
    const uint32_t round = vif::round_of(shift);
    // Cross: x*y into a; otherwise x^2 into a and y^2 into b.
    auto p = [](uint32_t x, uint32_t y) { return x * y; };
#pragma GCC ivdep
    for (unsigned j = 0; j < w; j++) {
        const uint32_t x = r[H][j], y = d[H][j];
        const uint32_t pa = Cross ? p(x, y) : p(x, x), pb = p(y, y);
        uint32_t ah = f[H] * (pa >> 16), al = f[H] * (pa & 0xffff);
        uint32_t bh = Cross ? 0 : f[H] * (pb >> 16), bl = Cross ? 0 : f[H] * (pb & 0xffff);
#pragma GCC unroll 8
        for (int k = 0; k < H; k++) {
            const uint32_t x0 = r[k][j], x1 = r[W - 1 - k][j], y0 = d[k][j], y1 = d[W - 1 - k][j];
            const uint32_t qa0 = Cross ? p(x0, y0) : p(x0, x0), qa1 = Cross ? p(x1, y1) : p(x1, x1);
            ah += f[k] * ((qa0 >> 16) + (qa1 >> 16));
            al += f[k] * ((qa0 & 0xffff) + (qa1 & 0xffff));
            if constexpr (!Cross) {
                const uint32_t qb0 = p(y0, y0), qb1 = p(y1, y1);
                bh += f[k] * ((qb0 >> 16) + (qb1 >> 16));
                bl += f[k] * ((qb0 & 0xffff) + (qb1 & 0xffff));
            }
        }
        store_split(a_hi, a_lo, j, (ah << (16 - shift)) + ((al + round) >> shift));
        if constexpr (!Cross) store_split(b_hi, b_lo, j, (bh << (16 - shift)) + ((bl + round) >> shift));
    }
}

template <int S>
VMAF_INLINE void vertical_moments(const uint16_t *const (&r)[vif::kFilterWidth[S]],
                                 const uint16_t *const (&d)[vif::kFilterWidth[S]], unsigned w,
                                 unsigned shift, const MomentRow &out, unsigned)
{
    vertical_moments16<S, false>(r, d, w, shift, out.xx_hi, out.xx_lo, out.yy_hi, out.yy_lo);
    vertical_moments16<S, true>(r, d, w, shift, out.xy_hi, out.xy_lo, nullptr, nullptr);
}

// (a * b) >> 32 with rounding, as 32 bits.
VMAF_INLINE uint32_t mul_q32(uint32_t a, uint32_t b)
{
    return uint32_t((uint64_t(a) * b + 0x80000000u) >> 32);
}

// Local variances and covariance from the filtered means and moments.
VMAF_INLINE void sigmas(const uint32_t *m1, const uint32_t *m2, const uint32_t *xx, const uint32_t *yy,
                       const uint32_t *xy, unsigned w, int32_t *__restrict s1, int32_t *__restrict s2,
                       int32_t *__restrict s12)
{
#pragma GCC ivdep
    for (unsigned j = 0; j < w; j++) {
        s1[j] = int32_t(xx[j] - mul_q32(m1[j], m1[j]));
        s2[j] = std::max(int32_t(yy[j] - mul_q32(m2[j], m2[j])), 0);
        s12[j] = int32_t(xy[j] - mul_q32(m1[j], m2[j]));
    }
}

using vif::Sums;

// log2(v) in Q11 from the table: the top 16 significant bits index it.
VMAF_INLINE int32_t log2_q11(const uint16_t *table, uint64_t v)
{
    const int k = 63 - __builtin_clzll(v) - 15;
    return int32_t(table[(v >> k) - vif::kLog2First]) + 2048 * k;
}

// Per-pixel information terms. Where the reference variance is below the
// noise floor the pixel counts as one unit of denominator and nearly one of
// numerator; elsewhere both are log2 ratios.
VMAF_INLINE void accumulate(const int32_t *s1v, const int32_t *s2v, const int32_t *s12v, unsigned w,
                           const uint16_t *table, double gain_limit, Sums &acc)
{
    for (unsigned j = 0; j < w; j++) {
        const int32_t s1 = s1v[j], s2 = s2v[j], s12 = s12v[j];
        if (s1 < vif::kSigmaNsq) {
            acc.num_lin += s2;
            acc.den_lin++;
            continue;
        }
        acc.den_log += log2_q11(table, uint32_t(s1) + uint32_t(vif::kSigmaNsq)) - vif::kLog2SigmaNsq;
        if (s12 <= 0 || s2 <= 0) continue;
        double g = s12 / (s1 + vif::kGainEps);
        // s2 - g * s12 < s2 < 2^31 as g * s12 > 0, so the conversion is in range.
        const double sv = s2 - g * s12;
        const uint32_t sv_sq = sv > 0.0 ? uint32_t(int32_t(sv)) : 0u;
        g = std::min(g, gain_limit);
        const uint32_t numer1 = sv_sq + uint32_t(vif::kSigmaNsq);
        const int64_t numer2 = int64_t(g * g * s1) + numer1;
        acc.num_log += log2_q11(table, uint64_t(numer2)) - log2_q11(table, numer1);
    }
}

#if VMAF_X86
// The vector accumulate()s below defer the table look-ups to a scalar pass over a
// chunk of indices, and keep per-lane 64-bit sums of the exponents and linear
// terms. These two finish that work the same way for every vector width.
VMAF_INLINE void add_table_terms(const uint16_t *table, const uint32_t *i_den, const uint32_t *i_n1,
                                 const uint32_t *i_n2, unsigned n, int64_t &den_tab, int64_t &num_tab)
{
    for (unsigned c = 0; c < n; c++) {
        den_tab += table[i_den[c]];
        num_tab += int32_t(table[i_n2[c]]) - int32_t(table[i_n1[c]]);
    }
}

// lanes[0..2][0..n): the per-lane exponent sums of the numerator and the
// denominator, and the linear numerator sums.
VMAF_INLINE void fold_lanes(const int64_t (*lanes)[8], unsigned n, int64_t num_tab, int64_t den_tab,
                            int64_t den_lin, Sums &acc)
{
    int64_t nk = 0, dk = 0, nl = 0;
    for (unsigned i = 0; i < n; i++) {
        nk += lanes[0][i];
        dk += lanes[1][i];
        nl += lanes[2][i];
    }
    acc.num_log += num_tab + 2048 * nk;
    acc.den_log += den_tab + 2048 * dk;
    acc.num_lin += nl;
    acc.den_lin += den_lin;
}

// The vector operations of accumulate() per width (vif_accumulate_tmpl.h has
// the one body): N lanes of 32-bit samples (I32), of 64-bit sums and indices
// (I64) and of doubles (D), and a lane mask M.
//
// log2_parts(): the two parts of log2 in Q11 for integer-valued doubles v in
// [2^15, 2^52): k = floor(log2 v) - 15 from the exponent, and the table index
// (v >> k) - 32768, which is the top 15 bits of the mantissa (see log2_q11()).
VMAF_BEGIN_TARGET("avx2")
namespace avx2 {

struct AccIsa {
    using I32 = __m128i;
    using I64 = __m256i;
    using D = __m256d;
    using M = __m128i;  // all ones in the 32-bit lanes selected
    static constexpr unsigned N = 4;
    static constexpr unsigned kAlign = 32;  // of the stored vectors
    struct Log2Parts {
        I64 k, idx;
    };

    static VMAF_INLINE I32 load32(const int32_t *p) { return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)); }
    static VMAF_INLINE I32 set1_32(int32_t v) { return _mm_set1_epi32(v); }
    static VMAF_INLINE I32 zero32() { return _mm_setzero_si128(); }
    static VMAF_INLINE I32 sub32(I32 a, I32 b) { return _mm_sub_epi32(a, b); }
    static VMAF_INLINE M gt32(I32 a, I32 b) { return _mm_cmpgt_epi32(a, b); }
    static VMAF_INLINE M and_mask(M a, M b) { return _mm_and_si128(a, b); }
    static VMAF_INLINE unsigned bits(M m) { return unsigned(_mm_movemask_ps(_mm_castsi128_ps(m))); }
    // b where m, else a.
    static VMAF_INLINE I32 blend32(M m, I32 a, I32 b) { return _mm_blendv_epi8(a, b, m); }
    static VMAF_INLINE I32 keep32(M m, I32 a) { return _mm_and_si128(m, a); }
    static VMAF_INLINE I64 widen_unless(M m, I32 a) { return _mm256_cvtepi32_epi64(_mm_andnot_si128(m, a)); }

    static VMAF_INLINE I64 set1_64(int64_t v) { return _mm256_set1_epi64x(v); }
    static VMAF_INLINE I64 zero64() { return _mm256_setzero_si256(); }
    static VMAF_INLINE I64 add64(I64 a, I64 b) { return _mm256_add_epi64(a, b); }
    static VMAF_INLINE I64 sub64(I64 a, I64 b) { return _mm256_sub_epi64(a, b); }
    static VMAF_INLINE I64 add64_where(I64 acc, M m, I64 a)
    {
        return _mm256_add_epi64(acc, _mm256_and_si256(_mm256_cvtepi32_epi64(m), a));
    }
    // a where m, else b.
    static VMAF_INLINE I64 select64(M m, I64 a, I64 b) { return _mm256_blendv_epi8(b, a, _mm256_cvtepi32_epi64(m)); }
    // The low halves as 32-bit values, stored.
    static VMAF_INLINE void store_idx(uint32_t *dst, I64 v)
    {
        const __m256i packed = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(dst), _mm256_castsi256_si128(packed));
    }
    static VMAF_INLINE void store64(int64_t *dst, I64 v) { _mm256_store_si256(reinterpret_cast<__m256i *>(dst), v); }

    static VMAF_INLINE D set1_pd(double v) { return _mm256_set1_pd(v); }
    static VMAF_INLINE D zero_pd() { return _mm256_setzero_pd(); }
    static VMAF_INLINE D to_pd(I32 a) { return _mm256_cvtepi32_pd(a); }
    static VMAF_INLINE I32 trunc32(D a) { return _mm256_cvttpd_epi32(a); }
    static VMAF_INLINE D add_pd(D a, D b) { return _mm256_add_pd(a, b); }
    static VMAF_INLINE D sub_pd(D a, D b) { return _mm256_sub_pd(a, b); }
    static VMAF_INLINE D mul_pd(D a, D b) { return _mm256_mul_pd(a, b); }
    static VMAF_INLINE D div_pd(D a, D b) { return _mm256_div_pd(a, b); }
    static VMAF_INLINE D max_pd(D a, D b) { return _mm256_max_pd(a, b); }
    static VMAF_INLINE D min_pd(D a, D b) { return _mm256_min_pd(a, b); }
    static VMAF_INLINE D round_to_zero(D a) { return _mm256_round_pd(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
    static VMAF_INLINE Log2Parts log2_parts(D v)
    {
        const __m256i bits = _mm256_castpd_si256(v);
        return {_mm256_sub_epi64(_mm256_srli_epi64(bits, 52), _mm256_set1_epi64x(1023 + 15)),
                _mm256_and_si256(_mm256_srli_epi64(bits, 52 - 15), _mm256_set1_epi64x(0x7fff))};
    }

    static VMAF_INLINE void tail(const int32_t *s1v, const int32_t *s2v, const int32_t *s12v, unsigned w,
                                 const uint16_t *table, double gain_limit, Sums &acc)
    {
        ::vmaf::accumulate(s1v, s2v, s12v, w, table, gain_limit, acc);
    }
};

#include "feature/vif/vif_accumulate_tmpl.h"

}  // namespace avx2
VMAF_END_TARGET

// Eight lanes, selected by mask registers. Here the zero-masked forms with a
// full mask: the unmasked ones trip GCC 12's -Wmaybe-uninitialized through their
// undefined pass-through operand.
VMAF_BEGIN_TARGET(VMAF_TARGET_AVX512)
namespace avx512 {

struct AccIsa {
    using I32 = __m256i;
    using I64 = __m512i;
    using D = __m512d;
    using M = __mmask8;
    static constexpr unsigned N = 8;
    static constexpr unsigned kAlign = 64;
    struct Log2Parts {
        I64 k, idx;
    };

    static VMAF_INLINE I32 load32(const int32_t *p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)); }
    static VMAF_INLINE I32 set1_32(int32_t v) { return _mm256_set1_epi32(v); }
    static VMAF_INLINE I32 zero32() { return _mm256_setzero_si256(); }
    static VMAF_INLINE I32 sub32(I32 a, I32 b) { return _mm256_sub_epi32(a, b); }
    static VMAF_INLINE M gt32(I32 a, I32 b) { return _mm256_cmpgt_epi32_mask(a, b); }
    static VMAF_INLINE M and_mask(M a, M b) { return M(a & b); }
    static VMAF_INLINE unsigned bits(M m) { return unsigned(m); }
    static VMAF_INLINE I32 blend32(M m, I32 a, I32 b) { return _mm256_mask_blend_epi32(m, a, b); }
    static VMAF_INLINE I32 keep32(M m, I32 a) { return _mm256_maskz_mov_epi32(m, a); }
    static VMAF_INLINE I64 widen_unless(M m, I32 a) { return _mm512_maskz_cvtepi32_epi64(M(~m), a); }

    static VMAF_INLINE I64 set1_64(int64_t v) { return _mm512_set1_epi64(v); }
    static VMAF_INLINE I64 zero64() { return _mm512_setzero_si512(); }
    static VMAF_INLINE I64 add64(I64 a, I64 b) { return _mm512_add_epi64(a, b); }
    static VMAF_INLINE I64 sub64(I64 a, I64 b) { return _mm512_sub_epi64(a, b); }
    static VMAF_INLINE I64 add64_where(I64 acc, M m, I64 a) { return _mm512_mask_add_epi64(acc, m, acc, a); }
    static VMAF_INLINE I64 select64(M m, I64 a, I64 b) { return _mm512_mask_mov_epi64(b, m, a); }
    // The low halves as 32-bit values, stored (aligned).
    static VMAF_INLINE void store_idx(uint32_t *dst, I64 v)
    {
        _mm256_store_si256(reinterpret_cast<__m256i *>(dst), _mm512_maskz_cvtepi64_epi32(0xff, v));
    }
    static VMAF_INLINE void store64(int64_t *dst, I64 v) { _mm512_store_si512(dst, v); }

    static VMAF_INLINE D set1_pd(double v) { return _mm512_set1_pd(v); }
    static VMAF_INLINE D zero_pd() { return _mm512_setzero_pd(); }
    static VMAF_INLINE D to_pd(I32 a) { return _mm512_maskz_cvtepi32_pd(0xff, a); }
    static VMAF_INLINE I32 trunc32(D a) { return _mm512_maskz_cvttpd_epi32(0xff, a); }
    static VMAF_INLINE D add_pd(D a, D b) { return _mm512_add_pd(a, b); }
    static VMAF_INLINE D sub_pd(D a, D b) { return _mm512_sub_pd(a, b); }
    static VMAF_INLINE D mul_pd(D a, D b) { return _mm512_mul_pd(a, b); }
    static VMAF_INLINE D div_pd(D a, D b) { return _mm512_div_pd(a, b); }
    static VMAF_INLINE D max_pd(D a, D b) { return _mm512_maskz_max_pd(0xff, a, b); }
    static VMAF_INLINE D min_pd(D a, D b) { return _mm512_maskz_min_pd(0xff, a, b); }
    static VMAF_INLINE D round_to_zero(D a)
    {
        return _mm512_maskz_roundscale_pd(0xff, a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    }
    static VMAF_INLINE Log2Parts log2_parts(D v)
    {
        const __m512i bits = _mm512_castpd_si512(v);
        return {_mm512_sub_epi64(_mm512_maskz_srli_epi64(0xff, bits, 52), _mm512_set1_epi64(1023 + 15)),
                _mm512_and_si512(_mm512_maskz_srli_epi64(0xff, bits, 52 - 15), _mm512_set1_epi64(0x7fff))};
    }

    // The last w % 8 pixels four at a time, then one at a time.
    static VMAF_INLINE void tail(const int32_t *s1v, const int32_t *s2v, const int32_t *s12v, unsigned w,
                                 const uint16_t *table, double gain_limit, Sums &acc)
    {
        avx2::accumulate(s1v, s2v, s12v, w, table, gain_limit, acc);
    }
};

#include "feature/vif/vif_accumulate_tmpl.h"

}  // namespace avx512
VMAF_END_TARGET
#endif

using vif::ScaleScore;

// Per-instance row scratch. Vertical results are padded by kMaxFilterHalf
// on both sides for the horizontal mirror, plus what the horizontal kernels
// may read beyond it.
struct RowScratch {
    static constexpr int kPad = vif::kMaxFilterHalf;
    enum PaddedRow { kMu1, kMu2, kXxHi, kXxLo, kYyHi, kYyLo, kXyHi, kXyLo, kPaddedRows };
    enum Row { kSumMu1, kSumMu2, kSumXx, kSumYy, kSumXy, kRows };
    std::vector<int16_t> padded;
    std::vector<uint32_t> rows;
    std::vector<int32_t> sig;
    size_t padded_w = 0, width = 0;

    void init(unsigned w)
    {
        width = w;
        padded_w = w + 2 * kPad + vif::kHFilterOverread;
        padded.assign(kPaddedRows * padded_w, 0);
        rows.assign(kRows * size_t(w), 0);
        sig.assign(3 * size_t(w), 0);
    }
    int16_t *pad(int i) { return padded.data() + kPad + size_t(i) * padded_w; }
    uint32_t *row(int i) { return rows.data() + size_t(i) * width; }
    int32_t *sigma(int i) { return sig.data() + size_t(i) * width; }
    MomentRow moment_row() { return {pad(kXxHi), pad(kXxLo), pad(kYyHi), pad(kYyLo), pad(kXyHi), pad(kXyLo)}; }
};

using AccumulateFn = void (*)(const int32_t *, const int32_t *, const int32_t *, unsigned, const uint16_t *,
                               double, Sums &);

// What a scale's statistic needs besides the pictures.
struct StatParams {
    const uint16_t *log2;
    double gain_limit;
    AccumulateFn accumulate;
};

// Rows: the row kernels (vif::PortableRows or a vector build of them).
template <int S, typename T, class Rows>
VMAF_INLINE ScaleScore statistic(const Plane<T> &ref, const Plane<T> &dis, unsigned bits, RowScratch &rs,
                                const StatParams &t)
{
    constexpr int W = vif::kFilterWidth[S];
    using R = RowScratch;
    const unsigned w = ref.w;
    int32_t *s1 = rs.sigma(0), *s2 = rs.sigma(1), *s12 = rs.sigma(2);
    Sums sums;
    for (int i = 0; i < int(ref.h); i++) {
        const T *r[W], *d[W];
        window_rows<W>(ref, i, r);
        window_rows<W>(dis, i, d);
        unsigned done = 0;
        if constexpr (std::is_same_v<T, uint8_t>)
            done = Rows::template vertical8<S>(r, d, w, rs.pad(R::kMu1), rs.pad(R::kMu2), rs.moment_row());
        vertical_means<S, T>(r, d, w, vif::mean_shift(bits), rs.pad(R::kMu1), rs.pad(R::kMu2), done);
        vertical_moments<S>(r, d, w, vif::moment_shift(bits), rs.moment_row(), done);
        for (int k = 0; k < R::kPaddedRows; k++) pad_row(rs.pad(k), w, W / 2);
        Rows::template window_pair<S>(rs.pad(R::kMu1), rs.pad(R::kMu2), w, rs.row(R::kSumMu1),
                                      rs.row(R::kSumMu2));
        Rows::template window_split<S>(rs.pad(R::kXxHi), rs.pad(R::kXxLo), w, rs.row(R::kSumXx));
        Rows::template window_split<S>(rs.pad(R::kYyHi), rs.pad(R::kYyLo), w, rs.row(R::kSumYy));
        Rows::template window_split<S>(rs.pad(R::kXyHi), rs.pad(R::kXyLo), w, rs.row(R::kSumXy));
        sigmas(rs.row(R::kSumMu1), rs.row(R::kSumMu2), rs.row(R::kSumXx), rs.row(R::kSumYy),
               rs.row(R::kSumXy), w, s1, s2, s12);
        t.accumulate(s1, s2, s12, w, t.log2, t.gain_limit, sums);
    }
    return vif::finish(sums);
}

// Blur with scale S's window and keep every other row and column.
template <int S, typename T, class Rows>
VMAF_INLINE void halve(const Plane<T> &ref, const Plane<T> &dis, unsigned bits, RowScratch &rs,
                      uint16_t *out_ref, uint16_t *out_dis, ptrdiff_t out_stride)
{
    constexpr int W = vif::kFilterWidth[S];
    int16_t *cr = rs.pad(RowScratch::kMu1), *cd = rs.pad(RowScratch::kMu2);
    const unsigned w = ref.w, ow = ref.w / 2, oh = ref.h / 2;
    for (unsigned i = 0; i < oh; i++) {
        const T *r[W], *d[W];
        window_rows<W>(ref, int(2 * i), r);
        window_rows<W>(dis, int(2 * i), d);
        vertical_means<S, T>(r, d, w, bits, cr, cd);
        pad_row(cr, w, W / 2);
        pad_row(cd, w, W / 2);
        Rows::template window_halve<S>(cr, ow, out_ref + ptrdiff_t(i) * out_stride);
        Rows::template window_halve<S>(cd, ow, out_dis + ptrdiff_t(i) * out_stride);
    }
}

// A scale's pair of planes, 8-bit only at scale 0 of an 8-bit input.
struct ScalePlanes {
    Plane<uint8_t> ref8, dis8;
    Plane<uint16_t> ref16, dis16;
    bool is8;
};

template <class Rows>
VMAF_INLINE ScaleScore statistic_any(const ScalePlanes &p, unsigned bits, int scale, RowScratch &rs,
                                    const StatParams &t)
{
    if (p.is8) return statistic<0, uint8_t, Rows>(p.ref8, p.dis8, bits, rs, t);
    switch (scale) {
    case 0: return statistic<0, uint16_t, Rows>(p.ref16, p.dis16, bits, rs, t);
    case 1: return statistic<1, uint16_t, Rows>(p.ref16, p.dis16, bits, rs, t);
    case 2: return statistic<2, uint16_t, Rows>(p.ref16, p.dis16, bits, rs, t);
    default: return statistic<3, uint16_t, Rows>(p.ref16, p.dis16, bits, rs, t);
    }
}

template <class Rows>
VMAF_INLINE void halve_any(const ScalePlanes &p, unsigned bits, int next_scale, RowScratch &rs,
                          uint16_t *out_ref, uint16_t *out_dis, ptrdiff_t out_stride)
{
    if (p.is8) return halve<1, uint8_t, Rows>(p.ref8, p.dis8, bits, rs, out_ref, out_dis, out_stride);
    switch (next_scale) {
    case 1: return halve<1, uint16_t, Rows>(p.ref16, p.dis16, bits, rs, out_ref, out_dis, out_stride);
    case 2: return halve<2, uint16_t, Rows>(p.ref16, p.dis16, bits, rs, out_ref, out_dis, out_stride);
    default: return halve<3, uint16_t, Rows>(p.ref16, p.dis16, bits, rs, out_ref, out_dis, out_stride);
    }
}

// The same kernels compiled twice: for the baseline ISA and, on x86, for AVX2
// (integer-only widening; no FMA, so the double arithmetic is unchanged).
void accumulate_generic(const int32_t *s1, const int32_t *s2, const int32_t *s12, unsigned w,
                        const uint16_t *table, double gain_limit, Sums &acc)
{
    accumulate(s1, s2, s12, w, table, gain_limit, acc);
}

ScaleScore statistic_generic(const ScalePlanes &p, unsigned bits, int scale, RowScratch &rs,
                             const StatParams &t)
{
    return statistic_any<vif::PortableRows>(p, bits, scale, rs, t);
}

void halve_generic(const ScalePlanes &p, unsigned bits, int next_scale, RowScratch &rs,
                   uint16_t *out_ref, uint16_t *out_dis, ptrdiff_t out_stride)
{
    halve_any<vif::PortableRows>(p, bits, next_scale, rs, out_ref, out_dis, out_stride);
}

#if VMAF_X86
__attribute__((target("avx2"))) ScaleScore statistic_avx2(const ScalePlanes &p, unsigned bits, int scale,
                                                          RowScratch &rs, const StatParams &t)
{
    return statistic_any<vif::avx2::Rows>(p, bits, scale, rs, t);
}

__attribute__((target("avx2"))) void halve_avx2(const ScalePlanes &p, unsigned bits, int next_scale,
                                                RowScratch &rs, uint16_t *out_ref, uint16_t *out_dis,
                                                ptrdiff_t out_stride)
{
    halve_any<vif::avx2::Rows>(p, bits, next_scale, rs, out_ref, out_dis, out_stride);
}

// The filter passes again with 512-bit vectors (all-integer: identical results).
__attribute__((target(VMAF_TARGET_AVX512))) ScaleScore statistic_avx512(const ScalePlanes &p, unsigned bits,
                                                                int scale, RowScratch &rs,
                                                                const StatParams &t)
{
    return statistic_any<vif::avx512::Rows>(p, bits, scale, rs, t);
}

__attribute__((target(VMAF_TARGET_AVX512))) void halve_avx512(const ScalePlanes &p, unsigned bits, int next_scale,
                                                      RowScratch &rs, uint16_t *out_ref,
                                                      uint16_t *out_dis, ptrdiff_t out_stride)
{
    halve_any<vif::avx512::Rows>(p, bits, next_scale, rs, out_ref, out_dis, out_stride);
}
#endif

struct KernelSet {
    ScaleScore (*statistic)(const ScalePlanes &, unsigned, int, RowScratch &, const StatParams &);
    void (*halve)(const ScalePlanes &, unsigned, int, RowScratch &, uint16_t *, uint16_t *, ptrdiff_t);
    AccumulateFn accumulate;
};

KernelSet pick_kernels(vif::Kernels which)
{
#if VMAF_X86
    if (which == vif::Kernels::Best && cpu_has_avx512())
        return {statistic_avx512, halve_avx512, avx512::accumulate};
    if ((which == vif::Kernels::Best || which == vif::Kernels::Avx2) && cpu_has_avx2())
        return {statistic_avx2, halve_avx2, avx2::accumulate};
#endif
    (void)which;
    return {statistic_generic, halve_generic, accumulate_generic};
}

const uint16_t *log2_table()
{
    static const vif::Log2Table table = vif::make_log2_table();
    return table.data();
}

class VifCpu final : public Extractor {
public:
    VifCpu(const FeatureOptions &o, vif::Kernels which)
        : which_(which), settings_(vif::Settings::from(o)) {}

    int init(const FrameFormat &fmt) override
    {
        if (fmt.w < vif::kMinSide || fmt.h < vif::kMinSide) return -EINVAL;
        if (fmt.bpc < 8 || fmt.bpc > 16) return -EINVAL;
        fmt_ = fmt;
        stride_ = fmt.w / 2;
        // The buffers are made with the first frame: a context whose VIF runs
        // on the GPU never needs them.
        kernels_ = pick_kernels(which_);
        params_ = {log2_table(), settings_.gain_limit, kernels_.accumulate};
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        if (ref.w[0] != fmt_.w || ref.h[0] != fmt_.h || dist.w[0] != fmt_.w || dist.h[0] != fmt_.h ||
            ref.bpc != fmt_.bpc || dist.bpc != fmt_.bpc)
            return -EINVAL;
        if (images_[0].empty()) {
            rows_.init(fmt_.w);
            for (auto &img : images_) img.assign(size_t(stride_) * (fmt_.h / 2), 0);
        }

        ScaleScore score[vif::kScales] = {};
        ScalePlanes p = input_planes(ref, dist);
        for (int scale = 0; scale < vif::kScales; scale++) {
            const unsigned bits = vif::input_bits(scale, fmt_.bpc);
            if (scale > 0) {
                // Scale s lives in the two halves of images_ of parity s.
                uint16_t *r = images_[2 * (scale & 1)].data(), *d = images_[2 * (scale & 1) + 1].data();
                kernels_.halve(p, vif::input_bits(scale - 1, fmt_.bpc), scale, rows_, r, d, stride_);
                const unsigned w = p.is8 ? p.ref8.w / 2 : p.ref16.w / 2;
                const unsigned h = p.is8 ? p.ref8.h / 2 : p.ref16.h / 2;
                p.is8 = false;
                p.ref16 = {r, stride_, w, h};
                p.dis16 = {d, stride_, w, h};
            }
            if (scale == 0 && settings_.skip_scale0) continue;
            score[scale] = kernels_.statistic(p, bits, scale, rows_, params_);
        }
        return vif::write_scores(score, settings_, index, out);
    }

private:
    ScalePlanes input_planes(const VmafPicture &ref, const VmafPicture &dist) const
    {
        ScalePlanes p{};
        p.is8 = fmt_.bpc == 8;
        if (p.is8) {
            p.ref8 = {static_cast<const uint8_t *>(ref.data[0]), ref.stride[0], fmt_.w, fmt_.h};
            p.dis8 = {static_cast<const uint8_t *>(dist.data[0]), dist.stride[0], fmt_.w, fmt_.h};
        } else {
            p.ref16 = {static_cast<const uint16_t *>(ref.data[0]), ref.stride[0] / 2, fmt_.w, fmt_.h};
            p.dis16 = {static_cast<const uint16_t *>(dist.data[0]), dist.stride[0] / 2, fmt_.w, fmt_.h};
        }
        return p;
    }

    vif::Kernels which_;
    vif::Settings settings_;
    FrameFormat fmt_{};
    RowScratch rows_;
    // Scales 1 and 3 use images_[0..1], scale 2 images_[2..3] (ref, dis),
    // each half the input's size with the same stride.
    std::vector<uint16_t> images_[4];
    ptrdiff_t stride_ = 0;
    KernelSet kernels_{};
    StatParams params_{};
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return std::make_unique<VifCpu>(o, vif::Kernels::Best);
}

}  // namespace

std::unique_ptr<Extractor> vif::create_cpu(const FeatureOptions &opts, Kernels which)
{
    return std::make_unique<VifCpu>(opts, which);
}

namespace {

constexpr FeatureAlias kAliases[] = {
    {vif::kScaleNames[0], "integer_vif_scale0"},
    {vif::kScaleNames[1], "integer_vif_scale1"},
    {vif::kScaleNames[2], "integer_vif_scale2"},
    {vif::kScaleNames[3], "integer_vif_scale3"},
};

}  // namespace

const ExtractorInfo kVifExtractor = {"vif", kProvided, kOptions, 0, create, nullptr, kAliases};

}  // namespace vmaf
