// SPDX-License-Identifier: BSD-2-Clause-Patent
// The per-pixel passes of ssimulacra2 eight pixels at a time with AVX2 and FMA:
// the same operations, in the same order, as the scalar code of
// ssimulacra2_kernels_tmpl.h, each lane rounding as that code rounds (a
// multiply-add is one FMA instruction where fused, a multiply and an add
// where not), so the bits are the same. The last pixels of a run go through
// the scalar code. No include guard: included by ssimulacra2_kernels.h inside
// its AVX2 target region and namespace, after the scalar template.

template <bool kFused>
VMAF_INLINE __m256 vmadd(__m256 a, __m256 b, __m256 c)
{
    if constexpr (kFused) return _mm256_fmadd_ps(a, b, c);
    else return _mm256_add_ps(_mm256_mul_ps(a, b), c);
}

VMAF_INLINE __m256 vset(float v) { return _mm256_set1_ps(v); }
VMAF_INLINE __m256 vneg(__m256 v) { return _mm256_xor_ps(v, _mm256_set1_ps(-0.0f)); }

inline void rgb_row_v(const double *ys, const double *us, const double *vs, std::size_t n, const Conversion &cv, float *r,
               float *g, float *b)
{
    const __m256d y_off = _mm256_set1_pd(cv.y_off), y_scale = _mm256_set1_pd(cv.y_scale);
    const __m256d c_off = _mm256_set1_pd(cv.c_off), c_scale = _mm256_set1_pd(cv.c_scale);
    const __m256d cr_r = _mm256_set1_pd(cv.cr_r), cb_g = _mm256_set1_pd(cv.cb_g), cr_g = _mm256_set1_pd(cv.cr_g),
                  cb_b = _mm256_set1_pd(cv.cb_b);
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    // min(max(v, 0), 1) as std::min and std::max do it (each returns its
    // first argument on a tie).
    const auto clamp01 = [&](__m256d v) { return _mm256_cvtpd_ps(_mm256_min_pd(one, _mm256_max_pd(zero, v))); };
    std::size_t x = 0;
    for (; x + 4 <= n; x += 4) {
        const __m256d yn = _mm256_div_pd(_mm256_sub_pd(_mm256_loadu_pd(ys + x), y_off), y_scale);
        const __m256d cb = _mm256_div_pd(_mm256_sub_pd(_mm256_loadu_pd(us + x), c_off), c_scale);
        const __m256d cr = _mm256_div_pd(_mm256_sub_pd(_mm256_loadu_pd(vs + x), c_off), c_scale);
        _mm_storeu_ps(r + x, clamp01(_mm256_add_pd(yn, _mm256_mul_pd(cr_r, cr))));
        _mm_storeu_ps(g + x, clamp01(_mm256_sub_pd(_mm256_sub_pd(yn, _mm256_mul_pd(cb_g, cb)), _mm256_mul_pd(cr_g, cr))));
        _mm_storeu_ps(b + x, clamp01(_mm256_add_pd(yn, _mm256_mul_pd(cb_b, cb))));
    }
    rgb_row(ys + x, us + x, vs + x, n - x, cv, r + x, g + x, b + x);
}

template <bool kFused>
VMAF_INLINE __m256 vsrgb_to_linear(__m256 x)
{
    __m256 p = vset(s2::kSrgbP[4]), q = vset(s2::kSrgbQ[4]);
    for (int i = 3; i >= 0; i--) {
        p = vmadd<kFused>(p, x, vset(s2::kSrgbP[i]));
        q = vmadd<kFused>(q, x, vset(s2::kSrgbQ[i]));
    }
    const __m256 high = _mm256_div_ps(p, q);
    const __m256 low = _mm256_mul_ps(x, vset(s2::kSrgbLowDivInv));
    return _mm256_blendv_ps(low, high, _mm256_cmp_ps(x, vset(s2::kSrgbThreshold), _CMP_GT_OQ));
}

template <bool kFused>
void linearize_v(float *v, std::size_t n)
{
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(v + i, vsrgb_to_linear<kFused>(_mm256_loadu_ps(v + i)));
    linearize<kFused>(v + i, n - i);
}

template <bool kFused>
VMAF_INLINE __m256 vcube_root_add(__m256 x, __m256 add)
{
    const __m256 k13 = vset(1.0f / 3), k43 = vset(4.0f / 3);
    const __m256 x3 = _mm256_mul_ps(k13, x);
    const __m256i bits = _mm256_castps_si256(x);
    const __m256i estimate = _mm256_sub_epi32(_mm256_set1_epi32(s2::kCbrtExpBias),
                                              _mm256_mullo_epi32(_mm256_srai_epi32(bits, 23),
                                                                 _mm256_set1_epi32(s2::kCbrtExpMul)));
    const __m256i zero = _mm256_cmpeq_epi32(bits, _mm256_setzero_si256());
    __m256 r = _mm256_castsi256_ps(_mm256_andnot_si256(zero, estimate));
    for (int i = 0; i < 3; i++) {
        const __m256 r2 = _mm256_mul_ps(r, r);
        r = vmadd<kFused>(vneg(x3), _mm256_mul_ps(r2, r2), _mm256_mul_ps(k43, r));
    }
    __m256 r2 = _mm256_mul_ps(r, r);
    r = vmadd<kFused>(k13, vmadd<kFused>(vneg(x), _mm256_mul_ps(r2, r2), r), r);
    r2 = _mm256_mul_ps(r, r);
    return vmadd<kFused>(r2, x, add);
}

template <bool kFused>
void to_xyb_v(const float *rp, const float *gp, const float *bp, std::size_t n, float neg_bias_cbrt, float *xp,
              float *yp, float *bo)
{
    const auto &m = s2::kOpsin;
    const __m256 add = vset(neg_bias_cbrt);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 r = _mm256_loadu_ps(rp + i), g = _mm256_loadu_ps(gp + i), b = _mm256_loadu_ps(bp + i);
        __m256 c[3];
        for (int j = 0; j < 3; j++) {
            __m256 mixed = vmadd<kFused>(
                vset(m[j][0]), r,
                vmadd<kFused>(vset(m[j][1]), g, vmadd<kFused>(vset(m[j][2]), b, vset(s2::kOpsinBias))));
            mixed = _mm256_blendv_ps(mixed, _mm256_setzero_ps(), mixed);  // the sign bit set: 0
            c[j] = vcube_root_add<kFused>(mixed, add);
        }
        const __m256 xv = _mm256_mul_ps(vset(0.5f), _mm256_sub_ps(c[0], c[1]));
        const __m256 yv = _mm256_mul_ps(vset(0.5f), _mm256_add_ps(c[0], c[1]));
        _mm256_storeu_ps(bo + i, _mm256_add_ps(_mm256_sub_ps(c[2], yv), vset(s2::kBOffset)));
        _mm256_storeu_ps(xp + i, _mm256_add_ps(_mm256_mul_ps(xv, vset(s2::kXScale)), vset(s2::kXOffset)));
        _mm256_storeu_ps(yp + i, _mm256_add_ps(yv, vset(s2::kYOffset)));
    }
    to_xyb<kFused>(rp + i, gp + i, bp + i, n - i, neg_bias_cbrt, xp + i, yp + i, bo + i);
}

template <bool kFused, bool kTop, bool kBottom, bool kOut>
void column_step(const RecursiveGaussian &rg, const float *top, const float *bottom, float *out, float *state,
                 unsigned w)
{
    float *a[3] = {state, state + w, state + 2 * std::size_t(w)};
    float *b[3] = {state + 3 * std::size_t(w), state + 4 * std::size_t(w), state + 5 * std::size_t(w)};
    __m256 n2[3], nd1[3];
    for (int k = 0; k < 3; k++) {
        n2[k] = vset(rg.n2[k]);
        nd1[k] = vset(-rg.d1[k]);
    }
    unsigned x = 0;
    for (; x + 8 <= w; x += 8) {
        __m256 sum = _mm256_setzero_ps();
        if constexpr (kBottom) sum = _mm256_loadu_ps(bottom + x);
        if constexpr (kTop) sum = _mm256_add_ps(_mm256_loadu_ps(top + x), sum);
        __m256 y[3];
        for (int k = 0; k < 3; k++) {
            const __m256 p1 = _mm256_loadu_ps(a[k] + x), p2 = _mm256_loadu_ps(b[k] + x);
            y[k] = vmadd<kFused>(n2[k], sum, vmadd<kFused>(nd1[k], p1, vneg(p2)));
            _mm256_storeu_ps(b[k] + x, p1);
            _mm256_storeu_ps(a[k] + x, y[k]);
        }
        if constexpr (kOut) _mm256_storeu_ps(out + x, _mm256_add_ps(y[0], _mm256_add_ps(y[1], y[2])));
    }
    if (x == w) return;
    // The last columns: the scalar step on the state planes from column x on.
    float tail[6 * 8];
    const unsigned left = w - x;
    for (int k = 0; k < 6; k++) std::memcpy(tail + k * left, state + k * std::size_t(w) + x, left * sizeof(float));
    blur_column_step<kFused, kTop, kBottom, kOut>(rg, kTop ? top + x : nullptr, kBottom ? bottom + x : nullptr,
                                                  kOut ? out + x : nullptr, tail, left);
    for (int k = 0; k < 6; k++) std::memcpy(state + k * std::size_t(w) + x, tail + k * left, left * sizeof(float));
}

VMAF_INLINE __m256d vquartic(__m256d v)
{
    v = _mm256_mul_pd(v, v);
    return _mm256_mul_pd(v, v);
}

inline void ssim_terms_v(const float *m1, const float *m2, const float *s11, const float *s22, const float *s12,
                  std::size_t n, double *d, double *d4)
{
    const __m256 c2 = vset(s2::kC2), two = vset(2.0f);
    const __m256d one = _mm256_set1_pd(1.0), zero = _mm256_setzero_pd();
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 mu1 = _mm256_loadu_ps(m1 + i), mu2 = _mm256_loadu_ps(m2 + i);
        const __m256 mu11 = _mm256_mul_ps(mu1, mu1), mu22 = _mm256_mul_ps(mu2, mu2), mu12 = _mm256_mul_ps(mu1, mu2);
        const __m256 diff = _mm256_sub_ps(mu1, mu2);
        const __m256 sq = _mm256_mul_ps(diff, diff);
        const __m256 num_m = _mm256_insertf128_ps(
            _mm256_castps128_ps256(_mm256_cvtpd_ps(_mm256_sub_pd(one, _mm256_cvtps_pd(_mm256_castps256_ps128(sq))))),
            _mm256_cvtpd_ps(_mm256_sub_pd(one, _mm256_cvtps_pd(_mm256_extractf128_ps(sq, 1)))), 1);
        const __m256 num_s = _mm256_add_ps(_mm256_mul_ps(two, _mm256_sub_ps(_mm256_loadu_ps(s12 + i), mu12)), c2);
        const __m256 denom_s = _mm256_add_ps(_mm256_add_ps(_mm256_sub_ps(_mm256_loadu_ps(s11 + i), mu11),
                                                           _mm256_sub_ps(_mm256_loadu_ps(s22 + i), mu22)),
                                             c2);
        const __m256 ssim = _mm256_div_ps(_mm256_mul_ps(num_m, num_s), denom_s);
        const __m256d lo = _mm256_max_pd(zero, _mm256_sub_pd(one, _mm256_cvtps_pd(_mm256_castps256_ps128(ssim))));
        const __m256d hi = _mm256_max_pd(zero, _mm256_sub_pd(one, _mm256_cvtps_pd(_mm256_extractf128_ps(ssim, 1))));
        _mm256_storeu_pd(d + i, lo);
        _mm256_storeu_pd(d + i + 4, hi);
        _mm256_storeu_pd(d4 + i, vquartic(lo));
        _mm256_storeu_pd(d4 + i + 4, vquartic(hi));
    }
    ssim_terms(m1 + i, m2 + i, s11 + i, s22 + i, s12 + i, n - i, d + i, d4 + i);
}

inline void edge_terms_v(const float *img1, const float *mu1, const float *img2, const float *mu2, std::size_t n,
                  double *art, double *art4, double *lost, double *lost4)
{
    const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256d one = _mm256_set1_pd(1.0), zero = _mm256_setzero_pd(), sign = _mm256_set1_pd(-0.0);
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m128 mask = _mm256_castps256_ps128(abs_mask);
        const __m128 a2 = _mm_and_ps(mask, _mm_sub_ps(_mm_loadu_ps(img2 + i), _mm_loadu_ps(mu2 + i)));
        const __m128 a1 = _mm_and_ps(mask, _mm_sub_ps(_mm_loadu_ps(img1 + i), _mm_loadu_ps(mu1 + i)));
        const __m256d d1 = _mm256_sub_pd(
            _mm256_div_pd(_mm256_add_pd(one, _mm256_cvtps_pd(a2)), _mm256_add_pd(one, _mm256_cvtps_pd(a1))), one);
        const __m256d a = _mm256_max_pd(zero, d1);
        const __m256d l = _mm256_max_pd(zero, _mm256_xor_pd(d1, sign));
        _mm256_storeu_pd(art + i, a);
        _mm256_storeu_pd(art4 + i, vquartic(a));
        _mm256_storeu_pd(lost + i, l);
        _mm256_storeu_pd(lost4 + i, vquartic(l));
    }
    edge_terms(img1 + i, mu1 + i, img2 + i, mu2 + i, n - i, art + i, art4 + i, lost + i, lost4 + i);
}

// Eight rows of the horizontal blur at once, one row in each lane: `in` and
// `out` hold the rows transposed (x * 8 + row), and each lane runs blur_row()'s
// operations on its row, one output at a time at the edges and four at a time
// between.
template <bool kFused>
void blur_rows8(const RecursiveGaussian &rg, const float *in, float *out, std::ptrdiff_t xsize)
{
    const std::ptrdiff_t N = rg.radius;
    __m256 prev[3], prev2[3];
    for (int k = 0; k < 3; k++) prev[k] = prev2[k] = _mm256_setzero_ps();
    const auto at = [&](std::ptrdiff_t x) { return _mm256_loadu_ps(in + x * 8); };
    const auto one = [&](std::ptrdiff_t n) {
        const std::ptrdiff_t left = n - N - 1, right = n + N - 1;
        const __m256 sum = _mm256_add_ps(left >= 0 ? at(left) : _mm256_setzero_ps(),
                                         right < xsize ? at(right) : _mm256_setzero_ps());
        __m256 o[3];
        for (int k = 0; k < 3; k++) {
            __m256 v = _mm256_mul_ps(sum, vset(rg.mul_in[k][0]));
            v = vmadd<kFused>(vset(rg.mul_prev2[k][0]), prev2[k], v);
            prev2[k] = prev[k];
            v = vmadd<kFused>(vset(rg.mul_prev[k][0]), prev[k], v);
            prev[k] = v;
            o[k] = v;
        }
        return _mm256_add_ps(o[0], _mm256_add_ps(o[1], o[2]));
    };
    std::ptrdiff_t n = -N + 1;
    const std::ptrdiff_t first_aligned = (N + 1 + 3) / 4 * 4;
    for (; n < std::min(first_aligned, xsize); ++n) {
        const __m256 v = one(n);
        if (n >= 0) _mm256_storeu_ps(out + n * 8, v);
    }
    for (; n < xsize - N + 1 - 3; n += 4) {
        __m256 s[4];
        for (int j = 0; j < 4; j++) s[j] = _mm256_add_ps(at(n - N - 1 + j), at(n + N - 1 + j));
        __m256 o[3][4];
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 4; j++) {
                __m256 v = _mm256_mul_ps(s[0], vset(rg.mul_in[k][j]));
                for (int m = 1; m < 4; m++) v = vmadd<kFused>(vset(rg.mul_in_shifted[k][m][j]), s[m], v);
                v = vmadd<kFused>(vset(rg.mul_prev2[k][j]), prev2[k], v);
                v = vmadd<kFused>(vset(rg.mul_prev[k][j]), prev[k], v);
                o[k][j] = v;
            }
        for (int k = 0; k < 3; k++) {
            prev2[k] = o[k][2];
            prev[k] = o[k][3];
        }
        for (int j = 0; j < 4; j++)
            _mm256_storeu_ps(out + (n + j) * 8, _mm256_add_ps(o[0][j], _mm256_add_ps(o[1][j], o[2][j])));
    }
    for (; n < xsize; ++n) _mm256_storeu_ps(out + n * 8, one(n));
}

// Eight rows of 8 floats (src, rows `stride` apart) to 8 columns (dst, 8
// apart): dst[x * 8 + r] = src[r * stride + x].
VMAF_INLINE void transpose8(const float *src, std::size_t stride, float *dst, std::size_t dst_stride)
{
    __m256 r[8], t[8];
    for (int i = 0; i < 8; i++) r[i] = _mm256_loadu_ps(src + i * stride);
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        r[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int i = 0; i < 4; i++) {
        _mm256_storeu_ps(dst + i * dst_stride, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
        _mm256_storeu_ps(dst + (i + 4) * dst_stride, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
    }
}

// The horizontal blur of a w x h plane: groups of eight rows through
// blur_rows8() (scratch: 16 w floats), the rows left one by one.
template <bool kFused>
void blur_rows(const RecursiveGaussian &rg, const float *in, float *out, float *scratch, unsigned w, unsigned h)
{
    float *tin = scratch, *tout = scratch + 8 * std::size_t(w);
    unsigned y = 0;
    for (; y + 8 <= h; y += 8) {
        const float *src = in + std::size_t(y) * w;
        unsigned x = 0;
        for (; x + 8 <= w; x += 8) transpose8(src + x, w, tin + std::size_t(x) * 8, 8);
        for (; x < w; x++)
            for (unsigned r = 0; r < 8; r++) tin[std::size_t(x) * 8 + r] = src[std::size_t(r) * w + x];
        blur_rows8<kFused>(rg, tin, tout, w);
        float *dst = out + std::size_t(y) * w;
        for (x = 0; x + 8 <= w; x += 8) transpose8(tout + std::size_t(x) * 8, 8, dst + x, w);
        for (; x < w; x++)
            for (unsigned r = 0; r < 8; r++) dst[std::size_t(r) * w + x] = tout[std::size_t(x) * 8 + r];
    }
    for (; y < h; y++) blur_row<kFused>(rg, in + std::size_t(y) * w, out + std::size_t(y) * w, w);
}
