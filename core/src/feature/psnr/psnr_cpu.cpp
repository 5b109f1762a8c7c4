// PSNR on the CPU: exact integer SSE per plane, then libvmaf's peak and cap rules.
#include "feature/psnr/psnr.h"

#include <array>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>

#include "feature/psnr/psnr_tables.h"
#include "picture/picture.h"

namespace vmaf {

namespace {

constexpr OptionSpec kOptions[] = {
    {"enable_chroma", nullptr, OptType::Bool, 1, 0, 1, false, "also score the Cb and Cr planes"},
    {"enable_mse", nullptr, OptType::Bool, 0, 0, 1, false, "also write mse_y, mse_cb, mse_cr"},
    {"enable_apsnr", nullptr, OptType::Bool, 0, 0, 1, false,
     "write aggregate PSNR over the whole sequence (apsnr_*)"},
    {"reduced_hbd_peak", nullptr, OptType::Bool, 0, 0, 1, false,
     "use 255 << (bpc - 8) as the peak of >8-bit input"},
    {"min_sse", nullptr, OptType::Double, 0, 0, DBL_MAX, false,
     "cap scores at the PSNR of this SSE"},
};

constexpr const char *kProvided[] = {"psnr_y", "psnr_cb", "psnr_cr"};

template <typename T>
uint64_t plane_sse(const VmafPicture &a, const VmafPicture &b, unsigned p)
{
    uint64_t sse = 0;
    for (unsigned y = 0; y < a.h[p]; y++) {
        const T *ra = reinterpret_cast<const T *>(static_cast<const uint8_t *>(a.data[p]) + y * a.stride[p]);
        const T *rb = reinterpret_cast<const T *>(static_cast<const uint8_t *>(b.data[p]) + y * b.stride[p]);
        // A row of 16-bit errors fits 64 bits; of 8-bit errors, 32 bits up to 66051 samples.
        uint64_t row = 0;
        for (unsigned x = 0; x < a.w[p]; x++) {
            const int64_t e = int64_t(ra[x]) - int64_t(rb[x]);
            row += uint64_t(e * e);
        }
        sse += row;
    }
    return sse;
}

class PsnrCpu final : public Extractor {
public:
    explicit PsnrCpu(const FeatureOptions &o)
        : chroma_(o.flag("enable_chroma")), mse_(o.flag("enable_mse")),
          apsnr_(o.flag("enable_apsnr")), reduced_peak_(o.flag("reduced_hbd_peak")),
          min_sse_(o.number("min_sse")) {}

    int init(const FrameFormat &fmt) override
    {
        bpc_ = fmt.bpc;
        peak_ = psnr::peak(fmt.bpc, reduced_peak_);
        planes_ = fmt.pix_fmt == VMAF_PIX_FMT_YUV400P || !chroma_ ? 1 : 3;
        for (unsigned p = 0; p < 3; p++) {
            // libvmaf sizes chroma for min_sse as w/2 whenever it is subsampled.
            const bool ss_x = p && fmt.pix_fmt != VMAF_PIX_FMT_YUV444P;
            const bool ss_y = p && fmt.pix_fmt == VMAF_PIX_FMT_YUV420P;
            const double area = double(ss_x ? fmt.w / 2 : fmt.w) * (ss_y ? fmt.h / 2 : fmt.h);
            cap_[p] = psnr::psnr_cap(fmt.bpc, peak_, min_sse_, area);
        }
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index,
                ScoreSink &out) override
    {
        for (unsigned p = 0; p < planes_; p++) {
            const uint64_t sse = bpc_ == 8 ? plane_sse<uint8_t>(ref, dist, p)
                                           : plane_sse<uint16_t>(ref, dist, p);
            const uint64_t n = uint64_t(ref.w[p]) * ref.h[p];
            if (int err = out.append(psnr::kNames[p], index, psnr::from_sse(sse, n, peak_, cap_[p])))
                return err;
            if (mse_)
                if (int err = out.append(psnr::kMseNames[p], index, double(sse) / double(n)))
                    return err;
            if (apsnr_) {
                sse_total_[p] += sse;
                n_total_[p] += n;
            }
        }
        return 0;
    }

    int flush(ScoreSink &out) override
    {
        if (!apsnr_) return 0;
        for (unsigned p = 0; p < planes_; p++) {
            if (!n_total_[p]) continue;
            const double n = double(n_total_[p]);
            const double apsnr = 10.0 * (std::log10(peak_ * peak_) + std::log10(n) -
                                         std::log10(double(sse_total_[p])));
            const double max_apsnr = std::ceil(10.0 * std::log10(peak_ * peak_ * n * 2));
            if (int err = out.set_aggregate(psnr::kApsnrNames[p], std::min(apsnr, max_apsnr)))
                return err;
        }
        return 0;
    }

private:
    bool chroma_, mse_, apsnr_, reduced_peak_;
    double min_sse_;
    unsigned bpc_ = 8, planes_ = 3;
    double peak_ = 255.0;
    std::array<double, 3> cap_{};
    // Sequence totals for apsnr (the extractor is temporal when it is on).
    std::array<uint64_t, 3> sse_total_{}, n_total_{};
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return std::make_unique<PsnrCpu>(o);
}

unsigned option_flags(const FeatureOptions &o)
{
    return o.flag("enable_apsnr") ? kExtractorTemporal : 0u;
}

}  // namespace

const ExtractorInfo kPsnrExtractor = {"psnr", kProvided, kOptions, 0, create, option_flags};

}  // namespace vmaf
