// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_ms_ssim on the CPU: libvmaf's float_ms_ssim.c and ms_ssim.c. Five
// scales of the luma planes (each halved through the 9x9 low-pass filter),
// SSIM's mean terms at each, combined with Wang's exponents.
#include <array>
#include <cerrno>
#include <cmath>

#include "feature/common/float_picture.h"
#include "feature/ssim/ssim.h"
#include "feature/ssim/ssim_engine.h"
#include "feature/ssim/ssim_kernel.h"
#include "util/log.h"

namespace vmaf {

namespace {

constexpr OptionSpec kOptions[] = {
    {"enable_lcs", nullptr, OptType::Bool, 0, 0, 1, false,
     "also write each scale's mean luminance, contrast and structure terms"},
    {"enable_db", nullptr, OptType::Bool, 0, 0, 1, false, "write the score as -10 log10(1 - MS-SSIM) dB"},
    {"clip_db", nullptr, OptType::Bool, 0, 0, 1, false,
     "cap dB scores at the frame size's bound (with enable_db)"},
};

constexpr const char *kProvided[] = {"float_ms_ssim"};

class FloatMsSsimCpu final : public Extractor {
public:
    FloatMsSsimCpu(const FeatureOptions &o, ssim::Kernels which)
        : engine_(which), lcs_(o.flag("enable_lcs")), db_(o.flag("enable_db")), clip_(o.flag("clip_db"))
    {
    }

    int init(const FrameFormat &fmt) override
    {
        // libvmaf fails every frame of a smaller picture and writes nothing;
        // here the frames pass without a score, after one warning.
        if (fmt.w < ssim::kMsSsimMinSide || fmt.h < ssim::kMsSsimMinSide) {
            log(VMAF_LOG_LEVEL_WARNING,
                "float_ms_ssim: %ux%u is below the %ux%u minimum of five scales; no float_ms_ssim scores\n",
                fmt.w, fmt.h, ssim::kMsSsimMinSide, ssim::kMsSsimMinSide);
            skip_ = true;
            return 0;
        }
        cap_ = clip_ ? ssim::max_db(fmt.bpc, fmt.w, fmt.h) : INFINITY;
        int w = int(fmt.w), h = int(fmt.h);
        for (int i = 0; i < ssim::kScales; i++) {
            w_[i] = w, h_[i] = h;
            if (i) {
                ref_[i].resize(std::size_t(w) * h);
                dist_[i].resize(std::size_t(w) * h);
            }
            w = ssim::decimated_size(w, 2), h = ssim::decimated_size(h, 2);
        }
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        if (skip_) return 0;
        full_ref_.assign(ref, 0, 0.0f);
        full_dist_.assign(dist, 0, 0.0f);
        const float *r[ssim::kScales] = {full_ref_.data.data()}, *d[ssim::kScales] = {full_dist_.data.data()};
        for (int i = 1; i < ssim::kScales; i++) {
            engine_.lpf_half(r[i - 1], w_[i - 1], h_[i - 1], ref_[i].data());
            engine_.lpf_half(d[i - 1], w_[i - 1], h_[i - 1], dist_[i].data());
            r[i] = ref_[i].data(), d[i] = dist_[i].data();
        }
        std::array<ssim::ScaleTerms, ssim::kScales> t;
        for (int i = 0; i < ssim::kScales; i++) t[i] = engine_.ssim(r[i], d[i], w_[i], h_[i]);
        return ssim::write_ms_ssim(out, index, t.data(), db_, lcs_, cap_);
    }

private:
    ssim::Engine engine_;
    bool lcs_, db_, clip_;
    bool skip_ = false;
    double cap_ = INFINITY;
    int w_[ssim::kScales] = {}, h_[ssim::kScales] = {};
    FloatPlane full_ref_, full_dist_;
    std::vector<float> ref_[ssim::kScales], dist_[ssim::kScales];
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return std::make_unique<FloatMsSsimCpu>(o, ssim::Kernels::Best);
}

}  // namespace

std::unique_ptr<Extractor> ssim::create_ms_ssim_cpu(const FeatureOptions &opts, Kernels which)
{
    return std::make_unique<FloatMsSsimCpu>(opts, which);
}

const ExtractorInfo kFloatMsSsimExtractor = {"float_ms_ssim", kProvided, kOptions, 0, create};

}  // namespace vmaf
