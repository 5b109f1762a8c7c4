// VIF's horizontal kernels over one vector width: included by
// vif_hfilter_x86.h inside a target region, after the definition of the
// width's `Isa`. No include guard: it is compiled once per width. `Rows` has
// the interface of vif::PortableRows; its kernels are not forced inline, as
// they are called, one row at a time, from code built for any target.

struct Rows {
    // Σ taps * x at outputs c0, c0 + 2, ..., c0 + 2(L - 1) of scale S's window.
    template <int S>
    static VMAF_INLINE Isa::V window_every_other(const int16_t *x, ptrdiff_t c0)
    {
        constexpr MaddTaps t = kMaddTaps[S];
        Isa::V acc = Isa::set1(0x80000000u);  // undoes the bias (vif_hfilter.h)
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
        for (; j < w; j++) {
            sa[j] = window_sum<S>(a, j);
            sb[j] = window_sum<S>(b, j);
        }
    }

    // Q16 window sum of a second moment held as two 16-bit halves:
    // Σ hi + (Σ lo + 2^15) >> 16.
    template <int S>
    static void window_split(const int16_t *hi, const int16_t *lo, unsigned w, uint32_t *__restrict out)
    {
        const Isa::V round = Isa::set1(1u << 15);
        unsigned j = 0;
        for (; j + 2 * Isa::L <= w; j += 2 * Isa::L) {
            const Isa::V even = Isa::add(window_every_other<S>(hi, j),
                                         Isa::srl16(Isa::add(window_every_other<S>(lo, j), round)));
            const Isa::V odd = Isa::add(window_every_other<S>(hi, j + 1),
                                        Isa::srl16(Isa::add(window_every_other<S>(lo, j + 1), round)));
            Isa::store_interleaved(out + j, even, odd);
        }
        for (; j < w; j++) out[j] = window_sum<S>(hi, j) + ((window_sum<S>(lo, j) + (1u << 15)) >> 16);
    }

    // The horizontal half of halving: Q16 window sums at the even samples.
    template <int S>
    static void window_halve(const int16_t *x, unsigned out_w, uint16_t *__restrict out)
    {
        const Isa::V round = Isa::set1(1u << 15);
        unsigned j = 0;
        for (; j + Isa::L <= out_w; j += Isa::L)
            Isa::store16(out + j, Isa::srl16(Isa::add(window_every_other<S>(x, 2 * ptrdiff_t(j)), round)));
        for (; j < out_w; j++) out[j] = uint16_t((window_sum<S>(x, 2 * ptrdiff_t(j)) + (1u << 15)) >> 16);
    }
};
