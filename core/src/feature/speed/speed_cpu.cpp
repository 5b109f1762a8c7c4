// SPDX-License-Identifier: BSD-2-Clause-Patent
// SpEED-QA on the CPU: speed_chroma scores the Cb and Cr planes of each frame
// pair; speed_temporal scores the frame-to-frame differences of the luma
// planes (previous minus current, of the reference and of the distorted).
#include "feature/speed/speed.h"

#include <cerrno>
#include <cstdio>
#include <vector>

#include "feature/common/float_picture.h"
#include "feature/speed/speed_engine.h"
#include "feature/speed/speed_tables.h"
#include "util/log.h"

namespace vmaf {

namespace speed {

// The options of either extractor (speed_engine.h).
Params read_params(const FeatureOptions &o, bool weight_mode)
{
    Params p;
    p.kernelscale = o.number("speed_kernelscale");
    p.prescale = o.number("speed_prescale");
    float_vif::parse_scale_method(o.text("speed_prescale_method"), &p.prescale_method);
    p.sigma_nn = o.number("speed_sigma_nn");
    p.nn_floor = o.number("speed_nn_floor");
    p.weight_var_mode = weight_mode ? int(o.number("speed_weight_var_mode")) : 0;
    return p;
}

bool chroma_size(const FrameFormat &fmt, unsigned *w, unsigned *h)
{
    // The plane size libvmaf works on: luma halved, rounding down.
    *w = fmt.w;
    *h = fmt.h;
    switch (fmt.pix_fmt) {
    case VMAF_PIX_FMT_YUV420P:
        *w /= 2;
        *h /= 2;
        return true;
    case VMAF_PIX_FMT_YUV422P: *w /= 2; return true;
    case VMAF_PIX_FMT_YUV444P: return true;
    default: return false;
    }
}

}  // namespace speed

namespace {

using namespace speed;

// The options both extractors share, in libvmaf's order; speed_chroma adds
// speed_weight_var_mode, speed_temporal speed_use_ref_diff.
#define SPEED_COMMON_OPTIONS                                                                                     \
    {"speed_kernelscale", "ks", OptType::Double, kDefaultKernelScale, 0.1, 4.0, true,                           \
     "scale of the Gaussian kernels (2.0 doubles their sigma and size); one of the kernel scales float_vif "    \
     "accepts"},                                                                                                 \
        {"speed_prescale", "ps", OptType::Double, kDefaultPrescale, 0.1, 4.0, true,                             \
         "resize the planes by this factor first (2.0 doubles each dimension)"},                                \
        {"speed_prescale_method", "psm", OptType::String, 0, 0, 0, true,                                        \
         "resampling of speed_prescale: nearest, bilinear, bicubic or lanczos4", kDefaultPrescaleMethod,        \
         kPrescaleMethods},                                                                                      \
        {"speed_sigma_nn", "snn", OptType::Double, kDefaultSigmaNn, 0.1, 2.0, true,                             \
         "standard deviation of the neural noise"},                                                             \
        {"speed_nn_floor", "nnf", OptType::Double, kDefaultNnFloor, 0.0, 1.0, true,                             \
         "neural noise floor, as a fraction of speed_sigma_nn"},                                                \
        {"speed_max_val", "mxv", OptType::Double, kDefaultMaxVal, 0.0, 1000.0, true,                            \
         "clip scores to this value (speed_chroma only; speed_temporal accepts it and, as libvmaf, ignores it)"}

constexpr OptionSpec kChromaOptions[] = {
    SPEED_COMMON_OPTIONS,
    {"speed_weight_var_mode", "wvm", OptType::Int, 0, 0, kWeightVarModes - 1, true,
     "variance weighting: 0 each side its own, 1 the reference's, 2 the distorted's, 3 their mean, 4-6 the "
     "reference its own and the distorted the mean, 3:1, 1:3"},
};

constexpr OptionSpec kTemporalOptions[] = {
    SPEED_COMMON_OPTIONS,
    {"speed_use_ref_diff", "urd", OptType::Bool, 0, 0, 1, true,
     "score the distorted's difference as previous distorted minus current reference"},
};

#undef SPEED_COMMON_OPTIONS

constexpr const char *kChromaProvided[] = {kChromaUName, kChromaVName, kChromaUvName};
constexpr const char *kTemporalProvided[] = {kTemporalName};

constexpr FeatureAlias kChromaAliases[] = {
    {kChromaUName, "speed_chroma_u"},
    {kChromaVName, "speed_chroma_v"},
    {kChromaUvName, "speed_chroma_uv"},
};
constexpr FeatureAlias kTemporalAliases[] = {{kTemporalName, "speed_temporal"}};

// A float plane buffer of h rows of `stride` floats.
struct Plane {
    std::ptrdiff_t stride = 0;
    std::vector<float> data;
    void alloc(unsigned w, unsigned h)
    {
        stride = std::ptrdiff_t(w);
        data.assign(std::size_t(w) * h, 0.0f);
    }
    void load(const VmafPicture &pic, unsigned p) { picture_to_float(pic, p, kPixelOffset, data.data(), stride); }
};

class SpeedChromaCpu final : public Extractor {
public:
    explicit SpeedChromaCpu(const FeatureOptions &o) : p_(read_params(o, true)), max_val_(o.number("speed_max_val")) {}

    int init(const FrameFormat &fmt) override
    {
        unsigned w, h;
        if (!chroma_size(fmt, &w, &h)) {
            log(VMAF_LOG_LEVEL_ERROR, "speed_chroma: needs Cb and Cr planes (the input is 4:0:0)\n");
            return -EINVAL;
        }
        char what[96];
        std::snprintf(what, sizeof what, "the chroma planes of %ux%u pictures", fmt.w, fmt.h);
        if (int err = engine_.init(int(w), int(h), p_, "speed_chroma", what)) return err;
        // The pictures' chroma planes round up; they are read whole.
        const unsigned pw = fmt.pix_fmt == VMAF_PIX_FMT_YUV444P ? fmt.w : (fmt.w + 1) / 2;
        const unsigned ph = fmt.pix_fmt == VMAF_PIX_FMT_YUV420P ? (fmt.h + 1) / 2 : fmt.h;
        ref_.alloc(pw, ph);
        dis_.alloc(pw, ph);
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        float score[2];
        bool singular[2];
        for (unsigned c = 0; c < 2; c++) {
            ref_.load(ref, c + 1);
            dis_.load(dist, c + 1);
            score[c] = engine_.score(ref_.data.data(), dis_.data.data(), ref_.stride, &singular[c]);
        }
        const float uv = chroma_uv(score, singular);
        if (int err = out.append(kChromaUName, index, clip_score(score[0], max_val_))) return err;
        if (int err = out.append(kChromaVName, index, clip_score(score[1], max_val_))) return err;
        return out.append(kChromaUvName, index, clip_score(uv, max_val_));
    }

private:

    Params p_;
    double max_val_;
    Engine engine_;
    Plane ref_, dis_;
};

class SpeedTemporalCpu final : public Extractor {
public:
    explicit SpeedTemporalCpu(const FeatureOptions &o)
        : p_(read_params(o, false)), use_ref_diff_(o.flag("speed_use_ref_diff")) {}

    int init(const FrameFormat &fmt) override
    {
        if (int err = engine_.init(int(fmt.w), int(fmt.h), p_, "speed_temporal", "the luma planes")) return err;
        for (Plane *pl : {&ref_[0], &ref_[1], &dis_[0], &dis_[1], &diff_ref_, &diff_dis_}) pl->alloc(fmt.w, fmt.h);
        n_ = std::size_t(fmt.w) * fmt.h;
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        const unsigned cur = cur_ ^ 1u;
        ref_[cur].load(ref, 0);
        dis_[cur].load(dist, 0);
        const bool first = !have_prev_;
        have_prev_ = true;
        cur_ = cur;
        if (first) return out.append(kTemporalName, index, 0.0);

        // Previous minus current; with speed_use_ref_diff the distorted side is
        // the previous distorted minus the current reference.
        const unsigned prev = cur ^ 1u;
        const float *pr = ref_[prev].data.data(), *cr = ref_[cur].data.data();
        const float *pd = dis_[prev].data.data(), *cd = use_ref_diff_ ? cr : dis_[cur].data.data();
        float *dr = diff_ref_.data.data(), *dd = diff_dis_.data.data();
        for (std::size_t i = 0; i < n_; i++) {
            dr[i] = pr[i] - cr[i];
            dd[i] = pd[i] - cd[i];
        }
        bool singular;
        const float score = engine_.score(dr, dd, diff_ref_.stride, &singular);
        return out.append(kTemporalName, index, double(score));
    }

private:
    Params p_;
    bool use_ref_diff_;
    Engine engine_;
    Plane ref_[2], dis_[2], diff_ref_, diff_dis_;
    std::size_t n_ = 0;
    unsigned cur_ = 1;
    bool have_prev_ = false;
};

std::unique_ptr<Extractor> create_chroma(const FeatureOptions &o)
{
    return std::make_unique<SpeedChromaCpu>(o);
}

std::unique_ptr<Extractor> create_temporal(const FeatureOptions &o)
{
    return std::make_unique<SpeedTemporalCpu>(o);
}

}  // namespace

const ExtractorInfo kSpeedChromaExtractor = {"speed_chroma",  kChromaProvided, kChromaOptions, 0,
                                             create_chroma,   nullptr,         kChromaAliases};

const ExtractorInfo kSpeedTemporalExtractor = {"speed_temporal", kTemporalProvided, kTemporalOptions,
                                               kExtractorTemporal, create_temporal, nullptr, kTemporalAliases};

}  // namespace vmaf
