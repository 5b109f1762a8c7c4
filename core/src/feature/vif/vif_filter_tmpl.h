// SPDX-License-Identifier: BSD-2-Clause-Patent
// VIF's window-sum kernels over one vector width: included by
// vif_filter_x86.h inside a target region, after the definition of the
// width's `Isa`. No include guard: it is compiled once per width. `Rows` has
// the interface of vif::PortableRows; its kernels are not forced inline, as
// they are called, one row at a time, from code built for any target.

struct Rows {
    // Scale S's vertical pass over 8-bit rows, for whole blocks of 2L
    // columns: the means (Σ f a + 2^7) >> 8 into mu1 and mu2 and the second
    // moments Σ f a^2, Σ f b^2, Σ f a b as two 16-bit halves, all biased.
    // Returns the columns done.
    //
    // Each tap pair's rows are interleaved as 16-bit pairs (a_k, a_W-1-k), so
    // that one madd with (f, f) gives f (a_k + a_W-1-k) and one with itself
    // a_k^2 + a_W-1-k^2 (then times f); the centre tap pairs with zeros.
    template <int S>
    static unsigned vertical8(const uint8_t *const *r, const uint8_t *const *d, unsigned w, int16_t *mu1,
                              int16_t *mu2, const MomentRow &out)
    {
        constexpr int W = kFilterWidth[S], H = W / 2;
        constexpr const uint16_t *f = kFilter[S];
        constexpr unsigned shift = mean_shift(8);
        static_assert(moment_shift(8) == 0, "8-bit moments are stored unshifted");
        using V = Isa::V;
        unsigned j = 0;
        for (; j + 2 * Isa::L <= w; j += 2 * Isa::L) {
            V m1[2], m2[2], xx[2], yy[2], xy[2];
            for (int k = 0; k <= H; k++) {
                const V ra = Isa::load8(r[k] + j), da = Isa::load8(d[k] + j);
                const V rb = k < H ? Isa::load8(r[W - 1 - k] + j) : Isa::set1(0);
                const V db = k < H ? Isa::load8(d[W - 1 - k] + j) : Isa::set1(0);
                const V taps = Isa::set1(f[k] | uint32_t(k < H ? f[k] : 0) << 16), tap = Isa::set1(f[k]);
                const V pr[2] = {Isa::unpacklo16(ra, rb), Isa::unpackhi16(ra, rb)};
                const V pd[2] = {Isa::unpacklo16(da, db), Isa::unpackhi16(da, db)};
                for (int h = 0; h < 2; h++) {
                    const V a1 = Isa::madd(pr[h], taps), a2 = Isa::madd(pd[h], taps);
                    const V sxx = Isa::mullo(Isa::madd(pr[h], pr[h]), tap);
                    const V syy = Isa::mullo(Isa::madd(pd[h], pd[h]), tap);
                    const V sxy = Isa::mullo(Isa::madd(pr[h], pd[h]), tap);
                    if (k == 0) {
                        m1[h] = a1, m2[h] = a2, xx[h] = sxx, yy[h] = syy, xy[h] = sxy;
                    } else {
                        m1[h] = Isa::add(m1[h], a1), m2[h] = Isa::add(m2[h], a2);
                        xx[h] = Isa::add(xx[h], sxx), yy[h] = Isa::add(yy[h], syy), xy[h] = Isa::add(xy[h], sxy);
                    }
                }
            }
            const V round = Isa::set1(round_of(shift));
            auto mean = [&](const V &m) { return Isa::template srli<shift>(Isa::add(m, round)); };
            Isa::store_biased(mu1 + j, mean(m1[0]), mean(m1[1]));
            Isa::store_biased(mu2 + j, mean(m2[0]), mean(m2[1]));
            auto split = [&](const V *m, int16_t *hi, int16_t *lo) {
                Isa::store_biased(hi + j, Isa::template srli<16>(m[0]), Isa::template srli<16>(m[1]));
                Isa::store_biased(lo + j, Isa::low16(m[0]), Isa::low16(m[1]));
            };
            split(xx, out.xx_hi, out.xx_lo);
            split(yy, out.yy_hi, out.yy_lo);
            split(xy, out.xy_hi, out.xy_lo);
        }
        return j;
    }

    // Σ taps * x at outputs c0, c0 + 2, ..., c0 + 2(L - 1) of scale S's window.
    template <int S>
    static VMAF_INLINE Isa::V window_every_other(const int16_t *x, ptrdiff_t c0)
    {
        constexpr MaddTaps t = kMaddTaps[S];
        Isa::V acc = Isa::set1(0x80000000u);  // undoes the bias (vif_filter.h)
#pragma GCC unroll 18
        for (int p = 0; p < t.count; p++) {
            const uint32_t taps = uint16_t(t.pair[p].a) | uint32_t(uint16_t(t.pair[p].b)) << 16;
            acc = Isa::add(acc, Isa::madd(Isa::load(x + c0 + t.pair[p].off), Isa::set1(taps)));
        }
        return acc;
    }

    // Window sums of two rows (the means).
    template <int S>
    static void window_pair(const int16_t *a, const int16_t *b, unsigned w, uint32_t *__restrict sa, uint32_t *__restrict sb)
    {
        unsigned j = 0;
        for (; j + 2 * Isa::L <= w; j += 2 * Isa::L) {
            Isa::store_interleaved(sa + j, window_every_other<S>(a, j), window_every_other<S>(a, j + 1));
            Isa::store_interleaved(sb + j, window_every_other<S>(b, j), window_every_other<S>(b, j + 1));
        }
        PortableRows::window_pair<S>(a, b, w, sa, sb, j);
    }

    // Q16 window sum of a second moment held as two 16-bit halves:
    // Σ hi + (Σ lo + round) >> 16.
    template <int S>
    static void window_split(const int16_t *hi, const int16_t *lo, unsigned w, uint32_t *__restrict out)
    {
        const Isa::V round = Isa::set1(round_of(kQ16Shift));
        unsigned j = 0;
        for (; j + 2 * Isa::L <= w; j += 2 * Isa::L) {
            const Isa::V even = Isa::add(window_every_other<S>(hi, j),
                                         Isa::template srli<kQ16Shift>(Isa::add(window_every_other<S>(lo, j), round)));
            const Isa::V odd = Isa::add(window_every_other<S>(hi, j + 1),
                                        Isa::template srli<kQ16Shift>(Isa::add(window_every_other<S>(lo, j + 1), round)));
            Isa::store_interleaved(out + j, even, odd);
        }
        PortableRows::window_split<S>(hi, lo, w, out, j);
    }

    // The horizontal half of halving: Q16 window sums at the even samples.
    template <int S>
    static void window_halve(const int16_t *x, unsigned out_w, uint16_t *__restrict out)
    {
        const Isa::V round = Isa::set1(round_of(kQ16Shift));
        unsigned j = 0;
        for (; j + Isa::L <= out_w; j += Isa::L)
            Isa::store16(out + j, Isa::template srli<kQ16Shift>(Isa::add(window_every_other<S>(x, 2 * ptrdiff_t(j)), round)));
        PortableRows::window_halve<S>(x, out_w, out, j);
    }
};
