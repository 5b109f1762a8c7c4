// Integer VIF on the CPU: per-scale local means, variances and covariance from
// separable Gaussian windows in fixed point, then the information ratio through
// a Q11 log2 table, over four dyadic scales of the luma plane.
//
// The arithmetic reproduces libvmaf's integer_vif.c bit for bit. Wide sums are
// kept in 32-bit lanes by splitting 32-bit second moments into 16-bit halves:
// (hi * 2^16 + lo + round) >> s == hi << (16 - s) + ((lo + round) >> s) for
// s <= 16, so no 64-bit accumulator is needed and the loops vectorize.
#include "feature/vif/vif.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "feature/vif/vif_tables.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VIF_X86 1
#else
#define VIF_X86 0
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

constexpr const char *kScaleNames[vif::kScales] = {
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score"};
constexpr const char *kNumNames[vif::kScales] = {"integer_vif_num_scale0", "integer_vif_num_scale1",
                                                 "integer_vif_num_scale2", "integer_vif_num_scale3"};
constexpr const char *kDenNames[vif::kScales] = {"integer_vif_den_scale0", "integer_vif_den_scale1",
                                                 "integer_vif_den_scale2", "integer_vif_den_scale3"};
constexpr const char *kProvided[] = {
    kScaleNames[0], kScaleNames[1], kScaleNames[2], kScaleNames[3],
    "integer_vif", "integer_vif_num", "integer_vif_den",
    kNumNames[0], kDenNames[0], kNumNames[1], kDenNames[1],
    kNumNames[2], kDenNames[2], kNumNames[3], kDenNames[3],
};

#define VIF_INLINE inline __attribute__((always_inline))

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
VIF_INLINE void window_rows(const Plane<T> &p, int centre, const T *(&rows)[W])
{
    for (int k = 0; k < W; k++) rows[k] = p.row(mirror(centre - W / 2 + k, int(p.h)));
}

// Mirror a padded row's kMaxFilterHalf samples on either side of [0, w).
template <typename T>
VIF_INLINE void pad_row(T *row, unsigned w, int half)
{
    for (int f = 1; f <= half; f++) {
        row[-f] = row[f];
        row[int(w) - 1 + f] = row[int(w) - 1 - f];
    }
}

// One row of vertically filtered moments: 16-bit means and 32-bit second
// moments stored as 16-bit halves for the horizontal pass.
struct MomentRow {
    uint16_t *mu1, *mu2, *xx_hi, *xx_lo, *yy_hi, *yy_lo, *xy_hi, *xy_lo;
};

VIF_INLINE void store_split(uint16_t *hi, uint16_t *lo, unsigned j, uint32_t v)
{
    hi[j] = uint16_t(v >> 16);
    lo[j] = uint16_t(v);
}

// Vertical pass at scale `bits` precision. 8-bit samples square into 16 bits,
// so their moments sum exactly in 32 bits with no shift; deeper samples square
// into 32 bits and are summed as two 16-bit halves.
template <int W, typename T>
VIF_INLINE void vertical_moments(const T *const (&r)[W], const T *const (&d)[W], const uint16_t *f,
                                 unsigned w, unsigned bits, const MomentRow &out)
{
    const unsigned ms = vif::mean_shift(bits), ss = vif::moment_shift(bits);
    const uint32_t mr = vif::round_of(ms), sr = vif::round_of(ss);
#pragma GCC ivdep
    for (unsigned j = 0; j < w; j++) {
        uint32_t m1 = 0, m2 = 0;
        uint32_t xh = 0, xl = 0, yh = 0, yl = 0, ch = 0, cl = 0;
#pragma GCC unroll 17
        for (int k = 0; k < W; k++) {
            const uint32_t a = r[k][j], b = d[k][j], c = f[k];
            m1 += c * a;
            m2 += c * b;
            if constexpr (sizeof(T) == 1) {
                xl += c * (a * a);
                yl += c * (b * b);
                cl += c * (a * b);
            } else {
                const uint32_t aa = a * a, bb = b * b, ab = a * b;
                xh += c * (aa >> 16);
                xl += c * (aa & 0xffff);
                yh += c * (bb >> 16);
                yl += c * (bb & 0xffff);
                ch += c * (ab >> 16);
                cl += c * (ab & 0xffff);
            }
        }
        out.mu1[j] = uint16_t((m1 + mr) >> ms);
        out.mu2[j] = uint16_t((m2 + mr) >> ms);
        if constexpr (sizeof(T) == 1) {
            store_split(out.xx_hi, out.xx_lo, j, xl);
            store_split(out.yy_hi, out.yy_lo, j, yl);
            store_split(out.xy_hi, out.xy_lo, j, cl);
        } else {
            store_split(out.xx_hi, out.xx_lo, j, (xh << (16 - ss)) + ((xl + sr) >> ss));
            store_split(out.yy_hi, out.yy_lo, j, (yh << (16 - ss)) + ((yl + sr) >> ss));
            store_split(out.xy_hi, out.xy_lo, j, (ch << (16 - ss)) + ((cl + sr) >> ss));
        }
    }
}

// (a * b) >> 32 with rounding, as 32 bits.
VIF_INLINE uint32_t mul_q32(uint32_t a, uint32_t b)
{
    return uint32_t((uint64_t(a) * b + 0x80000000u) >> 32);
}

// Horizontal pass: the local variances and covariance of every column.
template <int W>
VIF_INLINE void horizontal_sigmas(const MomentRow &in, const uint16_t *f, unsigned w, int32_t *s1,
                                  int32_t *s2, int32_t *s12)
{
    constexpr int H = W / 2;
#pragma GCC ivdep
    for (unsigned j = 0; j < w; j++) {
        uint32_t m1 = 0, m2 = 0;
        uint32_t xh = 0, xl = 0, yh = 0, yl = 0, ch = 0, cl = 0;
#pragma GCC unroll 17
        for (int k = 0; k < W; k++) {
            const ptrdiff_t x = ptrdiff_t(j) - H + k;
            const uint32_t c = f[k];
            m1 += c * in.mu1[x];
            m2 += c * in.mu2[x];
            xh += c * in.xx_hi[x];
            xl += c * in.xx_lo[x];
            yh += c * in.yy_hi[x];
            yl += c * in.yy_lo[x];
            ch += c * in.xy_hi[x];
            cl += c * in.xy_lo[x];
        }
        const uint32_t round = vif::round_of(vif::kQ16Shift);
        const uint32_t xx = xh + ((xl + round) >> vif::kQ16Shift);
        const uint32_t yy = yh + ((yl + round) >> vif::kQ16Shift);
        const uint32_t xy = ch + ((cl + round) >> vif::kQ16Shift);
        s1[j] = int32_t(xx - mul_q32(m1, m1));
        s2[j] = std::max(int32_t(yy - mul_q32(m2, m2)), 0);
        s12[j] = int32_t(xy - mul_q32(m1, m2));
    }
}

// Integer sums of one scale; the score needs them in this exact form.
struct Sums {
    int64_t num_log = 0, den_log = 0, num_lin = 0, den_lin = 0;
};

// log2(v) in Q11 from the table: the top 16 significant bits index it.
VIF_INLINE int32_t log2_q11(const uint16_t *table, uint64_t v)
{
    const int k = 63 - __builtin_clzll(v) - 15;
    return int32_t(table[(v >> k) - vif::kLog2First]) + 2048 * k;
}

// Per-pixel information terms. Where the reference variance is below the
// noise floor the pixel counts as one unit of denominator and nearly one of
// numerator; elsewhere both are log2 ratios.
VIF_INLINE void accumulate(const int32_t *s1v, const int32_t *s2v, const int32_t *s12v, unsigned w,
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

struct ScaleScore {
    float num, den;
};

VIF_INLINE ScaleScore finish(const Sums &s)
{
    const double num = s.num_log / 2048.0 +
                       (double(s.den_lin) - (double(s.num_lin) / vif::kLinDiv1) / vif::kLinDiv2);
    const double den = s.den_log / 2048.0 + double(s.den_lin);
    return {float(num), float(den)};
}

// Per-instance row scratch, padded by kMaxFilterHalf on both sides.
struct RowScratch {
    static constexpr int kPad = vif::kMaxFilterHalf;
    std::vector<uint16_t> moments;  // 8 padded rows
    std::vector<int32_t> sigmas;    // 3 rows
    std::vector<uint16_t> conv;     // 2 padded rows for the halving filter
    size_t padded = 0, width = 0;

    void init(unsigned w)
    {
        width = w;
        padded = w + 2 * kPad;
        moments.assign(8 * padded, 0);
        sigmas.assign(3 * size_t(w), 0);
        conv.assign(2 * padded, 0);
    }
    MomentRow moment_row()
    {
        uint16_t *p = moments.data() + kPad;
        return {p, p + padded, p + 2 * padded, p + 3 * padded,
                p + 4 * padded, p + 5 * padded, p + 6 * padded, p + 7 * padded};
    }
    int32_t *sigma(int i) { return sigmas.data() + size_t(i) * width; }
    uint16_t *conv_row(int i) { return conv.data() + kPad + size_t(i) * padded; }
};

struct Tables {
    const uint16_t *log2;
    double gain_limit;
};

template <int W, typename T>
VIF_INLINE ScaleScore statistic(const Plane<T> &ref, const Plane<T> &dis, unsigned bits, int scale,
                                RowScratch &rs, const Tables &t)
{
    const uint16_t *f = vif::kFilter[scale];
    const MomentRow m = rs.moment_row();
    int32_t *s1 = rs.sigma(0), *s2 = rs.sigma(1), *s12 = rs.sigma(2);
    Sums sums;
    for (int i = 0; i < int(ref.h); i++) {
        const T *r[W], *d[W];
        window_rows<W>(ref, i, r);
        window_rows<W>(dis, i, d);
        vertical_moments<W, T>(r, d, f, ref.w, bits, m);
        for (uint16_t *row : {m.mu1, m.mu2, m.xx_hi, m.xx_lo, m.yy_hi, m.yy_lo, m.xy_hi, m.xy_lo})
            pad_row(row, ref.w, W / 2);
        horizontal_sigmas<W>(m, f, ref.w, s1, s2, s12);
        accumulate(s1, s2, s12, ref.w, t.log2, t.gain_limit, sums);
    }
    return finish(sums);
}

// Blur with the next scale's window and keep every other row and column.
template <int W, typename T>
VIF_INLINE void halve(const Plane<T> &ref, const Plane<T> &dis, unsigned bits, int next_scale,
                      RowScratch &rs, uint16_t *out_ref, uint16_t *out_dis, ptrdiff_t out_stride)
{
    constexpr int H = W / 2;
    const uint16_t *f = vif::kFilter[next_scale];
    const unsigned vs = bits;
    const uint32_t vr = vif::round_of(vs), hr = vif::round_of(vif::kQ16Shift);
    uint16_t *cr = rs.conv_row(0), *cd = rs.conv_row(1);
    const unsigned w = ref.w, ow = ref.w / 2, oh = ref.h / 2;
    for (unsigned i = 0; i < oh; i++) {
        const T *r[W], *d[W];
        window_rows<W>(ref, int(2 * i), r);
        window_rows<W>(dis, int(2 * i), d);
#pragma GCC ivdep
        for (unsigned j = 0; j < w; j++) {
            uint32_t ar = 0, ad = 0;
#pragma GCC unroll 17
            for (int k = 0; k < W; k++) {
                ar += uint32_t(f[k]) * r[k][j];
                ad += uint32_t(f[k]) * d[k][j];
            }
            cr[j] = uint16_t((ar + vr) >> vs);
            cd[j] = uint16_t((ad + vr) >> vs);
        }
        pad_row(cr, w, H);
        pad_row(cd, w, H);
        uint16_t *orow = out_ref + ptrdiff_t(i) * out_stride, *drow = out_dis + ptrdiff_t(i) * out_stride;
#pragma GCC ivdep
        for (unsigned j = 0; j < ow; j++) {
            uint32_t ar = 0, ad = 0;
#pragma GCC unroll 17
            for (int k = 0; k < W; k++) {
                ar += uint32_t(f[k]) * cr[ptrdiff_t(2 * j) - H + k];
                ad += uint32_t(f[k]) * cd[ptrdiff_t(2 * j) - H + k];
            }
            orow[j] = uint16_t((ar + hr) >> vif::kQ16Shift);
            drow[j] = uint16_t((ad + hr) >> vif::kQ16Shift);
        }
    }
}

// A scale's pair of planes, 8-bit only at scale 0 of an 8-bit input.
struct ScalePlanes {
    Plane<uint8_t> ref8, dis8;
    Plane<uint16_t> ref16, dis16;
    bool is8;
};

VIF_INLINE ScaleScore statistic_any(const ScalePlanes &p, unsigned bits, int scale, RowScratch &rs,
                                    const Tables &t)
{
    if (p.is8) return statistic<17, uint8_t>(p.ref8, p.dis8, bits, scale, rs, t);
    switch (vif::kFilterWidth[scale]) {
    case 17: return statistic<17, uint16_t>(p.ref16, p.dis16, bits, scale, rs, t);
    case 9: return statistic<9, uint16_t>(p.ref16, p.dis16, bits, scale, rs, t);
    case 5: return statistic<5, uint16_t>(p.ref16, p.dis16, bits, scale, rs, t);
    default: return statistic<3, uint16_t>(p.ref16, p.dis16, bits, scale, rs, t);
    }
}

VIF_INLINE void halve_any(const ScalePlanes &p, unsigned bits, int next_scale, RowScratch &rs,
                          uint16_t *out_ref, uint16_t *out_dis, ptrdiff_t out_stride)
{
    if (p.is8) return halve<9, uint8_t>(p.ref8, p.dis8, bits, next_scale, rs, out_ref, out_dis, out_stride);
    switch (vif::kFilterWidth[next_scale]) {
    case 9: return halve<9, uint16_t>(p.ref16, p.dis16, bits, next_scale, rs, out_ref, out_dis, out_stride);
    case 5: return halve<5, uint16_t>(p.ref16, p.dis16, bits, next_scale, rs, out_ref, out_dis, out_stride);
    default: return halve<3, uint16_t>(p.ref16, p.dis16, bits, next_scale, rs, out_ref, out_dis, out_stride);
    }
}

// The same kernels compiled twice: for the baseline ISA and, on x86, for AVX2
// (integer-only widening; no FMA, so the double arithmetic is unchanged).
ScaleScore statistic_generic(const ScalePlanes &p, unsigned bits, int scale, RowScratch &rs,
                             const Tables &t)
{
    return statistic_any(p, bits, scale, rs, t);
}

void halve_generic(const ScalePlanes &p, unsigned bits, int next_scale, RowScratch &rs,
                   uint16_t *out_ref, uint16_t *out_dis, ptrdiff_t out_stride)
{
    halve_any(p, bits, next_scale, rs, out_ref, out_dis, out_stride);
}

#if VIF_X86
__attribute__((target("avx2"))) ScaleScore statistic_avx2(const ScalePlanes &p, unsigned bits, int scale,
                                                          RowScratch &rs, const Tables &t)
{
    return statistic_any(p, bits, scale, rs, t);
}

__attribute__((target("avx2"))) void halve_avx2(const ScalePlanes &p, unsigned bits, int next_scale,
                                                RowScratch &rs, uint16_t *out_ref, uint16_t *out_dis,
                                                ptrdiff_t out_stride)
{
    halve_any(p, bits, next_scale, rs, out_ref, out_dis, out_stride);
}
#endif

struct KernelSet {
    ScaleScore (*statistic)(const ScalePlanes &, unsigned, int, RowScratch &, const Tables &);
    void (*halve)(const ScalePlanes &, unsigned, int, RowScratch &, uint16_t *, uint16_t *, ptrdiff_t);
};

KernelSet pick_kernels(vif::Kernels which)
{
#if VIF_X86
    if (which == vif::Kernels::Best && __builtin_cpu_supports("avx2")) return {statistic_avx2, halve_avx2};
#endif
    (void)which;
    return {statistic_generic, halve_generic};
}

const uint16_t *log2_table()
{
    static const vif::Log2Table table = vif::make_log2_table();
    return table.data();
}

class VifCpu final : public Extractor {
public:
    VifCpu(const FeatureOptions &o, vif::Kernels which)
        : which_(which), debug_(o.flag("debug")), skip_scale0_(o.flag("vif_skip_scale0")),
          gain_limit_(o.number("vif_enhn_gain_limit")) {}

    int init(const FrameFormat &fmt) override
    {
        if (fmt.w < vif::kMinSide || fmt.h < vif::kMinSide) return -EINVAL;
        if (fmt.bpc < 8 || fmt.bpc > 16) return -EINVAL;
        fmt_ = fmt;
        rows_.init(fmt.w);
        stride_ = fmt.w / 2;
        for (auto &img : images_) img.assign(size_t(stride_) * (fmt.h / 2), 0);
        kernels_ = pick_kernels(which_);
        tables_ = {log2_table(), gain_limit_};
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        if (ref.w[0] != fmt_.w || ref.h[0] != fmt_.h || dist.w[0] != fmt_.w || dist.h[0] != fmt_.h ||
            ref.bpc != fmt_.bpc || dist.bpc != fmt_.bpc)
            return -EINVAL;

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
            if (scale == 0 && skip_scale0_) continue;
            score[scale] = kernels_.statistic(p, bits, scale, rows_, tables_);
        }
        return write_scores(score, index, out);
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

    int write_scores(const ScaleScore (&s)[vif::kScales], unsigned index, ScoreSink &out) const
    {
        int err = 0;
        for (int i = 0; i < vif::kScales; i++) {
            // libvmaf divides in float, then widens.
            const float v = (i == 0 && skip_scale0_) ? 0.0f : s[i].num / s[i].den;
            err |= out.append(kScaleNames[i], index, v);
        }
        if (!debug_) return err;

        double num = 0.0, den = 0.0;
        for (int i = skip_scale0_ ? 1 : 0; i < vif::kScales; i++) {
            num += double(s[i].num);
            den += double(s[i].den);
        }
        err |= out.append("integer_vif", index, den == 0.0 ? 1.0 : num / den);
        err |= out.append("integer_vif_num", index, num);
        err |= out.append("integer_vif_den", index, den);
        for (int i = 0; i < vif::kScales; i++) {
            const bool skipped = i == 0 && skip_scale0_;
            err |= out.append(kNumNames[i], index, skipped ? 0.0 : double(s[i].num));
            err |= out.append(kDenNames[i], index, skipped ? -1.0 : double(s[i].den));
        }
        return err;
    }

    vif::Kernels which_;
    bool debug_, skip_scale0_;
    double gain_limit_;
    FrameFormat fmt_{};
    RowScratch rows_;
    // Scales 1 and 3 use images_[0..1], scale 2 images_[2..3] (ref, dis),
    // each half the input's size with the same stride.
    std::vector<uint16_t> images_[4];
    ptrdiff_t stride_ = 0;
    KernelSet kernels_{};
    Tables tables_{};
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

const ExtractorInfo kVifExtractor = {"vif", kProvided, kOptions, 0, create};

}  // namespace vmaf
