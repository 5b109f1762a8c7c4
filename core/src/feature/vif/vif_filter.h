// SPDX-License-Identifier: BSD-2-Clause-Patent
// The window sums of VIF's CPU extractor as 16-bit multiply-adds.
//
// Horizontal pass. The rows the vertical passes leave behind (means and
// 16-bit halves of the second moments) are unsigned 16-bit values, stored
// biased as int16 (v ^ 0x8000 == v - 32768) so that pmaddwd, which multiplies
// signed 16-bit pairs and adds each pair into 32 bits, can take them. A
// window sum then splits into pairs of adjacent taps: lane i of
// madd(load(x + c0 + off), {a, b}) is a * x[c0 + 2i + off] + b * x[c0 + 2i +
// off + 1], the contribution of one tap pair to output c0 + 2i. One pass over
// the pairs gives the even outputs of a block, a second pass one sample
// further on the odd ones.
//
// The bias costs nothing: every window's taps sum to 65536, so the biased sum
// is the true one minus 32768 * 65536 = 2^31, and the accumulators simply
// start at 2^31 (all arithmetic wraps modulo 2^32; every true sum fits).
// Each tap must fit int16: scale 3's centre tap (43728) is split into two
// equal halves at the same offset, each paired with a neighbour.
//
// Vertical pass of 8-bit input (scale 0): the two rows of a tap pair,
// interleaved as 16-bit pairs, give the pair's mean and second-moment terms
// in one madd each (vif_filter_tmpl.h). Deeper input keeps the extractor's
// 32-bit loops.
//
// This header holds the portable parts; vif_filter_x86.h the vector kernels.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "feature/vif/vif_tables.h"
#include "util/simd.h"

namespace vmaf::vif {

// Stored form of a 16-bit row value and back.
VMAF_INLINE int16_t bias16(uint32_t v) { return int16_t(uint16_t(v ^ 0x8000u)); }
VMAF_INLINE uint32_t unbias16(int16_t s) { return uint16_t(s) ^ 0x8000u; }

// One row of vertically filtered second moments, each 32-bit value stored as
// two biased 16-bit halves so the horizontal sums fit 32 bits.
struct MomentRow {
    int16_t *xx_hi, *xx_lo, *yy_hi, *yy_lo, *xy_hi, *xy_lo;
};

// a * x[c + off] + b * x[c + off + 1].
struct MaddPair {
    int off;
    int16_t a, b;
};

// Up to W + 1 pairs (every tap split in two at worst).
struct MaddTaps {
    int count = 0;
    std::array<MaddPair, kMaxFilterWidth + 1> pair{};
};

constexpr MaddTaps make_madd_taps(int scale)
{
    const int w = kFilterWidth[scale], h = w / 2;
    // The taps as (offset, coefficient) with every coefficient below 2^15.
    int off[2 * kMaxFilterWidth] = {}, coef[2 * kMaxFilterWidth] = {}, n = 0;
    for (int k = 0; k < w; k++) {
        const int f = kFilter[scale][k];
        if (f < 32768) {
            off[n] = k - h, coef[n++] = f;
        } else {
            off[n] = k - h, coef[n++] = f / 2;
            off[n] = k - h, coef[n++] = f - f / 2;
        }
    }
    // Pair each tap with the next when that one is one sample on, else with
    // a zero tap one sample on.
    MaddTaps t;
    for (int i = 0; i < n;) {
        if (i + 1 < n && off[i + 1] == off[i] + 1) {
            t.pair[t.count++] = {off[i], int16_t(coef[i]), int16_t(coef[i + 1])};
            i += 2;
        } else {
            t.pair[t.count++] = {off[i], int16_t(coef[i]), 0};
            i += 1;
        }
    }
    return t;
}

inline constexpr MaddTaps kMaddTaps[kScales] = {make_madd_taps(0), make_madd_taps(1), make_madd_taps(2),
                                                make_madd_taps(3)};

constexpr bool madd_taps_valid()
{
    for (int s = 0; s < kScales; s++) {
        long sum = 0;
        for (int p = 0; p < kMaddTaps[s].count; p++) {
            const MaddPair &q = kMaddTaps[s].pair[p];
            if (q.a < 0 || q.b < 0 || q.off < -kMaxFilterHalf || q.off + 1 > kMaxFilterHalf + 1) return false;
            sum += q.a + q.b;
        }
        if (sum != 65536) return false;  // the bias correction is exactly 2^31
    }
    return true;
}
static_assert(madd_taps_valid());

// Samples a horizontal pass may read beyond a row's mirrored padding: the
// zero tap of scale 0's last pair, one sample past the window.
inline constexpr int kHFilterOverread = 1;

// The window sum at output c of a biased row, one output at a time (the
// portable kernels and the vector kernels' tails).
template <int S>
VMAF_INLINE uint32_t window_sum(const int16_t *x, ptrdiff_t c)
{
    constexpr int W = kFilterWidth[S], H = W / 2;
    constexpr const uint16_t *f = kFilter[S];
    uint32_t u = f[H] * unbias16(x[c]);
#pragma GCC unroll 8
    for (int k = 0; k < H; k++) u += f[k] * (unbias16(x[c - H + k]) + unbias16(x[c + H - k]));
    return u;
}

// The row kernels in portable C++, left to the compiler to vectorize
// (vif_filter_tmpl.h has the same interface with pmaddwd, and finishes its
// rows' tails with these from column j0).
struct PortableRows {
    // The vector builds' fused vertical pass over 8-bit rows; the portable
    // build leaves every column to the extractor's own loops.
    template <int S>
    static VMAF_INLINE unsigned vertical8(const uint8_t *const *, const uint8_t *const *, unsigned, int16_t *,
                                          int16_t *, const MomentRow &)
    {
        return 0;
    }

    // Window sums of two rows (the means).
    template <int S>
    static VMAF_INLINE void window_pair(const int16_t *a, const int16_t *b, unsigned w, uint32_t *__restrict sa,
                                        uint32_t *__restrict sb, unsigned j0 = 0)
    {
#pragma GCC ivdep
        for (unsigned j = j0; j < w; j++) {
            sa[j] = window_sum<S>(a, j);
            sb[j] = window_sum<S>(b, j);
        }
    }

    // Q16 window sum of a second moment held as two 16-bit halves:
    // Σ hi + (Σ lo + round) >> 16.
    template <int S>
    static VMAF_INLINE void window_split(const int16_t *hi, const int16_t *lo, unsigned w, uint32_t *__restrict out,
                                         unsigned j0 = 0)
    {
        constexpr uint32_t round = round_of(kQ16Shift);
#pragma GCC ivdep
        for (unsigned j = j0; j < w; j++) out[j] = window_sum<S>(hi, j) + ((window_sum<S>(lo, j) + round) >> kQ16Shift);
    }

    // The horizontal half of halving: Q16 window sums at the even samples.
    template <int S>
    static VMAF_INLINE void window_halve(const int16_t *x, unsigned out_w, uint16_t *__restrict out, unsigned j0 = 0)
    {
        constexpr uint32_t round = round_of(kQ16Shift);
#pragma GCC ivdep
        for (unsigned j = j0; j < out_w; j++) out[j] = uint16_t((window_sum<S>(x, 2 * ptrdiff_t(j)) + round) >> kQ16Shift);
    }
};

}  // namespace vmaf::vif
