// SPDX-License-Identifier: BSD-2-Clause-Patent
// The float SSIM kernels over one vector width: included by ssim_simd_x86.h
// inside a target region, after the definition of the width's `Isa`. No
// include guard: it is compiled once per width. Each lane does the operations
// of the scalar functions in ssim_kernel.h in the same order (float products
// widened to double and added tap by tap, the same divisions and square
// roots), and the columns left over after whole vectors go through those
// functions, so every build gives the portable one's bits.

struct Rows {
    using F = Isa::F;
    using D = Isa::D;
    static constexpr int L = Isa::L;

    struct Acc {
        D lo, hi;
        VMAF_INLINE void zero() { lo = hi = Isa::zerod(); }
        VMAF_INLINE void add(F product)
        {
            lo = Isa::addd(lo, Isa::lo(product));
            hi = Isa::addd(hi, Isa::hi(product));
        }
        VMAF_INLINE F narrow() const { return Isa::narrow(lo, hi); }
    };

    static void horizontal(const float *ref, const float *cmp, int n, float *const out[5])
    {
        int x = 0;
        for (; x + L <= n; x += L) {
            Acc acc[5];
            for (Acc &a : acc) a.zero();
            for (int k = 0; k < kWindow; k++) {
                const F tap = Isa::set1(kGaussian[k]);
                const F r = Isa::load(ref + x + k), c = Isa::load(cmp + x + k);
                acc[0].add(Isa::mul(r, tap));
                acc[1].add(Isa::mul(c, tap));
                acc[2].add(Isa::mul(Isa::mul(r, r), tap));
                acc[3].add(Isa::mul(Isa::mul(c, c), tap));
                acc[4].add(Isa::mul(Isa::mul(r, c), tap));
            }
            for (int p = 0; p < 5; p++) Isa::store(out[p] + x, acc[p].narrow());
        }
        for (; x < n; x++) {
            out[0][x] = window_sum(ref + x, 1, kGaussian, kWindow);
            out[1][x] = window_sum(cmp + x, 1, kGaussian, kWindow);
            out[2][x] = window_sum_product(ref + x, ref + x, kGaussian, kWindow);
            out[3][x] = window_sum_product(cmp + x, cmp + x, kGaussian, kWindow);
            out[4][x] = window_sum_product(ref + x, cmp + x, kGaussian, kWindow);
        }
    }

    // pixel_terms() per lane; stores l * c * s, l, c, s at out[x ..].
    static VMAF_INLINE void terms(F mu1, F mu2, F e11, F e22, F e12, const TermRows &out, int x)
    {
        const F var1 = Isa::max0(Isa::sub(e11, Isa::mul(mu1, mu1)));
        const F var2 = Isa::max0(Isa::sub(e22, Isa::mul(mu2, mu2)));
        const F cov = Isa::sub(e12, Isa::mul(mu1, mu2));
        const F sigma12 = Isa::sqrt(Isa::mul(var1, var2));
        const F l_den = Isa::add(Isa::add(Isa::mul(mu1, mu1), Isa::mul(mu2, mu2)), Isa::set1(kC1));
        const F c_den = Isa::add(Isa::add(var1, var2), Isa::set1(kC2));
        const F s = Isa::div(Isa::add(Isa::clamp_cov(cov, sigma12), Isa::set1(kC3)),
                             Isa::add(sigma12, Isa::set1(kC3)));
        const D two = Isa::set1d(2.0), c1 = Isa::set1d(double(kC1)), c2 = Isa::set1d(double(kC2));
        auto half = [&](D m1, D m2, D ld, D sg, D cd, D sd, int at) {
            const D l = Isa::divd(Isa::addd(Isa::muld(Isa::muld(two, m1), m2), c1), ld);
            const D c = Isa::divd(Isa::addd(Isa::muld(two, sg), c2), cd);
            Isa::stored(out.lcs + at, Isa::muld(Isa::muld(l, c), sd));
            Isa::stored(out.l + at, l);
            Isa::stored(out.c + at, c);
            Isa::stored(out.s + at, sd);
        };
        half(Isa::lo(mu1), Isa::lo(mu2), Isa::lo(l_den), Isa::lo(sigma12), Isa::lo(c_den), Isa::lo(s), x);
        half(Isa::hi(mu1), Isa::hi(mu2), Isa::hi(l_den), Isa::hi(sigma12), Isa::hi(c_den), Isa::hi(s), x + L / 2);
    }

    static void vertical_terms(const float *const (*rows)[kWindow], int n, const TermRows &out)
    {
        int x = 0;
        for (; x + L <= n; x += L) {
            Acc acc[5];
            for (Acc &a : acc) a.zero();
            for (int k = 0; k < kWindow; k++) {
                const F tap = Isa::set1(kGaussian[k]);
                for (int p = 0; p < 5; p++) acc[p].add(Isa::mul(Isa::load(rows[p][k] + x), tap));
            }
            terms(acc[0].narrow(), acc[1].narrow(), acc[2].narrow(), acc[3].narrow(), acc[4].narrow(), out, x);
        }
        for (; x < n; x++) {
            float m[5];
            for (int p = 0; p < 5; p++) m[p] = column_sum(rows[p], x, kGaussian, kWindow);
            const PixelTerms t = pixel_terms(m[0], m[1], m[2], m[3], m[4]);
            out.lcs[x] = t.l * t.c * t.s;
            out.l[x] = t.l;
            out.c[x] = t.c;
            out.s[x] = t.s;
        }
    }

    // Two vectors of outputs at a time: four independent chains of double adds.
    static void lpf_half_row(const float *const *even, const float *const *odd, int out_w, float *out)
    {
        int x = 0;
        for (; x + 2 * L <= out_w; x += 2 * L) {
            Acc acc[2];
            acc[0].zero(), acc[1].zero();
            for (int v = 0; v < kLpf; v++)
                for (int t = 0; t < kLpf; t++) {
                    const float *src = (t & 1 ? odd[v] : even[v]) + x + t / 2;
                    const F tap = Isa::set1(kLowPass[v][t]);
                    acc[0].add(Isa::mul(Isa::load(src), tap));
                    acc[1].add(Isa::mul(Isa::load(src + L), tap));
                }
            Isa::store(out + x, acc[0].narrow());
            Isa::store(out + x + L, acc[1].narrow());
        }
        for (; x < out_w; x++) out[x] = lpf_point(even, odd, x);
    }
};
