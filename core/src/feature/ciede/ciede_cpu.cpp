// SPDX-License-Identifier: BSD-2-Clause-Patent
// ciede on the CPU. Chroma is first brought to luma resolution the way libvmaf
// does it (including its reads past the row ends for 4:2:2, see
// LibvmafChroma), each pixel of both pictures goes YUV -> Lab in double with
// float results, and CIEDE2000 is evaluated with libvmaf's float/double mix;
// the per-pixel differences are summed in double. libvmaf has no SIMD path
// for this feature; its scalar C is what is matched.
#include "feature/ciede/ciede.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <vector>

#include "feature/ciede/ciede_tables.h"
#include "picture/picture.h"
#include "util/log.h"

namespace vmaf {

namespace {

using ciede::kPi;

constexpr const char *kProvided[] = {ciede::kName};

struct Lab {
    float l, a, b;
};

// ---- YUV -> Lab ----

double srgb_to_linear(double c)
{
    if (c > ciede::kSrgbKnee) return std::pow((c + ciede::kSrgbOffset) * ciede::kSrgbInvScale, ciede::kSrgbGamma);
    return c * ciede::kSrgbInvSlope;
}

float lab_f(double t)
{
    if (t > ciede::kLabEpsilon) return float(std::pow(t, ciede::kCubeRoot));
    return float((ciede::kLabKappa * t + 16.0) * ciede::kInv116);
}

// Linear red of normalized (y, v) and blue of (y, u): the parts of the
// conversion that two samples decide, which 8-bit input takes from a table.
double linear_r(double y, double v) { return srgb_to_linear(y + ciede::kRFromV * v); }
double linear_b(double y, double u) { return srgb_to_linear(y + ciede::kBFromU * u); }

Lab linear_to_lab(double r, double g, double b)
{
    const auto &m = ciede::kXyz;
    const double fx = lab_f((r * m[0][0] + g * m[0][1] + b * m[0][2]) * ciede::kInvWhiteX);
    const double fy = lab_f(r * m[1][0] + g * m[1][1] + b * m[1][2]);
    const double fz = lab_f((r * m[2][0] + g * m[2][1] + b * m[2][2]) * ciede::kInvWhiteZ);
    return {float(ciede::kLabL * fy - ciede::kLabLOffset), float(ciede::kLabA * (fx - fy)),
            float(ciede::kLabB * (fy - fz))};
}

struct Normalized {
    double y, u, v;
};

Normalized normalize(double y, double u, double v, unsigned bpc)
{
    const ciede::Normalization n = ciede::normalization(bpc);
    return {(y - n.luma_black) * n.luma_scale, (u - n.chroma_zero) * n.chroma_scale,
            (v - n.chroma_zero) * n.chroma_scale};
}

double linear_g(const Normalized &c)
{
    return srgb_to_linear(c.y - ciede::kGFromU * c.u - ciede::kGFromV * c.v);
}

Lab yuv_to_lab(double y, double u, double v, unsigned bpc)
{
    const Normalized c = normalize(y, u, v, bpc);
    return linear_to_lab(linear_r(c.y, c.v), linear_g(c), linear_b(c.y, c.u));
}

// 8-bit samples: red and blue from ciede::linear_rb_table_8bit().
Lab yuv8_to_lab(unsigned y, unsigned u, unsigned v, const double *table)
{
    const Normalized c = normalize(double(y), double(u), double(v), 8);
    return linear_to_lab(table[y << 8 | v], linear_g(c), table[ciede::kLinearTableSide + (y << 8 | u)]);
}

// ---- CIEDE2000 ----

// Hue angle of (a, b) in [0, 2 pi), 0 for the achromatic point.
float hue(float b, float a)
{
    if (b == 0.0f && a == 0.0f) return 0.0f;
    float h = float(std::atan2(double(b), double(a)));
    if (h < 0.0f) h = float(double(h) + 2.0 * kPi);
    return h;
}

// Hue difference h2 - h1 wrapped into [-pi, pi]; 0 when either chroma is 0.
float hue_delta(float c1, float c2, float h1, float h2)
{
    if (c1 == 0.0f || c2 == 0.0f) return 0.0f;
    if (double(std::fabs(h1 - h2)) <= kPi) return h2 - h1;
    if (h2 <= h1) return float(double(h2 - h1) + 2.0 * kPi);
    return float(double(h2 - h1) - 2.0 * kPi);
}

// Mean hue, taken the short way round the circle.
float hue_mean(float h1, float h2)
{
    if (std::fabs(double(h1 - h2)) > kPi) return float((double(h1 + h2) + 2.0 * kPi) / 2.0);
    return float(double(h1 + h2) / 2.0);
}

float hue_weight_t(float hbar)
{
    const double h = hbar;
    return float(1.0 - ciede::kT1 * std::cos(h - kPi / 6.0) + ciede::kT2 * std::cos(2.0 * h) +
                 ciede::kT3 * std::cos(3.0 * h + kPi / 30.0) - ciede::kT4 * std::cos(4.0 * h - 7.0 * kPi / 20.0));
}

float to_degrees(float rad) { return float(double(rad) * (180.0 / kPi)); }
float to_radians(float deg) { return float(double(deg) * (kPi / 180.0)); }

// The rotation term R_T (powers of C' in float, as the reference takes them).
float rotation(float cbar_prime, float hbar)
{
    const float t = float((double(to_degrees(hbar)) - ciede::kRtCentre) * (1.0 / ciede::kRtWidth));
    const float c7 = ciede::chroma_power7(cbar_prime);
    const float ratio = c7 / (c7 + ::powf(ciede::kChromaKneeF, 7.0f));
    const float angle = to_radians(float(ciede::kRtAngle * std::exp(double(-::powf(t, 2.0f)))));
    return float(-2.0 * std::sqrt(double(ratio)) * std::sin(double(angle)));
}

inline double sq(float v) { return std::pow(double(v), 2.0); }

float ciede2000(const Lab &p1, const Lab &p2)
{
    const float dl = p2.l - p1.l;
    const float lbar = (p1.l + p2.l) / 2.0f;
    const float c1 = float(std::sqrt(sq(p1.a) + sq(p1.b)));
    const float c2 = float(std::sqrt(sq(p2.a) + sq(p2.b)));
    const float cbar = (c1 + c2) / 2.0f;
    const double cbar7 = std::pow(double(cbar), 7.0);
    const double g = 1.0 - std::sqrt(cbar7 / (std::pow(double(cbar), 7.0) + std::pow(ciede::kChromaKnee, 7.0)));
    const float a1 = float(double(p1.a) + double(p1.a / 2.0f) * g);
    const float a2 = float(double(p2.a) + double(p2.a / 2.0f) * g);
    const float cp1 = float(std::sqrt(sq(a1) + sq(p1.b)));
    const float cp2 = float(std::sqrt(sq(a2) + sq(p2.b)));
    const float cbar_prime = (cp1 + cp2) / 2.0f;
    const float dc = cp2 - cp1;
    const float lm = lbar - ciede::kLightnessMid;
    const float sl = float(1.0 + (ciede::kSl * sq(lm)) / std::sqrt(ciede::kSlOffset + sq(lm)));
    const float sc = float(1.0 + ciede::kSc * double(cbar_prime));
    const float h1 = hue(p1.b, a1);
    const float h2 = hue(p2.b, a2);
    const float dh = hue_delta(c1, c2, h1, h2);
    const float dH = float(2.0 * std::sqrt(double(cp1 * cp2)) * std::sin(double(dh) / 2.0));
    const float hbar = hue_mean(h1, h2);
    const float t = hue_weight_t(hbar);
    const float sh = float(1.0 + ciede::kSh * double(cbar_prime) * double(t));
    const float rt = rotation(cbar_prime, hbar);
    const float L = dl / (ciede::kWeightL * sl);
    const float C = dc / (ciede::kWeightC * sc);
    const float H = dH / (ciede::kWeightH * sh);
    return float(std::sqrt(sq(L) + sq(C) + sq(H) + double(rt * C * H)));
}

// ---- Chroma at luma resolution ----

// Reads a chroma plane as libvmaf lays it out (see ciede_tables.h) at a flat
// sample offset, so that reads past a row's end land where they do there.
class LibvmafChroma {
public:
    void init(VmafPixelFormat fmt, unsigned w, unsigned h)
    {
        unsigned ss_x, ss_y;
        chroma_shift(fmt, &ss_x, &ss_y);
        const ciede::LibvmafChromaLayout l = ciede::libvmaf_chroma_layout(ss_x, ss_y, w, h);
        wc_ = l.w;
        hc_ = l.h;
        stride_ = l.stride;
    }

    // Plane 1 runs on into plane 2; past plane 2 libvmaf reads outside its
    // buffer, taken here as 0.
    uint16_t at(const VmafPicture &pic, unsigned p, std::size_t off) const
    {
        if (!stride_) return 0;  // a one-sample-wide 4:2:x picture has no libvmaf chroma
        std::size_t row = off / stride_;
        const std::size_t col = off % stride_;
        if (row >= hc_) {
            if (p != 1) return 0;
            p = 2;
            row -= hc_;
            if (row >= hc_) return 0;
        }
        if (col >= wc_) return 0;
        const auto *line = static_cast<const uint8_t *>(pic.data[p]) + std::ptrdiff_t(row) * pic.stride[p];
        return pic.bpc > 8 ? reinterpret_cast<const uint16_t *>(line)[col] : line[col];
    }

    // libvmaf's upsampling to w x h: output row i reads source row i / 2 for
    // any subsampled layout (also 4:2:2, whose chroma is full height), and
    // column j / 2 only for 4:2:0 (4:2:2 reads column j, running past the
    // row's end into the next rows).
    void upsample(const VmafPicture &pic, unsigned p, bool halve_cols, unsigned w, unsigned h,
                  std::vector<uint16_t> &out) const
    {
        out.resize(std::size_t(w) * h);
        for (unsigned i = 0; i < h; i++)
            for (unsigned j = 0; j < w; j++)
                out[std::size_t(i) * w + j] = at(pic, p, std::size_t(i / 2) * stride_ + (halve_cols ? j / 2 : j));
    }

private:
    unsigned wc_ = 0, hc_ = 0, stride_ = 0;
};

template <typename T>
T sample(const VmafPicture &pic, unsigned p, unsigned i, unsigned j)
{
    const auto *line = static_cast<const uint8_t *>(pic.data[p]) + std::ptrdiff_t(i) * pic.stride[p];
    return reinterpret_cast<const T *>(line)[j];
}

class CiedeCpu final : public Extractor {
public:
    int init(const FrameFormat &fmt) override
    {
        if (fmt.pix_fmt == VMAF_PIX_FMT_YUV400P) {
            log(VMAF_LOG_LEVEL_ERROR, "ciede: needs chroma planes (4:0:0 input given)\n");
            return -EINVAL;
        }
        fmt_ = fmt;
        chroma_.init(fmt.pix_fmt, fmt.w, fmt.h);
        if (fmt.bpc == 8) linear_ = ciede::linear_rb_table_8bit().data();
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index,
                ScoreSink &out) override
    {
        const unsigned w = fmt_.w, h = fmt_.h;
        const bool sub = fmt_.pix_fmt != VMAF_PIX_FMT_YUV444P;
        if (sub) {
            const bool halve_cols = fmt_.pix_fmt == VMAF_PIX_FMT_YUV420P;
            for (unsigned c = 0; c < 2; c++) {
                chroma_.upsample(ref, c + 1, halve_cols, w, h, up_[0][c]);
                chroma_.upsample(dist, c + 1, halve_cols, w, h, up_[1][c]);
            }
        }
        double sum = 0.0;
        for (unsigned i = 0; i < h; i++) {
            for (unsigned j = 0; j < w; j++) {
                const Lab a = lab_at(ref, 0, i, j);
                const Lab b = lab_at(dist, 1, i, j);
                sum += double(ciede2000(a, b));
            }
        }
        return out.append(ciede::kName, index, ciede::score(sum, double(w * h)));
    }

private:
    // Sample of plane p at luma position (i, j), chroma from the upsampled planes.
    float pixel_of(const VmafPicture &pic, unsigned side, unsigned p, unsigned i, unsigned j) const
    {
        if (p && fmt_.pix_fmt != VMAF_PIX_FMT_YUV444P)
            return float(up_[side][p - 1][std::size_t(i) * fmt_.w + j]);
        return fmt_.bpc > 8 ? float(sample<uint16_t>(pic, p, i, j)) : float(sample<uint8_t>(pic, p, i, j));
    }
    // Lab colour of the pixel at (i, j) of the reference (side 0) or distorted (side 1) picture.
    Lab lab_at(const VmafPicture &pic, unsigned side, unsigned i, unsigned j) const
    {
        const float y = pixel_of(pic, side, 0, i, j), u = pixel_of(pic, side, 1, i, j),
                    v = pixel_of(pic, side, 2, i, j);
        if (linear_) return yuv8_to_lab(unsigned(y), unsigned(u), unsigned(v), linear_);
        return yuv_to_lab(y, u, v, fmt_.bpc);
    }

    FrameFormat fmt_{};
    const double *linear_ = nullptr;  // 8-bit input's red and blue
    LibvmafChroma chroma_;
    std::vector<uint16_t> up_[2][2];  // [ref, dist][Cb, Cr] at luma resolution
};

std::unique_ptr<Extractor> create(const FeatureOptions &)
{
    return std::make_unique<CiedeCpu>();
}

}  // namespace

const ExtractorInfo kCiedeExtractor = {"ciede", kProvided, {}, 0, create};

const std::vector<double> &ciede::linear_rb_table_8bit()
{
    static const std::vector<double> table = [] {
        std::vector<double> t(2 * size_t(kLinearTableSide));
        for (unsigned y = 0; y < 256; y++)
            for (unsigned c = 0; c < 256; c++) {
                const Normalized n = normalize(double(y), double(c), double(c), 8);
                t[y << 8 | c] = linear_r(n.y, n.v);
                t[kLinearTableSide + (y << 8 | c)] = linear_b(n.y, n.u);
            }
        return t;
    }();
    return table;
}

}  // namespace vmaf
