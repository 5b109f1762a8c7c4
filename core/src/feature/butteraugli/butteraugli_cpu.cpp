// SPDX-License-Identifier: BSD-2-Clause-Patent
// butteraugli on the CPU. Each frame pair is converted to RGB as ssimulacra2
// converts it (the matrix and range of the options, clamped to [0, 1], float),
// then to linear sRGB, and scored the way libjxl's `butteraugli_main` scores
// two sRGB pictures (hf_asymmetry and xmul 1, intensity target 80 nits unless
// the option says otherwise): the difference map of the pictures and of their
// 2x2 subsamples (butteraugli_kernels_tmpl.h), its maximum (`butteraugli`, the
// distance the tool prints) and its 3-norm (`butteraugli_3norm`).
#include "feature/butteraugli/butteraugli.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "feature/butteraugli/butteraugli_kernels.h"
#include "feature/common/srgb.h"
#include "picture/picture.h"
#include "util/log.h"

namespace vmaf {

namespace ba = butteraugli;

std::vector<float> ba::gauss_kernel(float sigma)
{
    const double scaler = -1.0 / (2.0 * sigma * sigma);
    const int diff = std::max<int>(1, int(kKernelM * std::fabs(sigma)));
    std::vector<float> kernel(2 * std::size_t(diff) + 1);
    for (int i = -diff; i <= diff; ++i) kernel[std::size_t(i + diff)] = float(std::exp(scaler * i * i));
    return kernel;
}

const ba::Kernels5 &ba::kernels()
{
    // The sigmas go through volatiles so that exp() runs at run time in the C
    // library, as libjxl's does.
    static const Kernels5 k = [] {
        volatile double s[4] = {kSigmaOpsin, kSigmaLf, kSigmaHf, kSigmaUhf};
        volatile float m = kSigmaMask;
        return Kernels5{gauss_kernel(float(s[0])), gauss_kernel(float(s[1])), gauss_kernel(float(s[2])),
                        gauss_kernel(float(s[3])), gauss_kernel(m)};
    }();
    return k;
}

std::unique_ptr<ba::Engine> ba::make_engine(bool fused, Kernels which)
{
#if VMAF_X86
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (has && which != Kernels::Portable) {
        if (fused) return std::make_unique<avx2::Comparator<true>>();
        return std::make_unique<avx2::Comparator<false>>();
    }
#else
    (void)which;
#endif
    if (fused) return std::make_unique<generic::Comparator<true>>();
    return std::make_unique<generic::Comparator<false>>();
}

double ba::three_norm(const Plane &map, bool fused)
{
    // Lanes of doubles per row, added to running totals after each row; the
    // columns past the last whole vector go to a scalar sum.
    constexpr std::size_t kMaxLanes = 4;
    const std::size_t lanes = fused ? 4 : 2;
    double totals[3][4] = {}, tail[3] = {};
    for (unsigned y = 0; y < map.h; y++) {
        const float *row = map.row(y);
        double sums[3][kMaxLanes] = {};
        std::size_t x = 0;
        for (; x + lanes <= map.w; x += lanes)
            for (std::size_t l = 0; l < lanes; l++) {
                const double d1 = row[x + l];
                const double d2 = d1 * (d1 * d1);
                sums[0][l] += d2;
                const double d3 = d2 * d2;
                sums[1][l] += d3;
                sums[2][l] += d3 * d3;
            }
        for (int i = 0; i < 3; i++)
            for (std::size_t l = 0; l < lanes; l++) totals[i][l] = sums[i][l] + totals[i][l];
        for (; x < map.w; ++x) {
            const double d1 = row[x];
            double d2 = d1 * d1 * d1;
            tail[0] += d2;
            d2 *= d2;
            tail[1] += d2;
            d2 *= d2;
            tail[2] += d2;
        }
    }
    return finish_three_norm(totals, tail, lanes, map.w, map.h);
}

double ba::finish_three_norm(const double (&totals)[3][4], const double (&tail)[3], std::size_t lanes, unsigned w,
                             unsigned h)
{
    const double one_per_pixels = 1.0 / double(std::size_t(h) * w);
    double v = 0;
    for (int i = 0; i < 3; i++) {
        // The lanes' sum in pairs, then the pairs' sums.
        const double lane_sum = lanes == 4 ? (totals[i][0] + totals[i][1]) + (totals[i][2] + totals[i][3])
                                           : totals[i][0] + totals[i][1];
        v += std::pow(one_per_pixels * (tail[i] + lane_sum), 1.0 / (3.0 * double(1 << i)));
    }
    return v / 3.0;
}

namespace {

constexpr OptionSpec kOptions[] = {
    srgb::kMatrixOption,
    srgb::kRangeOption,
    {"intensity_target", "it", OptType::Double, ba::kDefaultIntensityTarget, 1.0, 10000.0, true,
     "display brightness in nits that RGB 1.0 stands for (the tool's --intensity_target)"},
    srgb::kLibjxlFmaOption,
};

constexpr const char *kProvided[] = {ba::kName, ba::kNormName};

class ButteraugliCpu final : public Extractor {
public:
    ButteraugliCpu(const FeatureOptions &opts, Kernels which)
        : matrix_(opts.text("matrix")), full_range_(opts.text("range") == "full"),
          intensity_target_(float(opts.number("intensity_target"))), fused_(opts.flag("libjxl_fma")),
          engine_(ba::make_engine(fused_, which))
    {
    }

    int init(const FrameFormat &fmt) override
    {
        if (int err = srgb::check_format(fmt, "butteraugli", ba::kMinSide)) return err;
        conv_ = srgb::conversion_for(fmt, matrix_, full_range_);
        chroma_shift(fmt.pix_fmt, &ss_x_, &ss_y_);
        fmt_ = fmt;
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        rgb(ref, rgb_[0]);
        rgb(dist, rgb_[1]);
        engine_->diffmap(rgb_[0], rgb_[1], intensity_target_, map_);
        float distance = 0.0f;
        for (std::size_t i = 0; i < map_.size(); i++) distance = std::max(distance, map_.v[i]);
        if (int err = out.append(ba::kName, index, double(distance))) return err;
        return out.append(ba::kNormName, index, ba::three_norm(map_, fused_));
    }

private:
    // YUV -> RGB -> linear sRGB.
    void rgb(const VmafPicture &pic, ba::Image3 &out)
    {
        out.resize(fmt_.w, fmt_.h);
        rows_.resize(std::size_t(fmt_.w) * 3);
        float *p[3] = {out.p[0].v.data(), out.p[1].v.data(), out.p[2].v.data()};
        if (fmt_.bpc > 8)
            srgb::picture_to_rgb<uint16_t>(pic, conv_, ss_x_, ss_y_, fmt_.w, fmt_.h, srgb::rgb_row, rows_.data(), p[0],
                                           p[1], p[2]);
        else
            srgb::picture_to_rgb<uint8_t>(pic, conv_, ss_x_, ss_y_, fmt_.w, fmt_.h, srgb::rgb_row, rows_.data(), p[0],
                                          p[1], p[2]);
        for (ba::Plane &plane : out.p) linearize(plane);
    }

    void linearize(ba::Plane &plane) const
    {
        float *v = plane.v.data();
        const std::size_t n = plane.size();
        if (fused_)
            for (std::size_t i = 0; i < n; i++) v[i] = ba::generic::srgb_to_linear<true>(v[i]);
        else
            for (std::size_t i = 0; i < n; i++) v[i] = ba::generic::srgb_to_linear<false>(v[i]);
    }

    std::string matrix_;
    bool full_range_;
    float intensity_target_;
    bool fused_;
    std::unique_ptr<ba::Engine> engine_;
    FrameFormat fmt_{};
    srgb::Conversion conv_{};
    unsigned ss_x_ = 0, ss_y_ = 0;
    std::vector<double> rows_;
    ba::Image3 rgb_[2];
    ba::Plane map_;
};

std::unique_ptr<Extractor> create(const FeatureOptions &opts)
{
    return std::make_unique<ButteraugliCpu>(opts, Kernels::Best);
}

}  // namespace

std::unique_ptr<Extractor> create_butteraugli_cpu(const FeatureOptions &opts, Kernels which)
{
    return std::make_unique<ButteraugliCpu>(opts, which);
}

const ExtractorInfo kButteraugliExtractor = {"butteraugli", kProvided, kOptions, 0, create};

}  // namespace vmaf
