// SPDX-License-Identifier: BSD-2-Clause-Patent
// ssimulacra2 on the CPU. Each frame pair is converted to RGB (the matrix and
// range of the options, chroma repeated over the samples it covers, clamped to
// [0, 1], float), and scored the way libjxl's `ssimulacra2` tool scores two
// sRGB pictures: sRGB -> linear, 6 scales (2x2 box downsampling in linear RGB),
// XYB, the recursive Gaussian blur, SSIM and edge-difference maps, their 1- and
// 4-norms, the weighted sum and the final mapping. Every float operation is
// libjxl's, in its order. Its Highway code's multiply-adds are fused on
// targets with FMA (AVX2 and up) and not on the others (SSE2, SSE4), which
// moves scores by up to a few hundredths: option libjxl_fma picks which
// (one rounding or two). The build has -ffp-contract=off, so nothing else is
// fused. The per-pixel passes are in ssimulacra2_kernels.h (a portable build
// and an AVX2 + FMA one, picked at start-up, giving the same bits); the sums
// of the norms stay here, one pixel after another as libjxl adds them.
#include "feature/ssimulacra2/ssimulacra2.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "feature/ssimulacra2/ssimulacra2_host.h"
#include "feature/ssimulacra2/ssimulacra2_kernels.h"
#include "feature/ssimulacra2/ssimulacra2_tables.h"
#include "picture/picture.h"
#include "util/log.h"

namespace vmaf {

namespace {

namespace s2 = ssimulacra2;
using s2::RecursiveGaussian;
using s2::ScaleNorms;
using s2::score;

constexpr OptionSpec kOptions[] = {srgb::kMatrixOption, srgb::kRangeOption, srgb::kLibjxlFmaOption};

constexpr const char *kProvided[] = {s2::kName};

// Three float planes of one size, row-major without padding. The storage only
// grows (the scales of a frame reuse it), and a resize leaves the values
// undefined: every pass writes all of its output.
struct Image3 {
    unsigned w = 0, h = 0;
    std::vector<float> p[3];

    void resize(unsigned nw, unsigned nh)
    {
        w = nw;
        h = nh;
        for (auto &v : p)
            if (v.size() < size()) v.resize(size());
    }
    std::size_t size() const { return std::size_t(w) * h; }
    float *row(unsigned c, unsigned y) { return p[c].data() + std::size_t(y) * w; }
    const float *row(unsigned c, unsigned y) const { return p[c].data() + std::size_t(y) * w; }
};

// ---- YUV -> RGB ----

using s2::Conversion;

// One row at a time: the samples as doubles (chroma repeated over the luma
// samples it covers), then the conversion kernel.
template <typename T>
void to_rgb(const VmafPicture &pic, const Conversion &cv, unsigned ss_x, unsigned ss_y, const s2::KernelSet &k,
            double *rows, Image3 &out)
{
    srgb::picture_to_rgb<T>(pic, cv, ss_x, ss_y, out.w, out.h, k.rgb_row, rows, out.p[0].data(), out.p[1].data(),
                            out.p[2].data());
}

// 2x2 box average, the last row and column repeated where the size is odd.
void downsample(const Image3 &in, Image3 &out)
{
    out.resize((in.w + 1) / 2, (in.h + 1) / 2);
    for (unsigned c = 0; c < 3; c++)
        for (unsigned oy = 0; oy < out.h; oy++) {
            float *ro = out.row(c, oy);
            for (unsigned ox = 0; ox < out.w; ox++) {
                float sum = 0.0f;
                for (unsigned iy = 0; iy < 2; iy++)
                    for (unsigned ix = 0; ix < 2; ix++) {
                        const unsigned x = std::min(ox * 2 + ix, in.w - 1);
                        const unsigned y = std::min(oy * 2 + iy, in.h - 1);
                        sum += in.row(c, y)[x];
                    }
                ro[ox] = sum * 0.25f;
            }
        }
}

// ---- the recursive Gaussian (Charalampidis 2016, as libjxl implements it) ----

RecursiveGaussian make_gaussian(double sigma)
{
    RecursiveGaussian rg{};
    constexpr double kPi = 3.141592653589793238;
    const double radius = ::roundf(float(3.2795 * sigma + 0.2546));
    const double pi_div_2r = kPi / (2.0 * radius);
    const double omega[3] = {pi_div_2r, 3.0 * pi_div_2r, 5.0 * pi_div_2r};
    const double p1 = +1.0 / std::tan(0.5 * omega[0]);
    const double p3 = -1.0 / std::tan(0.5 * omega[1]);
    const double p5 = +1.0 / std::tan(0.5 * omega[2]);
    const double r1 = +p1 * p1 / std::sin(omega[0]);
    const double r3 = -p3 * p3 / std::sin(omega[1]);
    const double r5 = +p5 * p5 / std::sin(omega[2]);
    const double neg_half_sigma2 = -0.5 * sigma * sigma;
    const double recip_radius = 1.0 / radius;
    double rho[3];
    for (int i = 0; i < 3; i++) rho[i] = std::exp(neg_half_sigma2 * omega[i] * omega[i]) * recip_radius;
    const double d13 = p1 * r3 - r1 * p3;
    const double d35 = p3 * r5 - r3 * p5;
    const double d51 = p5 * r1 - r5 * p1;
    const double recip_d13 = 1.0 / d13;
    const double zeta15 = d35 * recip_d13;
    const double zeta35 = d51 * recip_d13;
    double a[3][3] = {{p1, p3, p5}, {r1, r3, r5}, {zeta15, zeta35, 1.0}};
    // Inverse by cofactors, in libjxl's order.
    double t[3][3];
    t[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    t[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
    t[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
    t[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    t[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
    t[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
    t[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    t[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
    t[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    const double det = a[0][0] * t[0][0] + a[0][1] * t[1][0] + a[0][2] * t[2][0];
    const double idet = 1.0 / det;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) a[j][i] = t[j][i] * idet;
    const double gamma[3] = {1.0, radius * radius - sigma * sigma, zeta15 * rho[0] + zeta35 * rho[1] + rho[2]};
    double beta[3];
    for (int y = 0; y < 3; y++) {
        double e = 0.0;
        for (int x = 0; x < 3; x++) e += a[y][x] * gamma[x];
        beta[y] = e;
    }
    rg.radius = int(radius);
    for (int i = 0; i < 3; i++) {
        const double n2 = -beta[i] * std::cos(omega[i] * (radius + 1.0));
        const double d1 = -2.0 * std::cos(omega[i]);
        rg.n2[i] = float(n2);
        rg.d1[i] = float(d1);
        const double d_2 = d1 * d1;
        rg.mul_prev[i][0] = float(-d1);
        rg.mul_prev[i][1] = float(d_2 - 1.0);
        rg.mul_prev[i][2] = float(-d_2 * d1 + 2.0 * d1);
        rg.mul_prev[i][3] = float(d_2 * d_2 - 3.0 * d_2 + 1.0);
        rg.mul_prev2[i][0] = float(-1.0);
        rg.mul_prev2[i][1] = float(d1);
        rg.mul_prev2[i][2] = float(-d_2 + 1.0);
        rg.mul_prev2[i][3] = float(d_2 * d1 - 2.0 * d1);
        rg.mul_in[i][0] = float(n2);
        rg.mul_in[i][1] = float(-d1 * n2);
        rg.mul_in[i][2] = float(d_2 * n2 - n2);
        rg.mul_in[i][3] = float(-d_2 * d1 * n2 + 2.0 * d1 * n2);
        for (int m = 0; m < 4; m++)
            for (int j = 0; j < 4; j++) rg.mul_in_shifted[i][m][j] = j >= m ? rg.mul_in[i][j - m] : 0.0f;
    }
    return rg;
}

}  // namespace

const RecursiveGaussian &ssimulacra2::gaussian()
{
    // The sigma goes through a volatile so that the compiler evaluates the
    // transcendental functions at run time with the C library, as libjxl does.
    static const RecursiveGaussian rg = [] {
        volatile double sigma = s2::kBlurSigma;
        return make_gaussian(sigma);
    }();
    return rg;
}

float ssimulacra2::neg_bias_cbrt()
{
    // Through a volatile: the C library's cbrt at run time, as libjxl.
    volatile float bias = s2::kOpsinBias;
    return -std::cbrt(float(bias));
}

namespace {

// The blur of whole pictures, with its scratch planes.
class Blur {
public:
    explicit Blur(const s2::KernelSet &k) : k_(k) {}

    void image(const Image3 &in, Image3 &out)
    {
        out.resize(in.w, in.h);
        if (temp_.size() < in.size()) temp_.resize(in.size());
        if (state_.size() < std::size_t(in.w) * s2::kBlurScratch) state_.resize(std::size_t(in.w) * s2::kBlurScratch);
        for (unsigned c = 0; c < 3; c++)
            k_.blur_plane(s2::gaussian(), in.p[c].data(), out.p[c].data(), temp_.data(), state_.data(), in.w, in.h);
    }

private:
    const s2::KernelSet &k_;
    std::vector<float> temp_, state_;
};

// ---- maps and score ----

// The norms of the SSIM and edge-difference maps of one scale. The per-pixel
// terms go through a buffer of a few rows so that they vectorize; the sums
// stay in libjxl's order, one pixel after another.
class Maps {
public:
    explicit Maps(const s2::KernelSet &k) : k_(k) {}

    void ssim(const Image3 &m1, const Image3 &m2, const Image3 &s11, const Image3 &s22, const Image3 &s12,
              double *avg)
    {
        const double one_per_pixels = 1.0 / double(std::size_t(m1.h) * m1.w);
        const std::size_t n = m1.size();
        for (unsigned c = 0; c < 3; c++) {
            double sum0 = 0.0, sum1 = 0.0;
            for (std::size_t i = 0; i < n; i += kChunk) {
                const std::size_t len = std::min(kChunk, n - i);
                k_.ssim_terms(m1.p[c].data() + i, m2.p[c].data() + i, s11.p[c].data() + i, s22.p[c].data() + i,
                              s12.p[c].data() + i, len, buf_[0], buf_[1]);
                for (std::size_t j = 0; j < len; j++) {
                    sum0 += buf_[0][j];
                    sum1 += buf_[1][j];
                }
            }
            avg[c * 2] = one_per_pixels * sum0;
            avg[c * 2 + 1] = std::sqrt(std::sqrt(one_per_pixels * sum1));
        }
    }

    void edge_diff(const Image3 &img1, const Image3 &mu1, const Image3 &img2, const Image3 &mu2, double *avg)
    {
        const double one_per_pixels = 1.0 / double(std::size_t(img1.h) * img1.w);
        const std::size_t n = img1.size();
        for (unsigned c = 0; c < 3; c++) {
            double sum[4] = {};
            for (std::size_t i = 0; i < n; i += kChunk) {
                const std::size_t len = std::min(kChunk, n - i);
                k_.edge_terms(img1.p[c].data() + i, mu1.p[c].data() + i, img2.p[c].data() + i, mu2.p[c].data() + i,
                              len, buf_[0], buf_[1], buf_[2], buf_[3]);
                for (std::size_t j = 0; j < len; j++) {
                    sum[0] += buf_[0][j];
                    sum[1] += buf_[1][j];
                    sum[2] += buf_[2][j];
                    sum[3] += buf_[3][j];
                }
            }
            avg[c * 4] = one_per_pixels * sum[0];
            avg[c * 4 + 1] = std::sqrt(std::sqrt(one_per_pixels * sum[1]));
            avg[c * 4 + 2] = one_per_pixels * sum[2];
            avg[c * 4 + 3] = std::sqrt(std::sqrt(one_per_pixels * sum[3]));
        }
    }

private:
    static constexpr std::size_t kChunk = 2048;
    const s2::KernelSet &k_;
    double buf_[4][kChunk];
};

class Ssimulacra2Cpu final : public Extractor {
public:
    Ssimulacra2Cpu(const FeatureOptions &opts, Kernels which)
        : matrix_(opts.text("matrix")), full_range_(opts.text("range") == "full"), fused_(opts.flag("libjxl_fma")),
          k_(s2::kernels(fused_, which)), blur_(k_), maps_(k_)
    {
    }

    int init(const FrameFormat &fmt) override
    {
        if (int err = srgb::check_format(fmt, "ssimulacra2", s2::kMinSide)) return err;
        conv_ = s2::conversion_for(fmt, matrix_, full_range_);
        chroma_shift(fmt.pix_fmt, &ss_x_, &ss_y_);
        fmt_ = fmt;
        neg_bias_cbrt_ = s2::neg_bias_cbrt();
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        rgb(ref, lin_[0][0]);
        rgb(dist, lin_[0][1]);
        for (Image3 &img : lin_[0])
            for (auto &plane : img.p) k_.linearize(plane.data(), img.size());
        std::vector<ScaleNorms> scales;
        for (int scale = 0; scale < s2::kNumScales; scale++) {
            // Each scale has its own linear pictures, so that no storage
            // changes size from one frame to the next.
            // libjxl goes on while the previous scale is at least 8x8.
            const Image3 &prev = lin_[scale ? scale - 1 : 0][0];
            if (prev.w < s2::kMinSide || prev.h < s2::kMinSide) break;
            Image3 *lin = lin_[scale];
            if (scale)
                for (int s = 0; s < 2; s++) downsample(lin_[scale - 1][s], lin[s]);
            for (int s = 0; s < 2; s++) xyb(lin[s], xyb_[s]);
            multiply(xyb_[0], xyb_[0]);
            blur_.image(mul_, sigma11_);
            multiply(xyb_[1], xyb_[1]);
            blur_.image(mul_, sigma22_);
            multiply(xyb_[0], xyb_[1]);
            blur_.image(mul_, sigma12_);
            blur_.image(xyb_[0], mu_[0]);
            blur_.image(xyb_[1], mu_[1]);
            ScaleNorms sc{};
            maps_.ssim(mu_[0], mu_[1], sigma11_, sigma22_, sigma12_, sc.ssim);
            maps_.edge_diff(xyb_[0], mu_[0], xyb_[1], mu_[1], sc.edgediff);
            scales.push_back(sc);
        }
        return out.append(s2::kName, index, score(scales));
    }

private:
    void rgb(const VmafPicture &pic, Image3 &out)
    {
        out.resize(fmt_.w, fmt_.h);
        rows_.resize(std::size_t(fmt_.w) * 3);
        if (fmt_.bpc > 8) to_rgb<uint16_t>(pic, conv_, ss_x_, ss_y_, k_, rows_.data(), out);
        else to_rgb<uint8_t>(pic, conv_, ss_x_, ss_y_, k_, rows_.data(), out);
    }

    // Linear RGB -> positive XYB.
    void xyb(const Image3 &in, Image3 &out) const
    {
        out.resize(in.w, in.h);
        k_.to_xyb(in.p[0].data(), in.p[1].data(), in.p[2].data(), in.size(), neg_bias_cbrt_, out.p[0].data(),
                  out.p[1].data(), out.p[2].data());
    }

    void multiply(const Image3 &a, const Image3 &b)
    {
        mul_.resize(a.w, a.h);
        for (unsigned c = 0; c < 3; c++)
            for (std::size_t i = 0; i < a.size(); i++) mul_.p[c][i] = a.p[c][i] * b.p[c][i];
    }

    std::string matrix_;
    bool full_range_;
    bool fused_;
    const s2::KernelSet &k_;
    FrameFormat fmt_{};
    Conversion conv_{};
    unsigned ss_x_ = 0, ss_y_ = 0;
    float neg_bias_cbrt_ = 0.0f;
    std::vector<double> rows_;
    Image3 lin_[s2::kNumScales][2], xyb_[2], mul_, sigma11_, sigma22_, sigma12_, mu_[2];
    Blur blur_;
    Maps maps_;
};

std::unique_ptr<Extractor> create(const FeatureOptions &opts)
{
    return std::make_unique<Ssimulacra2Cpu>(opts, Kernels::Best);
}

}  // namespace

std::unique_ptr<Extractor> create_ssimulacra2_cpu(const FeatureOptions &opts, Kernels which)
{
    return std::make_unique<Ssimulacra2Cpu>(opts, which);
}

const ExtractorInfo kSsimulacra2Extractor = {"ssimulacra2", kProvided, kOptions, 0, create};

}  // namespace vmaf
