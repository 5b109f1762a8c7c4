// SPDX-License-Identifier: BSD-2-Clause-Patent
// butteraugli's difference map, as libjxl 0.11 computes it for its tool
// (lib/jxl/butteraugli/butteraugli.cc: ButteraugliComparator::Make, Diffmap and
// DiffmapPsychoImage, on linear sRGB), written once and compiled twice by
// butteraugli_kernels.h: portably, where fmadd() is a correctly rounded
// software fmaf, and for AVX2 with FMA, where it is the processor's
// instruction. Every float and double operation is libjxl's, in its order and
// its precision; a * b + c is rounded once where libjxl's Highway code fuses
// it (option libjxl_fma), and nothing else is fused (-ffp-contract=off). Where
// libjxl's result depends on its vector width (the 5-tap blur, whose last
// columns take a scalar path unless the width is 0 or 1 modulo the lanes),
// the lanes are those of its build: 8 fused (AVX2), 4 not (SSE2, SSE4).
// No include guard: included inside a namespace that defines fmadd(a, b, c).

template <bool kFused>
VMAF_INLINE float madd(float a, float b, float c)
{
    if constexpr (kFused) return fmadd(a, b, c);
    else return a * b + c;
}

// a * b - c (Highway's MulSub).
template <bool kFused>
VMAF_INLINE float msub(float a, float b, float c)
{
    if constexpr (kFused) return fmadd(a, b, -c);
    else return a * b - c;
}

#include "feature/common/srgb_tmpl.h"

// libjxl's Mirror(): the edge sample repeated once, then the picture mirrored.
VMAF_INLINE int64_t mirror(int64_t x, int64_t size)
{
    while (x < 0 || x >= size) x = x < 0 ? -x - 1 : 2 * size - 1 - x;
    return x;
}

// ---- blurs ----

// Separable5 (lib/jxl/convolve_separable5.cc) for the 5-tap kernel: mirrored
// borders; columns the vector code covers take one order of operations, the
// others (and every column of a picture narrower than lanes + 2) the scalar
// one.
template <bool kFused>
void blur5(const Plane &in, const std::vector<float> &kernel, Plane &out)
{
    const Blur5Weights weights = blur5_weights(kernel);
    const float *const wt = weights.w;
    const int64_t w = in.w, h = in.h;
    out.resize(in.w, in.h);
    // The end of the columns the vector code writes.
    const int64_t vec_end = blur5_vector_end(w, kFused);
    for (int64_t y = 0; y < h; y++) {
        const float *r[5];
        for (int64_t d = -2; d <= 2; d++) r[d + 2] = in.row(unsigned(mirror(y + d, h)));
        float *o = out.row(unsigned(y));
        for (int64_t x = 0; x < vec_end; x++) {
            const int64_t xl1 = mirror(x - 1, w), xr1 = mirror(x + 1, w);
            const int64_t xl2 = mirror(x - 2, w), xr2 = mirror(x + 2, w);
            float hz[5];
            for (int i = 0; i < 5; i++) {
                const float *row = r[i];
                const float mul0 = row[x] * wt[0];
                const float mul1 = madd<kFused>(row[xl1] + row[xr1], wt[1], mul0);
                hz[i] = madd<kFused>(row[xl2] + row[xr2], wt[2], mul1);
            }
            const float conv0 = hz[2] * wt[0];
            const float conv1 = madd<kFused>(hz[1] + hz[3], wt[1], conv0);
            o[x] = madd<kFused>(hz[0] + hz[4], wt[2], conv1);
        }
        for (int64_t x = vec_end; x < w; x++) {
            float mul = 0.0f;
            for (int64_t dy = -2; dy <= 2; dy++) {
                const float wy = wt[dy < 0 ? -dy : dy];
                const float *row = r[dy + 2];
                for (int64_t dx = -2; dx <= 2; dx++) {
                    const float wx = wt[dx < 0 ? -dx : dx];
                    mul += row[mirror(x + dx, w)] * wx * wy;
                }
            }
            o[x] = mul;
        }
    }
}

// ConvolutionWithTranspose: each row of `in` convolved with the kernel,
// written transposed into `out` (in.h x in.w). Columns with the whole kernel
// inside take the kernel scaled by its sum, in libjxl's grouping of the taps;
// the columns within its radius of an edge take the taps inside, scaled by
// their own sum.
inline void convolve_transpose(const Plane &in, const std::vector<float> &kernel, Plane &out)
{
    const std::size_t len = kernel.size(), offset = len / 2;
    const std::size_t w = in.w, h = in.h;
    out.resize(in.h, in.w);
    float sk[17];
    scaled_half(kernel, sk);
    const std::size_t border1 = std::min(w, offset);
    const std::size_t border2 = w > offset ? w - offset : 0;
    const std::size_t groups = std::min<std::size_t>(offset, 4);
    for (std::size_t y = 0; y < h; y++) {
        const float *row = in.row(unsigned(y));
        for (std::size_t x = border1; x < border2; x++) {
            const float *r = row + x - offset;
            float acc[4];
            for (std::size_t i = 0; i < offset; i++) {
                const float t = (r[i] + r[len - 1 - i]) * sk[i];
                if (i < 4) acc[i] = t;
                else acc[i % 4] += t;
            }
            float sum = r[offset] * sk[offset];
            for (std::size_t g = 0; g < groups; g++) sum += acc[g];
            out.v[x * h + y] = sum;
        }
    }
    const auto border_column = [&](std::size_t x) {
        const std::size_t minx = x < offset ? 0 : x - offset;
        const std::size_t maxx = std::min(w - 1, x + offset);
        float weight = 0.0f;
        for (std::size_t j = minx; j <= maxx; j++) weight += kernel[j + offset - x];
        const float scale = 1.0f / weight;
        for (std::size_t y = 0; y < h; y++) {
            const float *row = in.row(unsigned(y));
            float sum = 0.0f;
            for (std::size_t j = minx; j <= maxx; j++) sum += row[j] * kernel[j + offset - x];
            out.v[x * h + y] = sum * scale;
        }
    };
    for (std::size_t x = 0; x < border1; x++) border_column(x);
    for (std::size_t x = border2; x < w; x++) border_column(x);
}

// libjxl's Blur(): the 5-tap kernel by blur5(), the others by two transposing
// convolutions. `out` may be `in` for the latter.
template <bool kFused>
void blur(const Plane &in, const std::vector<float> &kernel, Plane &temp, Plane &out)
{
    if (kernel.size() == 5 && &in != &out) {
        blur5<kFused>(in, kernel, out);
        return;
    }
    convolve_transpose(in, kernel, temp);
    convolve_transpose(temp, kernel, out);
}

// ---- opsin dynamics ----

// log2 by libjxl's FastLog2f: exponent from the bits, (2, 2) rational
// polynomial of the mantissa.
template <bool kFused>
VMAF_INLINE float fast_log2(float x)
{
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const int32_t exp_bits = int32_t(bits - 0x3f2aaaabu);
    const int32_t exp_shifted = exp_bits >> 23;
    const uint32_t mbits = bits - (uint32_t(exp_shifted) << 23);
    float mantissa;
    std::memcpy(&mantissa, &mbits, sizeof mantissa);
    const float m = mantissa - 1.0f;
    float yp = kLog2P[2], yq = kLog2Q[2];
    yp = madd<kFused>(yp, m, kLog2P[1]);
    yq = madd<kFused>(yq, m, kLog2Q[1]);
    yp = madd<kFused>(yp, m, kLog2P[0]);
    yq = madd<kFused>(yq, m, kLog2Q[0]);
    return yp / yq + float(exp_shifted);
}

template <bool kFused>
VMAF_INLINE float gamma(float v)
{
    v = v < 0.0f ? 0.0f : v;
    const float biased = v + float(kGammaBias);
    return madd<kFused>(kGammaMul, fast_log2<kFused>(biased), float(kGammaAdd));
}

template <bool kFused>
VMAF_INLINE void opsin_absorbance(float in0, float in1, float in2, bool clamp, float &out0, float &out1, float &out2)
{
    const auto m = [](int i) { return float(kMix[i]); };
    out0 = madd<kFused>(m(0), in0, madd<kFused>(m(1), in1, madd<kFused>(m(2), in2, m(3))));
    out1 = madd<kFused>(m(4), in0, madd<kFused>(m(5), in1, madd<kFused>(m(6), in2, m(7))));
    out2 = madd<kFused>(m(8), in0, madd<kFused>(m(9), in1, madd<kFused>(m(10), in2, m(11))));
    if (clamp) {
        out0 = std::max(out0, m(3));
        out1 = std::max(out1, m(7));
        out2 = std::max(out2, m(11));
    }
}

// OpsinDynamicsImage: linear RGB -> XYB, the sensitivity from the picture
// blurred with sigma 1.2.
template <bool kFused>
void opsin_dynamics(const Image3 &rgb, float intensity_target, Image3 &blurred, Plane &temp, Image3 &xyb)
{
    const Kernels5 &k = kernels();
    for (int c = 0; c < 3; c++) blur<kFused>(rgb.p[c], k.opsin, temp, blurred.p[c]);
    xyb.resize(rgb.w(), rgb.h());
    const std::size_t n = rgb.p[0].size();
    for (std::size_t i = 0; i < n; i++) {
        float pre[3], sens[3], cur[3];
        opsin_absorbance<kFused>(blurred.p[0].v[i] * intensity_target, blurred.p[1].v[i] * intensity_target,
                                 blurred.p[2].v[i] * intensity_target, true, pre[0], pre[1], pre[2]);
        for (int c = 0; c < 3; c++) {
            pre[c] = std::max(pre[c], kMinSensitivity);
            sens[c] = gamma<kFused>(pre[c]) / pre[c];
            sens[c] = std::max(sens[c], kMinSensitivity);
        }
        opsin_absorbance<kFused>(rgb.p[0].v[i] * intensity_target, rgb.p[1].v[i] * intensity_target,
                                 rgb.p[2].v[i] * intensity_target, false, cur[0], cur[1], cur[2]);
        for (int c = 0; c < 3; c++) cur[c] = cur[c] * sens[c];
        cur[0] = std::max(cur[0], kMinMixed01);
        cur[1] = std::max(cur[1], kMinMixed01);
        cur[2] = std::max(cur[2], kMinMixed2);
        xyb.p[0].v[i] = cur[0] - cur[1];
        xyb.p[1].v[i] = cur[0] + cur[1];
        xyb.p[2].v[i] = cur[2];
    }
}

// ---- frequency separation ----

VMAF_INLINE float remove_range_around_zero(double kw, float x)
{
    const float w = float(kw);
    return x > w ? x - w : (x < -w ? x + w : 0.0f);
}

VMAF_INLINE float amplify_range_around_zero(double kw, float x)
{
    const float w = float(kw);
    return x > w ? x + w : (x < -w ? x - w : x + x);
}

template <bool kFused>
VMAF_INLINE float maximum_clamp(float v, double kmax)
{
    const float mul = float(kMaxClampMul), maxval = float(kmax);
    const float if_pos = madd<kFused>(v - maxval, mul, maxval);
    const float if_neg = msub<kFused>(v + maxval, mul, maxval);
    const float pos_or_v = v >= maxval ? if_pos : v;
    return v < -maxval ? if_neg : pos_or_v;
}

// The picture's bands: lf (3 planes, in libjxl's "vals" space), mf (X, Y
// with their range adjusted; B blurred), hf and uhf (X, Y).
struct Psycho {
    Image3 lf, mf;
    Plane hf[2], uhf[2];
};

template <bool kFused>
void separate_frequencies(const Image3 &xyb, Plane &temp, Psycho &ps)
{
    const Kernels5 &k = kernels();
    const unsigned w = xyb.w(), h = xyb.h();
    const std::size_t n = xyb.p[0].size();
    ps.lf.resize(w, h);
    ps.mf.resize(w, h);
    // lf and mf.
    for (int c = 0; c < 3; c++) {
        blur<kFused>(xyb.p[c], k.lf, temp, ps.lf.p[c]);
        for (std::size_t i = 0; i < n; i++) ps.mf.p[c].v[i] = xyb.p[c].v[i] - ps.lf.p[c].v[i];
    }
    for (std::size_t i = 0; i < n; i++) {
        const float x = ps.lf.p[0].v[i], y = ps.lf.p[1].v[i];
        const float b = madd<kFused>(float(kYToBLf), y, ps.lf.p[2].v[i]);
        ps.lf.p[2].v[i] = b * float(kBmulLf);
        ps.lf.p[0].v[i] = x * float(kXmulLf);
        ps.lf.p[1].v[i] = y * float(kYmulLf);
    }
    // mf and hf.
    for (int c = 0; c < 3; c++) {
        if (c < 2) {
            ps.hf[c].resize(w, h);
            std::copy(ps.mf.p[c].v.begin(), ps.mf.p[c].v.begin() + std::ptrdiff_t(n), ps.hf[c].v.begin());
        }
        blur<kFused>(ps.mf.p[c], k.hf, temp, ps.mf.p[c]);
        if (c == 2) break;
        for (std::size_t i = 0; i < n; i++) {
            const float mf = ps.mf.p[c].v[i];
            ps.hf[c].v[i] = ps.hf[c].v[i] - mf;
            ps.mf.p[c].v[i] = c == 0 ? remove_range_around_zero(kRemoveMfRange, mf)
                                     : amplify_range_around_zero(kAddMfRange, mf);
        }
    }
    // SuppressXByY.
    {
        const float sv = float(kSuppressS), one_minus_s = float(1.0 - kSuppressS), ywv = float(kSuppress);
        for (std::size_t i = 0; i < n; i++) {
            const float vy = ps.hf[1].v[i];
            const float scaler = madd<kFused>(ywv / madd<kFused>(vy, vy, ywv), one_minus_s, sv);
            ps.hf[0].v[i] = scaler * ps.hf[0].v[i];
        }
    }
    // hf and uhf.
    for (int c = 0; c < 2; c++) {
        ps.uhf[c].resize(w, h);
        std::copy(ps.hf[c].v.begin(), ps.hf[c].v.begin() + std::ptrdiff_t(n), ps.uhf[c].v.begin());
        blur<kFused>(ps.hf[c], k.uhf, temp, ps.hf[c]);
        float *hf = ps.hf[c].v.data(), *uhf = ps.uhf[c].v.data();
        if (c == 0) {
            for (std::size_t i = 0; i < n; i++) {
                const float u = uhf[i] - hf[i];
                hf[i] = remove_range_around_zero(kRemoveHfRange, hf[i]);
                uhf[i] = remove_range_around_zero(kRemoveUhfRange, u);
            }
        } else {
            for (std::size_t i = 0; i < n; i++) {
                float v = maximum_clamp<kFused>(hf[i], kMaxclampHf);
                float u = uhf[i] - v;
                u = maximum_clamp<kFused>(u, kMaxclampUhf);
                uhf[i] = u * float(kMulYUhf);
                v = v * float(kMulYHf);
                hf[i] = amplify_range_around_zero(kAddHfRange, v);
            }
        }
    }
}

// ---- Malta: line-shaped differences ----

// libjxl's Sum() of 5, 7 or 9 values, in its grouping.
VMAF_INLINE float malta_sum(const float *v, int n)
{
    if (n == 5) return (v[0] + v[1]) + (v[2] + (v[3] + v[4]));
    if (n == 7) return (v[0] + v[1]) + (v[2] + ((v[3] + v[4]) + (v[5] + v[6])));
    return (((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))) + v[8];
}

// MaltaUnit at `d` of a picture padded with zeros (stride xs): the sum over
// the lines of the square of each line's sum.
template <bool kFused>
VMAF_INLINE float malta_unit(const MaltaLine (&lines)[16], const float *d, std::ptrdiff_t xs)
{
    float retval = 0.0f;
    for (int l = 0; l < 16; l++) {
        float v[9];
        for (int i = 0; i < lines[l].n; i++) v[i] = d[lines[l].d[i][0] * xs + lines[l].d[i][1]];
        const float sum = malta_sum(v, lines[l].n);
        retval = l == 0 ? sum * sum : madd<kFused>(sum, sum, retval);
    }
    return retval;
}

// MaltaDiffMapT: the weighted differences of lum0 and lum1 (a padded plane
// `diffs`, 4 zeros on each side), then each pixel's MaltaUnit added to
// block_diff_ac.
template <bool kFused>
void malta_diff_map(const MaltaLine (&lines)[16], double mulli, const Plane &lum0, const Plane &lum1, double w_0gt1,
                    double w_0lt1, double norm1, std::vector<float> &diffs, Plane &block_diff_ac)
{
    const unsigned w = lum0.w, h = lum0.h;
    const std::size_t xs = std::size_t(w) + 8;
    diffs.assign(xs * (std::size_t(h) + 8), 0.0f);
    const MaltaNorms norms = malta_norms(mulli, w_0gt1, w_0lt1, norm1);
    const float norm2_0gt1 = norms.gt, norm2_0lt1 = norms.lt;
    const float norm1f = float(norm1);
    for (unsigned y = 0; y < h; y++) {
        const float *row0 = lum0.row(y), *row1 = lum1.row(y);
        float *out = diffs.data() + (std::size_t(y) + 4) * xs + 4;
        for (unsigned x = 0; x < w; x++) {
            const float absval = 0.5f * (std::abs(row0[x]) + std::abs(row1[x]));
            const float diff = row0[x] - row1[x];
            const float scaler = norm2_0gt1 / (norm1f + absval);
            float r = scaler * diff;
            const float scaler2 = norm2_0lt1 / (norm1f + absval);
            const double fabs0 = std::fabs(row0[x]);
            const double too_small = 0.55 * fabs0;
            const double too_big = 1.05 * fabs0;
            if (row0[x] < 0) {
                if (row1[x] > -too_small) {
                    const double impact = scaler2 * (row1[x] + too_small);
                    r = float(r - impact);
                } else if (row1[x] < -too_big) {
                    const double impact = scaler2 * (-row1[x] - too_big);
                    r = float(r + impact);
                }
            } else {
                if (row1[x] < too_small) {
                    const double impact = scaler2 * (too_small - row1[x]);
                    r = float(r + impact);
                } else if (row1[x] > too_big) {
                    const double impact = scaler2 * (row1[x] - too_big);
                    r = float(r - impact);
                }
            }
            out[x] = r;
        }
    }
    for (unsigned y = 0; y < h; y++) {
        const float *d = diffs.data() + (std::size_t(y) + 4) * xs + 4;
        float *acc = block_diff_ac.row(y);
        for (unsigned x = 0; x < w; x++) acc[x] += malta_unit<kFused>(lines, d + x, std::ptrdiff_t(xs));
    }
}

// ---- L2 differences ----

template <bool kFused>
void l2_diff(const Plane &i0, const Plane &i1, float w, Plane &diffmap)
{
    if (w == 0) return;
    for (std::size_t i = 0; i < i0.size(); i++) {
        const float diff = i0.v[i] - i1.v[i];
        diffmap.v[i] = madd<kFused>(diff * diff, w, diffmap.v[i]);
    }
}

inline void set_l2_diff(const Plane &i0, const Plane &i1, float w, Plane &diffmap)
{
    if (w == 0) return;
    for (std::size_t i = 0; i < i0.size(); i++) {
        const float diff = i0.v[i] - i1.v[i];
        diffmap.v[i] = (diff * diff) * w;
    }
}

template <bool kFused>
void l2_diff_asymmetric(const Plane &i0, const Plane &i1, float w_0gt1, float w_0lt1, Plane &diffmap)
{
    if (w_0gt1 == 0 && w_0lt1 == 0) return;
    const float vw_0gt1 = float(w_0gt1 * 0.8), vw_0lt1 = float(w_0lt1 * 0.8);
    const float k04 = float(0.4);
    for (std::size_t i = 0; i < i0.size(); i++) {
        const float val0 = i0.v[i], val1 = i1.v[i];
        const float diff = val0 - val1;
        float total = madd<kFused>(diff * diff, vw_0gt1, diffmap.v[i]);
        const float fabs0 = std::abs(val0);
        const float too_small = k04 * fabs0, too_big = fabs0;
        const float if_neg = val1 > -too_small ? val1 + too_small : (val1 < -too_big ? -val1 - too_big : 0.0f);
        const float if_pos = val1 < too_small ? too_small - val1 : (val1 > too_big ? val1 - too_big : 0.0f);
        const float v = val0 < 0.0f ? if_neg : if_pos;
        total = madd<kFused>(vw_0lt1, v * v, total);
        diffmap.v[i] = total;
    }
}

// ---- masking ----

// sqrt of the X and Y high-frequency energy.
inline void combine_channels_for_masking(const Plane *hf, const Plane *uhf, Plane &out)
{
    out.resize(hf[0].w, hf[0].h);
    for (std::size_t i = 0; i < out.size(); i++) {
        const float xdiff = (uhf[0].v[i] + hf[0].v[i]) * kMaskingMuls[0];
        const float ydiff = uhf[1].v[i] * kMaskingMuls[1] + hf[1].v[i] * kMaskingMuls[2];
        out.v[i] = std::sqrt(xdiff * xdiff + ydiff * ydiff);
    }
}

inline void diff_precompute(const Plane &in, float mul, float bias_arg, Plane &out)
{
    out.resize(in.w, in.h);
    const float bias = mul * bias_arg;
    const float sqrt_bias = std::sqrt(bias);
    for (std::size_t i = 0; i < in.size(); i++) out.v[i] = std::sqrt(mul * std::abs(in.v[i]) + bias) - sqrt_bias;
}

VMAF_INLINE void store_min3(float v, float &min0, float &min1, float &min2)
{
    if (v < min2) {
        if (v < min0) {
            min2 = min1;
            min1 = min0;
            min0 = v;
        } else if (v < min1) {
            min2 = min1;
            min1 = v;
        } else {
            min2 = v;
        }
    }
}

// FuzzyErosion: a weighted mean of the three smallest of each pixel and its 8
// neighbours 3 pixels away.
inline void fuzzy_erosion(const Plane &from, Plane &to)
{
    constexpr unsigned kStep = 3;
    const unsigned w = from.w, h = from.h;
    to.resize(w, h);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            float min0 = from.row(y)[x];
            float min1 = 2 * min0;
            float min2 = min1;
            if (x >= kStep) {
                store_min3(from.row(y)[x - kStep], min0, min1, min2);
                if (y >= kStep) store_min3(from.row(y - kStep)[x - kStep], min0, min1, min2);
                if (y < h - kStep) store_min3(from.row(y + kStep)[x - kStep], min0, min1, min2);
            }
            if (x < w - kStep) {
                store_min3(from.row(y)[x + kStep], min0, min1, min2);
                if (y >= kStep) store_min3(from.row(y - kStep)[x + kStep], min0, min1, min2);
                if (y < h - kStep) store_min3(from.row(y + kStep)[x + kStep], min0, min1, min2);
            }
            if (y >= kStep) store_min3(from.row(y - kStep)[x], min0, min1, min2);
            if (y < h - kStep) store_min3(from.row(y + kStep)[x], min0, min1, min2);
            to.row(y)[x] = 0.45f * min0 + 0.3f * min1 + 0.25f * min2;
        }
}

inline double mask_y(double delta)
{
    const double c = kMaskYMul / ((kMaskYScaler * delta) + kMaskYOffset);
    const double retval = kGlobalScale * (1.0 + c);
    return retval * retval;
}

inline double mask_dc_y(double delta)
{
    const double c = kMaskDcYMul / ((kMaskDcYScaler * delta) + kMaskDcYOffset);
    const double retval = kGlobalScale * (1.0 + c);
    return retval * retval;
}

// ---- the comparator ----

template <bool kFused>
class Comparator final : public Engine {
public:
    void diffmap(const Image3 &rgb0, const Image3 &rgb1, float intensity_target, Plane &out) override
    {
        level(rgb0, rgb1, intensity_target, out);
        // The second resolution: both pictures subsampled 2x2, where that is
        // still at least kMinSide in each direction.
        subsample(rgb0, sub_rgb_[0]);
        if (sub_rgb_[0].w() < kMinSide || sub_rgb_[0].h() < kMinSide) return;
        subsample(rgb1, sub_rgb_[1]);
        level(sub_rgb_[0], sub_rgb_[1], intensity_target, sub_map_);
        const double scale = subsampled_keep();
        for (unsigned y = 0; y < out.h; y++) {
            float *row = out.row(y);
            const float *src = sub_map_.row(y / 2);
            for (unsigned x = 0; x < out.w; x++) {
                row[x] = float(row[x] * scale);
                row[x] += kSubsampledWeight * src[x / 2];
            }
        }
    }

private:
    // SubSample2x: 2x2 means, the last column and row doubled where the size
    // is odd (they had half the samples).
    static void subsample(const Image3 &in, Image3 &out)
    {
        const unsigned w = (in.w() + 1) / 2, h = (in.h() + 1) / 2;
        out.resize(w, h);
        for (int c = 0; c < 3; c++) {
            Plane &o = out.p[c];
            std::fill(o.v.begin(), o.v.begin() + std::ptrdiff_t(o.size()), 0.0f);
            for (unsigned y = 0; y < in.h(); y++) {
                const float *row = in.p[c].row(y);
                float *orow = o.row(y / 2);
                for (unsigned x = 0; x < in.w(); x++) orow[x / 2] += 0.25f * row[x];
            }
            if (in.w() & 1)
                for (unsigned y = 0; y < h; y++) o.row(y)[w - 1] *= 2.0f;
            if (in.h() & 1)
                for (unsigned x = 0; x < w; x++) o.row(h - 1)[x] *= 2.0f;
        }
    }

    // One resolution: both pictures to their bands, then the map.
    void level(const Image3 &rgb0, const Image3 &rgb1, float intensity_target, Plane &out)
    {
        const unsigned w = rgb0.w(), h = rgb0.h();
        opsin_dynamics<kFused>(rgb0, intensity_target, blurred_, temp_, xyb_);
        separate_frequencies<kFused>(xyb_, temp_, ps_[0]);
        opsin_dynamics<kFused>(rgb1, intensity_target, blurred_, temp_, xyb_);
        separate_frequencies<kFused>(xyb_, temp_, ps_[1]);
        const Psycho &p0 = ps_[0], &p1 = ps_[1];

        for (Plane &p : block_diff_ac_.p) {
            p.resize(w, h);
            std::fill(p.v.begin(), p.v.begin() + std::ptrdiff_t(p.size()), 0.0f);
        }
        block_diff_dc_.resize(w, h);
        Plane *ac = block_diff_ac_.p;
        const double hf_asymmetry = 1.0;  // the tool's
        for (const MaltaMap &m : kMaltaMaps) {
            const Plane &b0 = m.band == 0 ? p0.uhf[m.channel] : m.band == 1 ? p0.hf[m.channel] : p0.mf.p[m.channel];
            const Plane &b1 = m.band == 0 ? p1.uhf[m.channel] : m.band == 1 ? p1.hf[m.channel] : p1.mf.p[m.channel];
            malta_diff_map<kFused>(m.lf ? kMaltaLf : kMaltaHf, m.mulli, b0, b1, m.w, m.w, m.norm1, diffs_,
                                   ac[m.channel]);
        }
        for (int c = 0; c < 3; c++) {
            if (c < 2)
                l2_diff_asymmetric<kFused>(p0.hf[c], p1.hf[c], float(kWmul[c] * hf_asymmetry),
                                           float(kWmul[c] / hf_asymmetry), ac[c]);
            l2_diff<kFused>(p0.mf.p[c], p1.mf.p[c], float(kWmul[3 + c]), ac[c]);
            set_l2_diff(p0.lf.p[c], p1.lf.p[c], float(kWmul[6 + c]), block_diff_dc_.p[c]);
        }

        // MaskPsychoImage, adding the masks' difference to ac[1].
        combine_channels_for_masking(p0.hf, p0.uhf, mask0_);
        combine_channels_for_masking(p1.hf, p1.uhf, mask1_);
        const Kernels5 &k = kernels();
        diff_precompute(mask0_, kMaskMul, kMaskBias, diff0_);
        diff_precompute(mask1_, kMaskMul, kMaskBias, diff1_);
        blur<kFused>(diff0_, k.mask, temp_, blurred0_);
        fuzzy_erosion(blurred0_, diff0_);
        blur<kFused>(diff1_, k.mask, temp_, blurred1_);
        for (std::size_t i = 0; i < diff0_.size(); i++) {
            const float diff = blurred0_.v[i] - blurred1_.v[i];
            ac[1].v[i] += kMaskToErrorMul * diff * diff;
        }

        // CombineChannelsToDiffmap (xmul 1).
        out.resize(w, h);
        for (std::size_t i = 0; i < out.size(); i++) {
            const float val = diff0_.v[i];
            const float maskval = float(mask_y(val));
            const float dc_maskval = float(mask_dc_y(val));
            const float dc = block_diff_dc_.p[0].v[i] * dc_maskval + block_diff_dc_.p[1].v[i] * dc_maskval +
                             block_diff_dc_.p[2].v[i] * dc_maskval;
            const float acv = ac[0].v[i] * maskval + ac[1].v[i] * maskval + ac[2].v[i] * maskval;
            out.v[i] = std::sqrt(dc + acv);
        }
    }

    Image3 blurred_, xyb_, block_diff_ac_, block_diff_dc_, sub_rgb_[2];
    Psycho ps_[2];
    Plane temp_, mask0_, mask1_, diff0_, diff1_, blurred0_, blurred1_, sub_map_;
    std::vector<float> diffs_;
};
