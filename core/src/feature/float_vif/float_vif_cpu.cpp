// SPDX-License-Identifier: BSD-2-Clause-Patent
// Float VIF on the CPU: luma as (sample - 128) floats, optional prescaling,
// then the four-scale statistic of vif.c.
#include "feature/float_vif/float_vif.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>

#include "feature/common/float_picture.h"
#include "feature/common/float_vif_scale.h"
#include "feature/float_vif/float_vif_score.h"
#include "util/log.h"

namespace vmaf {

namespace {

using namespace float_vif;

constexpr OptionSpec kOptions[] = {
    {"debug", nullptr, OptType::Bool, 0, 0, 1, false,
     "also write vif, vif_num, vif_den and each scale's vif_num_scaleN / vif_den_scaleN"},
    {"vif_enhn_gain_limit", "egl", OptType::Double, kDefaultGainLimit, 1.0, kDefaultGainLimit, true,
     "enhancement gain limit (1.0 disables any gain)"},
    {"vif_kernelscale", "ks", OptType::Double, kDefaultKernelScale, 0.1, 4.0, true,
     "scale of the Gaussian kernels (one of libvmaf's 21 accepted values)"},
    {"vif_prescale", "ps", OptType::Double, kDefaultPrescale, 0.1, 4.0, true,
     "resize the pictures by this factor before scoring"},
    {"vif_scale1_min_val", "s1miv", OptType::Double, 0.0, 0.0, 1.0, true, "floor of vif_scale1"},
    {"vif_scale2_min_val", "s2miv", OptType::Double, 0.0, 0.0, 1.0, true, "floor of vif_scale2"},
    {"vif_scale3_min_val", "s3miv", OptType::Double, 0.0, 0.0, 1.0, true, "floor of vif_scale3"},
    {"vif_prescale_method", "pm", OptType::String, 0, 0, 0, true,
     "resampling of vif_prescale: nearest, bilinear, bicubic or lanczos4", "nearest",
     "nearest|bilinear|bicubic|lanczos4"},
    {"vif_sigma_nsq", "snsq", OptType::Double, kDefaultSigmaNsq, 0.0, 5.0, true, "neural noise variance"},
    {"vif_skip_scale0", "ssclz", OptType::Bool, 0, 0, 1, true, "skip scale 0 (vif_scale0 is written as 0)"},
};

constexpr const char *kScaleNames[kScales] = {
    "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score", "VMAF_feature_vif_scale2_score",
    "VMAF_feature_vif_scale3_score"};
constexpr const char *kNumNames[kScales] = {"vif_num_scale0", "vif_num_scale1", "vif_num_scale2",
                                            "vif_num_scale3"};
constexpr const char *kDenNames[kScales] = {"vif_den_scale0", "vif_den_scale1", "vif_den_scale2",
                                            "vif_den_scale3"};

constexpr const char *kProvided[] = {
    kScaleNames[0], kScaleNames[1], kScaleNames[2], kScaleNames[3], "vif",       "vif_num",
    "vif_den",      kNumNames[0],   kDenNames[0],   kNumNames[1],   kDenNames[1], kNumNames[2],
    kDenNames[2],   kNumNames[3],   kDenNames[3]};

constexpr FeatureAlias kAliases[] = {
    {kScaleNames[0], "vif_scale0"},
    {kScaleNames[1], "vif_scale1"},
    {kScaleNames[2], "vif_scale2"},
    {kScaleNames[3], "vif_scale3"},
};

class FloatVifCpu final : public Extractor {
public:
    explicit FloatVifCpu(const FeatureOptions &o)
        : debug_(o.flag("debug")), prescale_(o.number("vif_prescale")), method_name_(o.text("vif_prescale_method"))
    {
        settings_.gain_limit = o.number("vif_enhn_gain_limit");
        settings_.kernelscale = o.number("vif_kernelscale");
        settings_.sigma_nsq = o.number("vif_sigma_nsq");
        settings_.skip_scale0 = o.flag("vif_skip_scale0");
        min_val_[1] = o.number("vif_scale1_min_val");
        min_val_[2] = o.number("vif_scale2_min_val");
        min_val_[3] = o.number("vif_scale3_min_val");
    }

    int init(const FrameFormat &fmt) override
    {
        if (!parse_scale_method(method_name_, &method_)) {
            log(VMAF_LOG_LEVEL_ERROR, "float_vif: vif_prescale_method \"%s\" is not one of nearest, "
                                      "bilinear, bicubic, lanczos4\n", method_name_.c_str());
            return -EINVAL;
        }
        if (!valid_kernel_scale(float(settings_.kernelscale))) {
            log(VMAF_LOG_LEVEL_ERROR, "float_vif: vif_kernelscale %g is not one of the accepted kernel "
                                      "scales\n", settings_.kernelscale);
            return -EINVAL;
        }
        w_ = int(fmt.w);
        h_ = int(fmt.h);
        sw_ = int(fmt.w * prescale_ + 0.5);
        sh_ = int(fmt.h * prescale_ + 0.5);
        if (method_ == ScaleMethod::Bilinear && sw_ > kBilinearMaxWidth) {
            log(VMAF_LOG_LEVEL_ERROR, "float_vif: vif_prescale %g with bilinear gives width %d, over %d\n",
                prescale_, sw_, kBilinearMaxWidth);
            return -EINVAL;
        }
        if (!fits(sw_, sh_, float(settings_.kernelscale), settings_.skip_scale0 ? 1 : 0)) {
            log(VMAF_LOG_LEVEL_ERROR, "float_vif: a %dx%d picture is too small for the scale-3 filter "
                                      "(vif_kernelscale %g)\n", sw_, sh_, settings_.kernelscale);
            return -EINVAL;
        }
        const bool rescale = sw_ != w_ || sh_ != h_;
        ref_.assign(std::size_t(w_) * h_, 0.0f);
        dis_.assign(std::size_t(w_) * h_, 0.0f);
        if (rescale) {
            ref_scaled_.assign(std::size_t(sw_) * sh_, 0.0f);
            dis_scaled_.assign(std::size_t(sw_) * sh_, 0.0f);
        }
        scorer_.init(sw_, sh_, settings_);
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        picture_to_float(ref, 0, kPixelOffset, ref_.data(), w_);
        picture_to_float(dist, 0, kPixelOffset, dis_.data(), w_);
        PlaneView r{ref_.data(), w_, h_, w_}, d{dis_.data(), w_, h_, w_};
        if (!ref_scaled_.empty()) {
            scale_plane(method_, r, ref_scaled_.data(), sw_, sh_, sw_);
            scale_plane(method_, d, dis_scaled_.data(), sw_, sh_, sw_);
            r = PlaneView{ref_scaled_.data(), sw_, sh_, sw_};
            d = PlaneView{dis_scaled_.data(), sw_, sh_, sw_};
        }
        const Sums s = scorer_.score(r, d);

        // Scale 0 is written as 0 when skipped; the others are floored.
        const double s0 = settings_.skip_scale0 ? 0.0 : s.num[0] / s.den[0];
        if (int err = out.append(kScaleNames[0], index, s0)) return err;
        for (int i = 1; i < kScales; i++) {
            const double v = s.num[i] / s.den[i];
            if (int err = out.append(kScaleNames[i], index, v > min_val_[i] ? v : min_val_[i])) return err;
        }
        if (!debug_) return 0;

        double num = 0.0, den = 0.0;
        for (int i = settings_.skip_scale0 ? 1 : 0; i < kScales; i++) {
            num += s.num[i];
            den += s.den[i];
        }
        const double vif = den == 0.0 ? 1.0 : num / den;
        if (int err = out.append("vif", index, vif)) return err;
        if (int err = out.append("vif_num", index, num)) return err;
        if (int err = out.append("vif_den", index, den)) return err;
        for (int i = 0; i < kScales; i++) {
            const bool skipped = i == 0 && settings_.skip_scale0;
            if (int err = out.append(kNumNames[i], index, skipped ? 0.0 : s.num[i])) return err;
            if (int err = out.append(kDenNames[i], index, skipped ? -1.0 : s.den[i])) return err;
        }
        return 0;
    }

private:
    bool debug_;
    double prescale_;
    std::string method_name_;
    ScaleMethod method_ = ScaleMethod::Nearest;
    Settings settings_;
    double min_val_[kScales] = {};
    int w_ = 0, h_ = 0, sw_ = 0, sh_ = 0;
    std::vector<float> ref_, dis_, ref_scaled_, dis_scaled_;
    Scorer scorer_;
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return std::make_unique<FloatVifCpu>(o);
}

}  // namespace

const ExtractorInfo kFloatVifExtractor = {"float_vif", kProvided, kOptions, 0, create, nullptr, kAliases};

}  // namespace vmaf
