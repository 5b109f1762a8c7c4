// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_ssim on the CPU: libvmaf's float_ssim.c and ssim.c. The luma planes
// on the 8-bit float scale, optionally box-downscaled (scale, or by the
// frame size), then mean SSIM over the 11x11 Gaussian window.
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
     "also write the mean luminance, contrast and structure terms (float_ssim_l, _c, _s)"},
    {"enable_db", nullptr, OptType::Bool, 0, 0, 1, false, "write the score as -10 log10(1 - SSIM) dB"},
    {"clip_db", nullptr, OptType::Bool, 0, 0, 1, false,
     "cap dB scores at the frame size's bound (with enable_db)"},
    {"scale", nullptr, OptType::Int, 0, 0, ssim::kMaxScaleFactor, false,
     "downscaling factor: 0 picks one from the frame size, 1 keeps full size"},
};

constexpr const char *kProvided[] = {"float_ssim"};

class FloatSsimCpu final : public Extractor {
public:
    FloatSsimCpu(const FeatureOptions &o, ssim::Kernels which) : engine_(which), setup_(o) {}

    int init(const FrameFormat &fmt) override
    {
        if (int err = setup_.plan(fmt)) return err;
        if (setup_.factor > 1) {
            small_ref_.resize(std::size_t(setup_.w) * setup_.h);
            small_dist_.resize(std::size_t(setup_.w) * setup_.h);
        }
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        ref_.assign(ref, 0, 0.0f);
        dist_.assign(dist, 0, 0.0f);
        int w = int(ref_.w), h = int(ref_.h);
        const float *r = ref_.data.data(), *d = dist_.data.data();
        if (setup_.factor > 1) {
            engine_.box_decimate(r, w, h, setup_.factor, small_ref_.data());
            engine_.box_decimate(d, w, h, setup_.factor, small_dist_.data());
            r = small_ref_.data(), d = small_dist_.data();
            w = setup_.w, h = setup_.h;
        }
        return ssim::write_ssim(out, index, engine_.ssim(r, d, w, h), setup_.db, setup_.lcs, setup_.cap);
    }

private:
    ssim::Engine engine_;
    ssim::FloatSsimSetup setup_;
    FloatPlane ref_, dist_;
    std::vector<float> small_ref_, small_dist_;
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return std::make_unique<FloatSsimCpu>(o, ssim::Kernels::Best);
}

}  // namespace

std::unique_ptr<Extractor> ssim::create_ssim_cpu(const FeatureOptions &opts, Kernels which)
{
    return std::make_unique<FloatSsimCpu>(opts, which);
}

const ExtractorInfo kFloatSsimExtractor = {"float_ssim", kProvided, kOptions, 0, create};

}  // namespace vmaf
