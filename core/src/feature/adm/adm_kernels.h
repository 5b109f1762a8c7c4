// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer ADM kernels: one wavelet level, decoupling, CSF/masking thresholds,
// and the two per-scale sums (reference energy and masked distortion).
//
// Everything here is forced inline so that adm_cpu.cpp can compile the same
// code twice, for the baseline ISA and for AVX2, and pick one at run time.
// The loops are written for the auto-vectorizer: restrict pointers, 32-bit
// lanes where the values provably fit, 64-bit lanes elsewhere, no branches in
// the inner loops. Results are bit-identical between the two builds because
// the code is integer arithmetic plus float/double operations without FMA
// contraction.
//
// Scale 0 keeps its bands in 16 bits, scales 1..3 in 32 bits; the two differ
// in their fixed-point formats (see adm_tables.h), so several kernels come in
// a 16-bit and a 32-bit flavour selected by the band type.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "feature/adm/adm_tables.h"
#include "util/simd.h"

namespace vmaf::adm {

template <typename T>
struct Plane {
    T *data = nullptr;
    ptrdiff_t stride = 0;  // elements
    T *row(int y) const { return data + y * stride; }
};

// One wavelet level: a (low-low) plus the three detail orientations.
template <typename T>
struct Bands {
    Plane<T> a;
    Plane<T> det[kOrientations];  // h, v, d
};

// Half-open rectangle of band samples.
struct Rect {
    int top, bottom, left, right;
    int width() const { return right - left; }
    int height() const { return bottom - top; }
};

// Where scores are summed: the band minus 10 % on every side.
inline Rect score_rect(int w, int h)
{
    const int left = int(w * kBorderFactor - 0.5);
    const int top = int(h * kBorderFactor - 0.5);
    return {top, h - top, left, w - left};
}

// Where decoupling and the CSF run: the score rectangle plus the masking
// window's reach (libvmaf's exact expression, clamped to the band).
inline Rect work_rect(int w, int h)
{
    const int left = std::max(int(w * kBorderFactor - 0.5 - 1), 0);
    const int top = std::max(int(h * kBorderFactor - 0.5 - 1), 0);
    return {top, std::min(h - top + 2, h), left, std::min(w - left + 2, w)};
}

// Mirror a sample index into [0, n): -1 -> 1 (reflect about the first
// sample), n -> n - 1 and n + 1 -> n - 2 (reflect about the edge). Both the
// transform and the masking window use this.
VMAF_INLINE int mirror(int k, int n)
{
    return k < 0 ? -k : (k >= n ? 2 * n - k - 1 : k);
}

namespace kernels {

// ------------------------------------------------------------- wavelet --
//
// A level is a vertical pass into intermediate rows (low and high pass of
// every input column) and a horizontal pass over them. libvmaf keeps those
// rows back to back in one scratch buffer, and so do we: scale 0 holds
// [lo | hi] (16 bits) per picture, scales 1..3 hold [lo_ref | hi_ref | lo_dis
// | hi_dis] (32 bits). The layout matters at the right edge, see
// right_edge_reads_on().

// Horizontal taps of output column j are intermediate columns 2j - 1 .. 2j + 2,
// mirrored at the left edge. At the right edge libvmaf's C code mirrors too,
// but its AVX-512 code (which produced the reference scores) computes the
// last column in its vector loop whenever that loop ends exactly there, and
// then reads past the row into whatever follows it in the scratch buffer:
// the next intermediate row, or for the last row of the buffer what an
// earlier row or scale left there. The loop ends there when (ow - 1) is a
// multiple of its block: 32 columns for 8-bit input, 64 for deeper input at
// scale 0, 8 at scales 1..3. Only the last column of the bands changes, which
// reaches the scores of small pictures at coarse scales.
//
// libvmaf picks its AVX-512 or AVX2 code by the processor it runs on, so its
// scores depend on it. Its AVX2 code reads past the row the same way with
// other blocks (16 for deeper input at scale 0, 4 at scales 1..3) and stops
// short of the edge for 8-bit input. Both are reproduced; the AVX-512 one is
// the default (option edge_as).
struct EdgeBlocks {
    int scale0_8bit, scale0_deep, scales123;  // 0: the C code's mirror
};
inline constexpr EdgeBlocks kEdgeAvx512{32, 64, 8};
inline constexpr EdgeBlocks kEdgeAvx2{0, 16, 4};

VMAF_INLINE bool right_edge_reads_on(int ow, int block)
{
    return block > 0 && (ow - 1) % block == 0;
}

VMAF_INLINE int right_edge_tap(int x, int w, bool reads_on)
{
    return reads_on ? x : mirror(x, w);
}

// One output column at scale 0 from explicit tap positions: 32-bit sums, Q16.
VMAF_INLINE void dwt0_column(const int16_t *lo, const int16_t *hi, const int (&t)[4], int16_t *a, int16_t *v,
                            int16_t *h, int16_t *d)
{
    constexpr int32_t round = 1 << (kDwt0HorizontalShift - 1);
    int32_t sa = round, sv = round, sh = round, sd = round;
    for (int k = 0; k < 4; k++) {
        sa += kDwtLo[k] * lo[t[k]];
        sv += kDwtHi[k] * lo[t[k]];
        sh += kDwtLo[k] * hi[t[k]];
        sd += kDwtHi[k] * hi[t[k]];
    }
    *a = int16_t(sa >> kDwt0HorizontalShift);
    *v = int16_t(sv >> kDwt0HorizontalShift);
    *h = int16_t(sh >> kDwt0HorizontalShift);
    *d = int16_t(sd >> kDwt0HorizontalShift);
}

// Horizontal half of a level at scale 0.
VMAF_INLINE void dwt0_horizontal(const int16_t *lo, const int16_t *hi, int w, int ow, bool edge_reads_on,
                                int16_t *__restrict a, int16_t *__restrict v, int16_t *__restrict h,
                                int16_t *__restrict d)
{
    dwt0_column(lo, hi, {1, 0, 1, 2}, a, v, h, d);
    constexpr int32_t round = 1 << (kDwt0HorizontalShift - 1);
    for (int j = 1; j < ow - 1; j++) {
        const int16_t *l = lo + 2 * j - 1, *g = hi + 2 * j - 1;
        const int32_t l0 = l[0], l1 = l[1], l2 = l[2], l3 = l[3];
        const int32_t g0 = g[0], g1 = g[1], g2 = g[2], g3 = g[3];
        a[j] = int16_t((kDwtLo[0] * l0 + kDwtLo[1] * l1 + kDwtLo[2] * l2 + kDwtLo[3] * l3 + round) >>
                       kDwt0HorizontalShift);
        v[j] = int16_t((kDwtHi[0] * l0 + kDwtHi[1] * l1 + kDwtHi[2] * l2 + kDwtHi[3] * l3 + round) >>
                       kDwt0HorizontalShift);
        h[j] = int16_t((kDwtLo[0] * g0 + kDwtLo[1] * g1 + kDwtLo[2] * g2 + kDwtLo[3] * g3 + round) >>
                       kDwt0HorizontalShift);
        d[j] = int16_t((kDwtHi[0] * g0 + kDwtHi[1] * g1 + kDwtHi[2] * g2 + kDwtHi[3] * g3 + round) >>
                       kDwt0HorizontalShift);
    }
    const int j = ow - 1, x = 2 * j - 1;
    const int t[4] = {right_edge_tap(x, w, edge_reads_on), right_edge_tap(x + 1, w, edge_reads_on),
                      right_edge_tap(x + 2, w, edge_reads_on), right_edge_tap(x + 3, w, edge_reads_on)};
    dwt0_column(lo, hi, t, a + j, v + j, h + j, d + j);
}

// Scale 0 from bpc-bit samples. tmp holds the [lo | hi] rows (2 w + 2
// entries, see above). The vertical sums are computed modulo 2^32: with
// 16-bit input the low-pass sum passes 2^31 before the centring offset
// brings it back, exactly as libvmaf's int32 arithmetic wraps.
template <typename Pixel>
VMAF_INLINE void dwt0(const Pixel *src, ptrdiff_t stride, int w, int h, unsigned bpc, const EdgeBlocks &eb,
                     int16_t *tmp, const Bands<int16_t> &out)
{
    const uint32_t round = uint32_t(dwt0_vertical_round(bpc));
    const uint32_t offset = uint32_t(dwt0_lo_offset(bpc));
    const uint32_t lo0 = uint32_t(kDwtLo[0]), lo1 = uint32_t(kDwtLo[1]), lo2 = uint32_t(kDwtLo[2]),
                   lo3 = uint32_t(kDwtLo[3]);
    const uint32_t hi0 = uint32_t(kDwtHi[0]), hi1 = uint32_t(kDwtHi[1]), hi2 = uint32_t(kDwtHi[2]),
                   hi3 = uint32_t(kDwtHi[3]);
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    const bool edge = right_edge_reads_on(ow, sizeof(Pixel) == 1 ? eb.scale0_8bit : eb.scale0_deep);
    int16_t *__restrict lo = tmp;
    int16_t *__restrict hi = tmp + w;
    for (int i = 0; i < oh; i++) {
        const Pixel *__restrict s0 = src + mirror(2 * i - 1, h) * stride;
        const Pixel *__restrict s1 = src + mirror(2 * i, h) * stride;
        const Pixel *__restrict s2 = src + mirror(2 * i + 1, h) * stride;
        const Pixel *__restrict s3 = src + mirror(2 * i + 2, h) * stride;
        for (int j = 0; j < w; j++) {
            const uint32_t u0 = s0[j], u1 = s1[j], u2 = s2[j], u3 = s3[j];
            const uint32_t l = lo0 * u0 + lo1 * u1 + lo2 * u2 + lo3 * u3 - offset;
            const uint32_t g = hi0 * u0 + hi1 * u1 + hi2 * u2 + hi3 * u3;
            lo[j] = int16_t(int32_t(l + round) >> bpc);
            hi[j] = int16_t(int32_t(g + round) >> bpc);
        }
        dwt0_horizontal(tmp, tmp + w, w, ow, edge, out.a.row(i), out.det[1].row(i), out.det[0].row(i),
                        out.det[2].row(i));
    }
}

// (acc + round) >> shift keeping the low 32 bits: a logical shift gives the
// same low bits as the arithmetic one for shift <= 32, and vectorizes.
VMAF_INLINE int32_t narrow(int64_t acc, int64_t round, int shift)
{
    return int32_t(uint32_t(uint64_t(acc + round) >> shift));
}

// Vertical half of a level at scales 1..3 (64-bit sums).
template <typename In>
VMAF_INLINE void dwt_vertical(const Plane<In> &src, int w, int h, int i, int64_t round, int shift,
                             int32_t *__restrict lo, int32_t *__restrict hi)
{
    const In *__restrict s0 = src.row(mirror(2 * i - 1, h));
    const In *__restrict s1 = src.row(mirror(2 * i, h));
    const In *__restrict s2 = src.row(mirror(2 * i + 1, h));
    const In *__restrict s3 = src.row(mirror(2 * i + 2, h));
    for (int j = 0; j < w; j++) {
        const int64_t u0 = s0[j], u1 = s1[j], u2 = s2[j], u3 = s3[j];
        lo[j] = narrow(kDwtLo[0] * u0 + kDwtLo[1] * u1 + kDwtLo[2] * u2 + kDwtLo[3] * u3, round, shift);
        hi[j] = narrow(kDwtHi[0] * u0 + kDwtHi[1] * u1 + kDwtHi[2] * u2 + kDwtHi[3] * u3, round, shift);
    }
}

VMAF_INLINE void dwt_column(const int32_t *lo, const int32_t *hi, const int (&t)[4], int64_t round, int shift,
                           int32_t *a, int32_t *v, int32_t *h, int32_t *d)
{
    int64_t sa = 0, sv = 0, sh = 0, sd = 0;
    for (int k = 0; k < 4; k++) {
        sa += kDwtLo[k] * int64_t(lo[t[k]]);
        sv += kDwtHi[k] * int64_t(lo[t[k]]);
        sh += kDwtLo[k] * int64_t(hi[t[k]]);
        sd += kDwtHi[k] * int64_t(hi[t[k]]);
    }
    *a = narrow(sa, round, shift);
    *v = narrow(sv, round, shift);
    *h = narrow(sh, round, shift);
    *d = narrow(sd, round, shift);
}

VMAF_INLINE void dwt_horizontal(const int32_t *lo, const int32_t *hi, int w, int ow, bool edge_reads_on,
                               int64_t round, int shift, int32_t *__restrict a, int32_t *__restrict v,
                               int32_t *__restrict h, int32_t *__restrict d)
{
    dwt_column(lo, hi, {1, 0, 1, 2}, round, shift, a, v, h, d);
    for (int j = 1; j < ow - 1; j++) {
        const int32_t *l = lo + 2 * j - 1, *g = hi + 2 * j - 1;
        const int64_t l0 = l[0], l1 = l[1], l2 = l[2], l3 = l[3];
        const int64_t g0 = g[0], g1 = g[1], g2 = g[2], g3 = g[3];
        a[j] = narrow(kDwtLo[0] * l0 + kDwtLo[1] * l1 + kDwtLo[2] * l2 + kDwtLo[3] * l3, round, shift);
        v[j] = narrow(kDwtHi[0] * l0 + kDwtHi[1] * l1 + kDwtHi[2] * l2 + kDwtHi[3] * l3, round, shift);
        h[j] = narrow(kDwtLo[0] * g0 + kDwtLo[1] * g1 + kDwtLo[2] * g2 + kDwtLo[3] * g3, round, shift);
        d[j] = narrow(kDwtHi[0] * g0 + kDwtHi[1] * g1 + kDwtHi[2] * g2 + kDwtHi[3] * g3, round, shift);
    }
    const int j = ow - 1, x = 2 * j - 1;
    const int t[4] = {right_edge_tap(x, w, edge_reads_on), right_edge_tap(x + 1, w, edge_reads_on),
                      right_edge_tap(x + 2, w, edge_reads_on), right_edge_tap(x + 3, w, edge_reads_on)};
    dwt_column(lo, hi, t, round, shift, a + j, v + j, h + j, d + j);
}

// Scales 1..3 from the previous low-low bands (16 bits at scale 1, 32 after)
// of both pictures, row by row as libvmaf interleaves them; tmp holds the
// four intermediate rows (4 w + 2 entries).
template <typename In>
VMAF_INLINE void dwt(const Plane<In> &ref, const Plane<In> &dis, int w, int h, int scale, const EdgeBlocks &eb,
                    int32_t *tmp, const Bands<int32_t> &ref_out, const Bands<int32_t> &dis_out)
{
    const int vs = kDwtVerticalShift[scale - 1], hs = kDwtHorizontalShift[scale - 1];
    const int64_t vr = round_of(vs), hr = round_of(hs);
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    const bool edge = right_edge_reads_on(ow, eb.scales123);
    int32_t *lo_r = tmp, *hi_r = tmp + w, *lo_d = tmp + 2 * w, *hi_d = tmp + 3 * w;
    for (int i = 0; i < oh; i++) {
        dwt_vertical(ref, w, h, i, vr, vs, lo_r, hi_r);
        dwt_vertical(dis, w, h, i, vr, vs, lo_d, hi_d);
        dwt_horizontal(lo_r, hi_r, w, ow, edge, hr, hs, ref_out.a.row(i), ref_out.det[1].row(i),
                       ref_out.det[0].row(i), ref_out.det[2].row(i));
        dwt_horizontal(lo_d, hi_d, w, ow, edge, hr, hs, dis_out.a.row(i), dis_out.det[1].row(i),
                       dis_out.det[0].row(i), dis_out.det[2].row(i));
    }
}

// ---------------------------------------------------------- decoupling --

// Q15 ratio t / o clamped to [0, 1] through the reciprocal table (indexed
// by x + 32768, holding 2^30 / x). 32-bit references are first rounded to 15
// significant bits and the shift is folded back in.
template <typename T>
VMAF_INLINE int64_t ratio_q15(T o, T t, const int32_t *recip)
{
    int64_t k;
    if constexpr (sizeof(T) == 2) {
        k = (int64_t(recip[o + kReciprocalRange]) * t + (1 << (kRatioShift - 1))) >> kRatioShift;
    } else {
        const uint32_t mag = o < 0 ? 0u - uint32_t(o) : uint32_t(o);
        int shift = 0;
        uint32_t m = mag;
        if (mag >= uint32_t(kReciprocalRange)) {
            shift = 17 - __builtin_clz(mag);
            m = (mag + (1u << (shift - 1))) >> shift;
        }
        const int64_t num = int64_t(recip[m + kReciprocalRange]) * t * (o < 0 ? -1 : 1);
        k = (num + (int64_t(1) << (kRatioShift - 1 + shift))) >> (kRatioShift + shift);
    }
    if (o == 0) k = kRatioOne;
    return std::clamp<int64_t>(k, 0, kRatioOne);
}

// True when the (h, v) orientation of the distorted band is within one
// degree of the reference's: (o.t)^2 >= cos^2(1 deg) |o|^2 |t|^2 with o.t >= 0.
// libvmaf divides each float by 4096 first; scaling by a power of two
// commutes with rounding, so the comparison is the same without it. P is a
// wide enough integer for the dot products (int32 for 16-bit bands, whose
// magnitude stays below 23000).
template <typename P, typename T>
VMAF_INLINE bool within_one_degree(T oh, T ov, T th, T tv)
{
    const P dot = P(oh) * th + P(ov) * tv;
    const P oo = P(oh) * oh + P(ov) * ov;
    const P tt = P(th) * th + P(tv) * tv;
    const double fdot = float(dot);
    return (fdot >= 0.0) & (fdot * fdot >= double(kCos1DegSq) * double(float(oo)) * double(float(tt)));
}

// Splits one distorted coefficient t into the part explained by the
// reference o (restored, r = k o) and the additive rest (a = t - r). Where
// the orientation is preserved, enhancement is allowed up to the gain limit:
// r becomes the enhanced value r * limit, but not beyond t. libvmaf's C code
// truncates r * limit; its SIMD code (the reference scores) rounds it to
// nearest in the columns its vector loop covers (see decouple()). Both agree
// for integral limits such as the defaults 1 and 100.
template <typename T>
VMAF_INLINE void decouple_one(T o, T t, bool enhance, bool nearest, double gain_limit, const int32_t *recip, T *r,
                             T *a)
{
    using W = std::conditional_t<sizeof(T) == 2, int32_t, int64_t>;
    const int64_t k = ratio_q15(o, t, recip);
    W rst = W((k * o + (1 << (kRatioShift - 1))) >> kRatioShift);
    if (enhance && k > 0 && o != 0) {
        const double g = double(rst) * gain_limit;
        if (nearest) {
            const W e = W(std::nearbyint(g));
            rst = o > 0 ? std::min(e, W(t)) : std::max(e, W(t));
        } else {
            rst = W(o > 0 ? std::min(g, double(t)) : std::max(g, double(t)));
        }
    }
    *r = T(rst);
    *a = T(W(t) - rst);
}

// libvmaf's SIMD decoupling runs over 16-column blocks from the left edge of
// the rectangle and finishes the remainder with the C code.
inline constexpr int kDecoupleBlock = 16;

// Round half to even under the default rounding mode, as a vector
// float-to-int conversion does (|x| < 2^51).
VMAF_INLINE double round_half_even(double x)
{
    constexpr double magic = 0x1.8p52;
    return (x + magic) - magic;
}

// decouple_one() for 16-bit bands without branches, for the vectorizer.
// o == 0 needs no special ratio: r is then 0 for any k, and enhancement
// requires o != 0. rst * limit is clamped to t after rounding, which gives
// the same result as rounding the clamped product (t is an integer).
template <bool Nearest>
VMAF_INLINE void decouple16_one(int32_t o, int32_t t, bool enhance, double gain_limit, const int32_t *recip,
                               int16_t *r, int16_t *a)
{
    const int64_t x = int64_t(recip[o + kReciprocalRange]) * t + (1 << (kRatioShift - 1));
    const int32_t k = int32_t(std::clamp<int64_t>(x >> kRatioShift, 0, kRatioOne));
    const int32_t rst = (k * o + (1 << (kRatioShift - 1))) >> kRatioShift;
    const double g = double(rst) * gain_limit;
    const int32_t e = Nearest ? int32_t(round_half_even(g)) : int32_t(g);
    const int32_t enhanced = o > 0 ? std::min(e, t) : std::max(e, t);
    const int32_t out = (enhance & (k > 0) & (o != 0)) ? enhanced : rst;
    *r = int16_t(out);
    *a = int16_t(t - out);
}

template <bool Nearest>
VMAF_INLINE void decouple16_span(const int16_t *__restrict oh, const int16_t *__restrict ov,
                                const int16_t *__restrict od, const int16_t *__restrict th,
                                const int16_t *__restrict tv, const int16_t *__restrict td, int16_t *__restrict rh,
                                int16_t *__restrict rv, int16_t *__restrict rd, int16_t *__restrict ah,
                                int16_t *__restrict av, int16_t *__restrict ad, int x0, int x1, double gain_limit,
                                const int32_t *__restrict recip)
{
    for (int j = x0; j < x1; j++) {
        const bool enhance = within_one_degree<int32_t>(oh[j], ov[j], th[j], tv[j]);
        decouple16_one<Nearest>(oh[j], th[j], enhance, gain_limit, recip, &rh[j], &ah[j]);
        decouple16_one<Nearest>(ov[j], tv[j], enhance, gain_limit, recip, &rv[j], &av[j]);
        decouple16_one<Nearest>(od[j], td[j], enhance, gain_limit, recip, &rd[j], &ad[j]);
    }
}

template <typename T>
VMAF_INLINE void decouple(const Bands<T> &ref, const Bands<T> &dis, const Rect &rc, double gain_limit,
                         const int32_t *recip, const Plane<T> (&r)[kOrientations],
                         const Plane<T> (&a)[kOrientations])
{
    const int blocks_end = rc.right - rc.width() % kDecoupleBlock;
    for (int i = rc.top; i < rc.bottom; i++) {
        const T *oh = ref.det[0].row(i), *ov = ref.det[1].row(i), *od = ref.det[2].row(i);
        const T *th = dis.det[0].row(i), *tv = dis.det[1].row(i), *td = dis.det[2].row(i);
        T *rh = r[0].row(i), *rv = r[1].row(i), *rd = r[2].row(i);
        T *ah = a[0].row(i), *av = a[1].row(i), *ad = a[2].row(i);
        if constexpr (sizeof(T) == 2) {
            decouple16_span<true>(oh, ov, od, th, tv, td, rh, rv, rd, ah, av, ad, rc.left, blocks_end, gain_limit,
                                  recip);
            decouple16_span<false>(oh, ov, od, th, tv, td, rh, rv, rd, ah, av, ad, blocks_end, rc.right,
                                   gain_limit, recip);
        } else {
            for (int j = rc.left; j < rc.right; j++) {
                const bool enhance = within_one_degree<int64_t>(oh[j], ov[j], th[j], tv[j]);
                const bool nearest = j < blocks_end;
                decouple_one(oh[j], th[j], enhance, nearest, gain_limit, recip, &rh[j], &ah[j]);
                decouple_one(ov[j], tv[j], enhance, nearest, gain_limit, recip, &rv[j], &av[j]);
                decouple_one(od[j], td[j], enhance, nearest, gain_limit, recip, &rd[j], &ad[j]);
            }
        }
    }
}

// ------------------------------------------------------------- masking --

// CSF-weighted coefficient of the masker and its two masking contributions
// (neighbour |c| / 30, centre |c| / 15), per band format.
struct Mask16 {
    static VMAF_INLINE int32_t csf(int16_t x, uint32_t w, int o)
    {
        const int32_t p = int32_t(w) * x;
        return int16_t(int32_t(uint32_t(p) + uint32_t(kCsf0Round[o])) >> kCsf0Shift[o]);
    }
    static VMAF_INLINE int32_t neighbour(int32_t c)
    {
        return int16_t((kOneBy30Q17 * std::abs(c) + (1 << (kMask0Shift - 1))) >> kMask0Shift);
    }
    static VMAF_INLINE int32_t centre(int32_t c)
    {
        return int16_t((kOneBy15Q17 * std::abs(c) + (1 << (kMask0Shift - 1))) >> kMask0Shift);
    }
};

struct Mask32 {
    static VMAF_INLINE int32_t csf(int32_t x, uint32_t w, int)
    {
        return int32_t((int64_t(w) * x + kCsfRound) >> kCsfShift);
    }
    static VMAF_INLINE int64_t mag(int32_t c) { return c < 0 ? -int64_t(c) : int64_t(c); }
    static VMAF_INLINE int32_t neighbour(int32_t c) { return int32_t((kOneBy30Q32 * mag(c) + kMaskRound) >> kMaskShift); }
    static VMAF_INLINE int32_t centre(int32_t c) { return int32_t((kOneBy15Q32 * mag(c) + kMaskRound) >> kMaskShift); }
};

template <typename T>
using MaskOf = std::conditional_t<sizeof(T) == 2, Mask16, Mask32>;

// Per-sample masker sums over the three orientations: n = sum of neighbour
// contributions, c = sum of centre contributions. The masking threshold of a
// sample is then box3x3(n) - n + c (integer sums, so the order is free).
template <typename T>
VMAF_INLINE void masker(const Plane<T> (&m)[kOrientations], const uint32_t (&w)[kOrientations], const Rect &rc,
                       const Plane<int32_t> &n, const Plane<int32_t> &c)
{
    using M = MaskOf<T>;
    for (int i = rc.top; i < rc.bottom; i++) {
        const T *__restrict m0 = m[0].row(i), *__restrict m1 = m[1].row(i), *__restrict m2 = m[2].row(i);
        int32_t *__restrict nr = n.row(i), *__restrict cr = c.row(i);
        for (int j = rc.left; j < rc.right; j++) {
            const int32_t c0 = M::csf(m0[j], w[0], 0), c1 = M::csf(m1[j], w[1], 1), c2 = M::csf(m2[j], w[2], 2);
            nr[j] = M::neighbour(c0) + M::neighbour(c1) + M::neighbour(c2);
            cr[j] = M::centre(c0) + M::centre(c1) + M::centre(c2);
        }
    }
}

// Masking thresholds of the rows [rc.top, rc.bottom) x [rc.left, rc.right)
// of a band of size w x h, written to thr (same coordinates). col is a
// scratch row of w + 2 entries.
VMAF_INLINE void thresholds_row(const Plane<int32_t> &n, const Plane<int32_t> &c, int i, int w, int h, const Rect &rc,
                               int32_t *__restrict col, int32_t *__restrict thr)
{
    const int32_t *__restrict up = n.row(mirror(i - 1, h));
    const int32_t *__restrict mid = n.row(i);
    const int32_t *__restrict dn = n.row(mirror(i + 1, h));
    const int32_t *__restrict cen = c.row(i);
    const int x0 = rc.left, x1 = rc.right;
    // Vertical sums for columns x0 - 1 .. x1 (mirrored at the band edges).
    int32_t *vs = col + 1;
    for (int j = x0; j < x1; j++) vs[j] = up[j] + mid[j] + dn[j];
    const int jl = mirror(x0 - 1, w), jr = mirror(x1, w);
    vs[x0 - 1] = up[jl] + mid[jl] + dn[jl];
    vs[x1] = up[jr] + mid[jr] + dn[jr];
    for (int j = x0; j < x1; j++) thr[j] = vs[j - 1] + vs[j] + vs[j + 1] - mid[j] + cen[j];
}

// Masked distortion of one orientation and one row, at scale 0: the CSF
// weighted signal (Q21/Q23 of the Q6 band) minus the threshold, clipped at
// zero, cubed with libvmaf's intermediate rounding.
struct Cube16 {
    int sub, sq, cube;
    int64_t sq_round, cube_round;
    VMAF_INLINE int64_t operator()(int16_t s, uint32_t w, int32_t thr) const
    {
        const int32_t p = int32_t(w) * s;
        int32_t x = int32_t(uint32_t(p < 0 ? -p : p) - (uint32_t(thr) << sub));
        x = x < 0 ? 0 : x;
        const int32_t x2 = int32_t((int64_t(x) * x + sq_round) >> sq);
        return (int64_t(x2) * x + cube_round) >> cube;
    }
};

// The same at scales 1..3: the signal is rounded to the CSF format first.
struct Cube32 {
    int cube;
    int64_t cube_round;
    VMAF_INLINE int64_t operator()(int32_t s, uint32_t w, int32_t thr) const
    {
        int32_t x = int32_t((int64_t(w) * s + kCsfRound) >> kCsfShift);
        x = int32_t((x < 0 ? 0u - uint32_t(x) : uint32_t(x)) - uint32_t(thr));
        x = x < 0 ? 0 : x;
        const int32_t x2 = int32_t((int64_t(x) * x + (int64_t(1) << (kCmSquareShift - 1))) >> kCmSquareShift);
        return (int64_t(x2) * x + cube_round) >> cube;
    }
};

template <typename T, typename Cube>
VMAF_INLINE int64_t masked_row_sum(const T *__restrict s, const int32_t *__restrict thr, uint32_t w, const Cube &cube,
                                  int x0, int x1)
{
    int64_t sum = 0;
    for (int j = x0; j < x1; j++) sum += cube(s[j], w, thr[j]);
    return sum;
}

// Reference energy: sum of |x|^3 per row, in libvmaf's per-scale formats.
VMAF_INLINE uint64_t energy_row16(const int16_t *__restrict x, int x0, int x1)
{
    uint64_t sum = 0;
    for (int j = x0; j < x1; j++) {
        const uint64_t m = uint16_t(x[j] < 0 ? -x[j] : x[j]);
        sum += m * m * m;
    }
    return sum;
}

VMAF_INLINE uint64_t energy_row32(const int32_t *__restrict x, int x0, int x1, int sq, uint64_t sq_round, int cube,
                                 uint64_t cube_round)
{
    uint64_t sum = 0;
    for (int j = x0; j < x1; j++) {
        const uint64_t m = x[j] < 0 ? 0u - uint32_t(x[j]) : uint32_t(x[j]);
        sum += ((((m * m + sq_round) >> sq) * m) + cube_round) >> cube;
    }
    return sum;
}

}  // namespace kernels

}  // namespace vmaf::adm
