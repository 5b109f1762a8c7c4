// SPDX-License-Identifier: BSD-2-Clause-Patent
// The per-pixel passes of ssimulacra2 that carry libjxl's multiply-adds,
// written once and compiled twice by ssimulacra2_kernels.h: portably, where
// fmadd() is the C library's correctly rounded fmaf, and for AVX2 with FMA,
// where it is the processor's instruction, so that the loops vectorize and
// nothing is called per operation. Both round each fused operation once and
// every other operation as written (-ffp-contract=off), so the two builds give
// the same bits. No include guard: included inside a namespace that defines
// fmadd(a, b, c) and declares blur_rows() (the horizontal blur of all rows:
// blur_row() on each, or a vector build) and column_step() (the vertical
// blur's row step: blur_column_step() or a vector build).

// a * b + c: one rounding where libjxl's Highway code runs on a target with
// FMA (AVX2 and up), two on one without (SSE2, SSE4; option libjxl_fma).
template <bool kFused>
VMAF_INLINE float madd(float a, float b, float c)
{
    if constexpr (kFused) return fmadd(a, b, c);
    else return a * b + c;
}

// YUV -> RGB (feature/common/srgb.h).
using srgb::rgb_row;

// sRGB -> linear.
#include "feature/common/srgb_tmpl.h"

template <bool kFused>
void linearize(float *v, std::size_t n)
{
    for (std::size_t i = 0; i < n; i++) v[i] = srgb_to_linear<kFused>(v[i]);
}

// cbrt(x) + add for x >= 0, libjxl's CubeRootAndAdd.
template <bool kFused>
VMAF_INLINE float cube_root_add(float x, float add)
{
    constexpr float k13 = 1.0f / 3;
    constexpr float k43 = 4.0f / 3;
    const float x3 = k13 * x;
    int32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const int32_t estimate = s2::kCbrtExpBias - (bits >> 23) * s2::kCbrtExpMul;
    const int32_t guess = bits == 0 ? 0 : estimate;
    float r;
    std::memcpy(&r, &guess, sizeof r);
    for (int i = 0; i < 3; i++) {
        const float r2 = r * r;
        r = madd<kFused>(-x3, r2 * r2, k43 * r);
    }
    float r2 = r * r;
    r = madd<kFused>(k13, madd<kFused>(-x, r2 * r2, r), r);
    r2 = r * r;
    return madd<kFused>(r2, x, add);
}

// Linear RGB -> positive XYB (libjxl's ToXYB, then MakePositiveXYB), n pixels.
template <bool kFused>
void to_xyb(const float *rp, const float *gp, const float *bp, std::size_t n, float neg_bias_cbrt, float *xp,
            float *yp, float *bo)
{
    const auto &m = s2::kOpsin;
    for (std::size_t i = 0; i < n; i++) {
        const float r = rp[i], g = gp[i], b = bp[i];
        float c[3];
        for (int j = 0; j < 3; j++) {
            float mixed = madd<kFused>(m[j][0], r, madd<kFused>(m[j][1], g, madd<kFused>(m[j][2], b, s2::kOpsinBias)));
            // libjxl zeroes negative values, -0 included (its sign bit).
            int32_t bits;
            std::memcpy(&bits, &mixed, sizeof bits);
            mixed = bits < 0 ? 0.0f : mixed;
            c[j] = cube_root_add<kFused>(mixed, neg_bias_cbrt);
        }
        const float xv = 0.5f * (c[0] - c[1]);
        const float yv = 0.5f * (c[0] + c[1]);
        bo[i] = (c[2] - yv) + s2::kBOffset;
        xp[i] = xv * s2::kXScale + s2::kXOffset;
        yp[i] = yv + s2::kYOffset;
    }
}

// One row of the blur, horizontally: outputs one at a time at the edges, four
// at a time (each lane with its own multipliers) in between, as libjxl's
// FastGaussian1D.
template <bool kFused>
void blur_row(const RecursiveGaussian &rg, const float *in, float *out, std::ptrdiff_t xsize)
{
    const std::ptrdiff_t N = rg.radius;
    float prev[3] = {}, prev2[3] = {};
    const auto one = [&](std::ptrdiff_t n) {
        const std::ptrdiff_t left = n - N - 1, right = n + N - 1;
        const float sum = (left >= 0 ? in[left] : 0.0f) + (right < xsize ? in[right] : 0.0f);
        float o[3];
        for (int k = 0; k < 3; k++) {
            float v = sum * rg.mul_in[k][0];
            v = madd<kFused>(rg.mul_prev2[k][0], prev2[k], v);
            prev2[k] = prev[k];
            v = madd<kFused>(rg.mul_prev[k][0], prev[k], v);
            prev[k] = v;
            o[k] = v;
        }
        return o[0] + (o[1] + o[2]);
    };
    std::ptrdiff_t n = -N + 1;
    const std::ptrdiff_t first_aligned = (N + 1 + 3) / 4 * 4;
    for (; n < std::min(first_aligned, xsize); ++n) {
        const float v = one(n);
        if (n >= 0) out[n] = v;
    }
    for (; n < xsize - N + 1 - 3; n += 4) {
        float s[4];
        for (int j = 0; j < 4; j++) s[j] = in[n - N - 1 + j] + in[n + N - 1 + j];
        float o[3][4];
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 4; j++) {
                float v = s[0] * rg.mul_in[k][j];
                for (int m = 1; m < 4; m++) v = madd<kFused>(rg.mul_in_shifted[k][m][j], s[m], v);
                v = madd<kFused>(rg.mul_prev2[k][j], prev2[k], v);
                v = madd<kFused>(rg.mul_prev[k][j], prev[k], v);
                o[k][j] = v;
            }
        for (int k = 0; k < 3; k++) {
            prev2[k] = o[k][2];
            prev[k] = o[k][3];
        }
        for (int j = 0; j < 4; j++) out[n + j] = o[0][j] + (o[1][j] + o[2][j]);
    }
    for (; n < xsize; ++n) out[n] = one(n);
}

// One output row of the vertical blur: every column its own recursion
// y_n = n2 s - d1 y_{n-1} - y_{n-2} for each of the three terms, s the sum of
// the rows N + 1 up (`top`) and N - 1 down (`bottom`), zero outside.
// `state` holds 6 planes of w: y1, y3, y5 at n-1, then at n-2.
template <bool kFused, bool kTop, bool kBottom, bool kOut>
void blur_column_step(const RecursiveGaussian &rg, const float *__restrict top, const float *__restrict bottom,
                      float *__restrict out, float *__restrict state, unsigned w)
{
    float *__restrict a1 = state;
    float *__restrict a3 = state + w;
    float *__restrict a5 = state + 2 * std::size_t(w);
    float *__restrict b1 = state + 3 * std::size_t(w);
    float *__restrict b3 = state + 4 * std::size_t(w);
    float *__restrict b5 = state + 5 * std::size_t(w);
    const float n21 = rg.n2[0], n23 = rg.n2[1], n25 = rg.n2[2];
    const float nd1 = -rg.d1[0], nd3 = -rg.d1[1], nd5 = -rg.d1[2];
    for (unsigned x = 0; x < w; x++) {
        float sum = 0.0f;
        if constexpr (kBottom) sum = bottom[x];
        if constexpr (kTop) sum = top[x] + sum;
        const float y1 = madd<kFused>(n21, sum, madd<kFused>(nd1, a1[x], -b1[x]));
        const float y3 = madd<kFused>(n23, sum, madd<kFused>(nd3, a3[x], -b3[x]));
        const float y5 = madd<kFused>(n25, sum, madd<kFused>(nd5, a5[x], -b5[x]));
        b1[x] = a1[x];
        b3[x] = a3[x];
        b5[x] = a5[x];
        a1[x] = y1;
        a3[x] = y3;
        a5[x] = y5;
        if constexpr (kOut) out[x] = y1 + (y3 + y5);
    }
}

// out = blur(in), one w x h plane; temp is w x h, state kBlurScratch w.
template <bool kFused>
void blur_plane(const RecursiveGaussian &rg, const float *in, float *out, float *temp, float *state, unsigned w,
                unsigned h)
{
    blur_rows<kFused>(rg, in, temp, state, w, h);
    std::fill(state, state + 6 * std::size_t(w), 0.0f);
    const std::ptrdiff_t N = rg.radius, ysize = h;
    for (std::ptrdiff_t n = -N + 1; n < ysize; ++n) {
        const std::ptrdiff_t t = n - N - 1, b = n + N - 1;
        const float *rt = t >= 0 ? temp + std::size_t(t) * w : nullptr;
        const float *rb = b < ysize ? temp + std::size_t(b) * w : nullptr;
        float *ro = n >= 0 ? out + std::size_t(n) * w : nullptr;
        if (rt && rb && ro) column_step<kFused, true, true, true>(rg, rt, rb, ro, state, w);
        else if (rt && rb) column_step<kFused, true, true, false>(rg, rt, rb, ro, state, w);
        else if (rt && ro) column_step<kFused, true, false, true>(rg, rt, rb, ro, state, w);
        else if (rt) column_step<kFused, true, false, false>(rg, rt, rb, ro, state, w);
        else if (rb && ro) column_step<kFused, false, true, true>(rg, rt, rb, ro, state, w);
        else if (rb) column_step<kFused, false, true, false>(rg, rt, rb, ro, state, w);
        else if (ro) column_step<kFused, false, false, true>(rg, rt, rb, ro, state, w);
        else column_step<kFused, false, false, false>(rg, rt, rb, ro, state, w);
    }
}

// The SSIM map's per-pixel terms of n pixels: d = max(1 - SSIM, 0) and d^4,
// for the caller to sum in order.
inline void ssim_terms(const float *m1, const float *m2, const float *s11, const float *s22, const float *s12,
                       std::size_t n, double *d, double *d4)
{
    for (std::size_t i = 0; i < n; i++) {
        const float mu1 = m1[i], mu2 = m2[i];
        const float mu11 = mu1 * mu1, mu22 = mu2 * mu2, mu12 = mu1 * mu2;
        const float num_m = float(1.0 - double((mu1 - mu2) * (mu1 - mu2)));
        const float num_s = 2 * (s12[i] - mu12) + s2::kC2;
        const float denom_s = (s11[i] - mu11) + (s22[i] - mu22) + s2::kC2;
        double v = 1.0 - double(num_m * num_s / denom_s);
        v = std::max(v, 0.0);
        d[i] = v;
        v *= v;
        v *= v;
        d4[i] = v;
    }
}

// The edge-difference map's per-pixel terms of n pixels: artifact and detail
// lost, each with its fourth power, for the caller to sum in order.
inline void edge_terms(const float *img1, const float *mu1, const float *img2, const float *mu2, std::size_t n,
                       double *art, double *art4, double *lost, double *lost4)
{
    for (std::size_t i = 0; i < n; i++) {
        const double d1 = (1.0 + double(std::abs(img2[i] - mu2[i]))) / (1.0 + double(std::abs(img1[i] - mu1[i]))) - 1.0;
        double a = std::max(d1, 0.0);
        art[i] = a;
        a *= a;
        a *= a;
        art4[i] = a;
        double l = std::max(-d1, 0.0);
        lost[i] = l;
        l *= l;
        l *= l;
        lost4[i] = l;
    }
}
