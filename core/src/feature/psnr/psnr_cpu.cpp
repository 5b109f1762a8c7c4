// SPDX-License-Identifier: BSD-2-Clause-Patent
// PSNR on the CPU: exact integer SSE per plane, then libvmaf's peak and cap rules.
#include "feature/psnr/psnr.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <type_traits>

#include "feature/psnr/psnr_tables.h"
#include "picture/picture.h"
#include "util/simd.h"

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

// Sum of squared errors of plane p. 8-bit errors are summed in 32 bits per run
// of up to 66051 samples (255^2 * 66051 < 2^32); 16-bit storage in 64 bits, as
// its samples may hold any value.
template <typename T>
VMAF_INLINE uint64_t plane_sse(const VmafPicture &a, const VmafPicture &b, unsigned p)
{
    constexpr unsigned kRun = std::is_same_v<T, uint8_t> ? 66051 : 0;
    uint64_t sse = 0;
    for (unsigned y = 0; y < a.h[p]; y++) {
        const T *ra = reinterpret_cast<const T *>(static_cast<const uint8_t *>(a.data[p]) + y * a.stride[p]);
        const T *rb = reinterpret_cast<const T *>(static_cast<const uint8_t *>(b.data[p]) + y * b.stride[p]);
        if constexpr (kRun != 0) {
            for (unsigned x0 = 0; x0 < a.w[p]; x0 += kRun) {
                const unsigned x1 = std::min(a.w[p], x0 + kRun);
                uint32_t run = 0;
                for (unsigned x = x0; x < x1; x++) {
                    const int32_t e = int32_t(ra[x]) - int32_t(rb[x]);
                    run += uint32_t(e * e);
                }
                sse += run;
            }
        } else {
            for (unsigned x = 0; x < a.w[p]; x++) {
                const int64_t e = int64_t(ra[x]) - int64_t(rb[x]);
                sse += uint64_t(e * e);
            }
        }
    }
    return sse;
}

using SseFn = uint64_t (*)(const VmafPicture &, const VmafPicture &, unsigned);

template <typename T>
uint64_t sse_generic(const VmafPicture &a, const VmafPicture &b, unsigned p)
{
    return plane_sse<T>(a, b, p);
}

#if VMAF_X86
template <typename T>
__attribute__((target("avx2"))) uint64_t sse_avx2(const VmafPicture &a, const VmafPicture &b, unsigned p)
{
    return plane_sse<T>(a, b, p);
}

template <typename T>
__attribute__((target(VMAF_TARGET_AVX512))) uint64_t sse_avx512(const VmafPicture &a, const VmafPicture &b,
                                                                unsigned p)
{
    return plane_sse<T>(a, b, p);
}
#endif

// The kernel for these samples on this CPU.
template <typename T>
SseFn pick_sse()
{
#if VMAF_X86
    if (cpu_has_avx512()) return sse_avx512<T>;
    if (cpu_has_avx2()) return sse_avx2<T>;
#endif
    return sse_generic<T>;
}

class PsnrCpu final : public Extractor {
public:
    explicit PsnrCpu(const FeatureOptions &o)
        : chroma_(o.flag("enable_chroma")), mse_(o.flag("enable_mse")),
          apsnr_(o.flag("enable_apsnr")), reduced_peak_(o.flag("reduced_hbd_peak")),
          min_sse_(o.number("min_sse")) {}

    int init(const FrameFormat &fmt) override
    {
        sse_ = fmt.bpc == 8 ? pick_sse<uint8_t>() : pick_sse<uint16_t>();
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
            const uint64_t sse = sse_(ref, dist, p);
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
    SseFn sse_ = nullptr;
    unsigned planes_ = 3;
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
