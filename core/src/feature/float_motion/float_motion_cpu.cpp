// SPDX-License-Identifier: BSD-2-Clause-Patent
// Float motion on the CPU: the mean absolute difference between consecutive
// blurred reference pictures. motion2 of a frame is the smaller of its own and
// the next frame's score, written once the next frame is in (the last frame's
// at flush); motion3 blends motion2 towards an offset.
#include "feature/float_motion/float_motion.h"

#include <array>
#include <cerrno>
#include <cmath>
#include <vector>

#include "feature/common/float_picture.h"
#include "feature/common/float_vif_filter.h"
#include "feature/common/float_vif_scale.h"
#include "feature/float_motion/float_motion_tables.h"
#include "util/log.h"

namespace vmaf {

namespace {

using namespace float_motion;
using float_vif::PlaneView;

constexpr OptionSpec kOptions[] = {
    {"debug", nullptr, OptType::Bool, 1, 0, 1, false, "also write motion (on by default)"},
    {"motion_force_zero", "force_0", OptType::Bool, 0, 0, 1, true, "force every motion score to zero"},
    {"motion_fps_weight", "mfw", OptType::Double, 1.0, 0.0, 5.0, true,
     "frame-rate correction factor applied to every score"},
    {"motion_blend_factor", "mbf", OptType::Double, 1.0, 0.0, 1.0, true,
     "blend motion3 towards min(score, offset) with this weight"},
    {"motion_blend_offset", "mbo", OptType::Double, 40.0, 0.0, 1000.0, true,
     "motion3 blending starts at this score"},
    {"motion_add_scale1", "mdc", OptType::Bool, 0, 0, 1, true,
     "add the score of the blurred pictures resized to half size"},
    {"motion_filter_size", "mfs", OptType::Int, kDefaultFilterSize, 0, 9, true,
     "blur: 1 = none, 3 = 3-tap, otherwise 5-tap"},
    {"motion_add_uv", "mau", OptType::Bool, 0, 0, 1, true, "add the scores of the Cb and Cr planes"},
    {"motion_max_val", "mmxv", OptType::Double, kDefaultMaxVal, 0.0, 10000.0, true,
     "clip scores to this value"},
};

constexpr const char *kProvided[] = {kMotionName, kMotion2Name, kMotion3Name};

constexpr FeatureAlias kAliases[] = {
    {kMotionName, "motion"},
    {kMotion2Name, "motion2"},
    {kMotion3Name, "motion3"},
};

// Mean absolute difference of two planes: per row in float (each step
// rounded from double, as libvmaf adds a double fabs to a float), rows summed
// in float, divided by the float sample count.
float mean_abs_diff(PlaneView a, PlaneView b)
{
    float acc = 0.0f;
    for (int y = 0; y < a.h; y++) {
        const float *ra = a.row(y), *rb = b.row(y);
        float line = 0.0f;
        for (int x = 0; x < a.w; x++) line = float(double(line) + std::fabs(double(ra[x] - rb[x])));
        acc += line;
    }
    return float(acc / float(a.w * a.h));
}

class FloatMotionCpu final : public Extractor {
public:
    explicit FloatMotionCpu(const FeatureOptions &o)
        : debug_(o.flag("debug")), force_zero_(o.flag("motion_force_zero")),
          add_scale1_(o.flag("motion_add_scale1")), add_uv_(o.flag("motion_add_uv")),
          filter_size_(int(o.number("motion_filter_size"))), fps_weight_(o.number("motion_fps_weight")),
          blend_factor_(o.number("motion_blend_factor")), blend_offset_(o.number("motion_blend_offset")),
          max_val_(o.number("motion_max_val")) {}

    int init(const FrameFormat &fmt) override
    {
        if (add_uv_ && fmt.pix_fmt == VMAF_PIX_FMT_YUV400P) {
            log(VMAF_LOG_LEVEL_ERROR, "float_motion: motion_add_uv needs chroma planes (the input is 4:0:0)\n");
            return -EINVAL;
        }
        if (add_scale1_ && int(fmt.w * kScale1Factor + 0.5) > kBilinearMaxWidth) {
            log(VMAF_LOG_LEVEL_ERROR, "float_motion: motion_add_scale1 supports widths up to %d\n",
                2 * kBilinearMaxWidth);
            return -EINVAL;
        }
        if (filter_size_ == 1) filter_ = {kFilter5Identity, 5};
        else if (filter_size_ == 3) filter_ = {kFilter3, 3};
        else filter_ = {kFilter5, 5};

        const bool ss_x = fmt.pix_fmt == VMAF_PIX_FMT_YUV420P || fmt.pix_fmt == VMAF_PIX_FMT_YUV422P;
        const bool ss_y = fmt.pix_fmt == VMAF_PIX_FMT_YUV420P;
        planes_ = add_uv_ ? 3 : 1;
        for (unsigned p = 0; p < planes_; p++) {
            w_[p] = int(p && ss_x ? (fmt.w + 1) >> 1 : fmt.w);
            h_[p] = int(p && ss_y ? (fmt.h + 1) >> 1 : fmt.h);
            // The mirrored taps reach radius samples past each edge.
            if (w_[p] <= filter_.taps / 2 || h_[p] <= filter_.taps / 2) {
                log(VMAF_LOG_LEVEL_ERROR, "float_motion: plane %u (%dx%d) is too small for the %d-tap blur\n",
                    p, w_[p], h_[p], filter_.taps);
                return -EINVAL;
            }
        }
        // Every plane uses the luma row layout, as libvmaf's buffers do.
        stride_ = padded_floats(fmt.w);
        const std::size_t size = std::size_t(stride_) * fmt.h;
        plane_.assign(size, 0.0f);
        row_.assign(fmt.w, 0.0f);
        for (auto &ring : blur_)
            for (unsigned p = 0; p < planes_; p++) ring[p].assign(size, 0.0f);
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &, unsigned index, ScoreSink &out) override
    {
        if (force_zero_) {
            if (int err = out.append(kMotion2Name, index, 0.0)) return err;
            if (int err = out.append(kMotion3Name, index, 0.0)) return err;
            return debug_ ? out.append(kMotionName, index, 0.0) : 0;
        }

        seen_ = true;
        last_index_ = index;
        const unsigned cur = index % 3, prev = (index + 2) % 3;
        for (unsigned p = 0; p < planes_; p++) {
            picture_to_float(ref, p, kPixelOffset, plane_.data(), stride_);
            float_vif::filter_plane(filter_.f, filter_.taps, view(plane_.data(), p), blur_[cur][p].data(), stride_,
                                    row_.data());
        }

        if (index == 0) {
            if (int err = out.append(kMotion2Name, index, 0.0)) return err;
            return debug_ ? out.append(kMotionName, index, 0.0) : 0;
        }

        double score = 0.0;
        for (unsigned p = 0; p < planes_; p++) score += plane_score(blur_[prev][p].data(), blur_[cur][p].data(), p);
        if (debug_)
            if (int err = out.append(kMotionName, index, clip(score * fps_weight_))) return err;
        const double prev_score = score_;
        score_ = score;

        if (index == 1) return out.append(kMotion3Name, 0, processed(score));

        // The previous frame's score is its difference with the one before,
        // which libvmaf recomputes here; the absolute differences are the same
        // either way round, so it is the stored score exactly.
        const double m2 = prev_score < score ? prev_score : score;
        if (int err = out.append(kMotion2Name, index - 1, clip(m2 * fps_weight_))) return err;
        return out.append(kMotion3Name, index - 1, processed(m2));
    }

    int flush(ScoreSink &out) override
    {
        if (force_zero_ || !seen_) return 0;
        if (last_index_ == 0) return out.append(kMotion3Name, 0, 0.0);
        if (int err = out.append(kMotion2Name, last_index_, clip(score_ * fps_weight_))) return err;
        return out.append(kMotion3Name, last_index_, processed(score_));
    }

private:
    struct Filter {
        const float *f;
        int taps;
    };

    PlaneView view(const float *data, unsigned p) const { return PlaneView{data, w_[p], h_[p], stride_}; }

    double clip(double v) const { return v < max_val_ ? v : max_val_; }
    double processed(double score) const { return clip(blend(score * fps_weight_, blend_factor_, blend_offset_)); }

    // One plane's score between two blurred pictures: the mean absolute
    // difference, plus with motion_add_scale1 that of both resized to half
    // size. The resize reads rows padded for this plane's own width, as
    // libvmaf does (for subsampled chroma that is not the layout the planes
    // were written with; the padding it then reads is zero here).
    double plane_score(const float *a, const float *b, unsigned p)
    {
        const PlaneView va = view(a, p), vb = view(b, p);
        const float s0 = mean_abs_diff(va, vb);
        if (!add_scale1_) return s0;
        const int w = w_[p], h = h_[p];
        const int sw = int(w * kScale1Factor + 0.5), sh = int(h * kScale1Factor + 0.5);
        const std::ptrdiff_t src_stride = padded_floats(unsigned(w));
        scaled_a_.resize(std::size_t(sw) * sh);
        scaled_b_.resize(std::size_t(sw) * sh);
        float_vif::scale_plane(float_vif::ScaleMethod::Bilinear, PlaneView{a, w, h, src_stride}, scaled_a_.data(),
                               sw, sh, sw);
        float_vif::scale_plane(float_vif::ScaleMethod::Bilinear, PlaneView{b, w, h, src_stride}, scaled_b_.data(),
                               sw, sh, sw);
        const float s1 = mean_abs_diff(PlaneView{scaled_a_.data(), sw, sh, sw}, PlaneView{scaled_b_.data(), sw, sh, sw});
        return s0 + s1;
    }

    bool debug_, force_zero_, add_scale1_, add_uv_;
    int filter_size_;
    double fps_weight_, blend_factor_, blend_offset_, max_val_;
    Filter filter_{kFilter5, 5};
    unsigned planes_ = 1;
    int w_[3] = {}, h_[3] = {};
    std::ptrdiff_t stride_ = 0;
    std::vector<float> plane_, row_, scaled_a_, scaled_b_;
    // Blurred reference planes of the last three frames, by index % 3.
    std::array<std::array<std::vector<float>, 3>, 3> blur_;
    bool seen_ = false;
    unsigned last_index_ = 0;
    double score_ = 0.0;
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return std::make_unique<FloatMotionCpu>(o);
}

}  // namespace

const ExtractorInfo kFloatMotionExtractor = {"float_motion", kProvided,      kOptions, kExtractorTemporal,
                                             create,         nullptr,        kAliases};

}  // namespace vmaf
