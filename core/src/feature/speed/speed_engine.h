// SPDX-License-Identifier: BSD-2-Clause-Patent
// SpEED-QA's score of one pair of float planes (libvmaf's speed.c): each plane
// is optionally resampled, blurred and decimated by 16, a 3-tap local mean is
// subtracted, and on 5x5 blocks of the result a Gaussian scale mixture is
// fitted (covariance of the 25 block positions, its eigenvalues, a linear
// solve for each block's variance); the score is the mean over blocks of
// |entropy_ref * log2(1 + var_ref) - entropy_dis * log2(1 + var_dis)|.
#pragma once

#include <cstddef>
#include <vector>

#include "feature/common/float_vif_kernel.h"
#include "feature/common/float_vif_scale.h"
#include "feature/speed/speed_cov.h"
#include "feature/speed/speed_linalg.h"

namespace vmaf {
class FeatureOptions;
struct FrameFormat;
}

namespace vmaf::speed {

struct Params {
    double kernelscale = 1.0;
    double prescale = 1.0;
    float_vif::ScaleMethod prescale_method = float_vif::ScaleMethod::Nearest;
    double sigma_nn = 0.29;
    double nn_floor = 0.0;
    int weight_var_mode = 0;
};

// The Params of speed_chroma's (weight_mode) or speed_temporal's options
// (speed_cpu.cpp; speed_vk.cpp reads them the same way).
Params read_params(const FeatureOptions &o, bool weight_mode);

// The size of the chroma planes speed_chroma scores (the pictures' halved,
// rounding down); false for 4:0:0.
bool chroma_size(const FrameFormat &fmt, unsigned *w, unsigned *h);

// The sizes libvmaf derives from the plane and speed_prescale.
struct Dims {
    int w = 0, h = 0;                // the plane
    int scaled_w = 0, scaled_h = 0;  // after speed_prescale
    int dec_w = 0, dec_h = 0;        // after decimation by 16
    int blocks_x = 0, blocks_y = 0;  // whole 5x5 blocks
    int sub_w = 0, sub_h = 0;        // the window each covariance entry sums over
    int blocks() const { return blocks_x * blocks_y; }
    bool too_small() const { return blocks_x == 0 || blocks_y == 0; }
};

// Whether speed_prescale resamples (libvmaf skips it within 1e-3 of 1).
bool prescales(double prescale);

Dims speed_dims(int w, int h, double prescale);

// speed_chroma's uv score from the u and v planes' (score, singular): a
// plane whose covariance cannot be inverted (a flat plane, say) takes the
// other plane's score in the mean.
inline float chroma_uv(const float score[2], const bool singular[2])
{
    if (singular[0] && !singular[1]) return score[1];
    if (singular[1] && !singular[0]) return score[0];
    return float(double(score[0] + score[1]) / 2.0);
}

// speed_max_val: speed_chroma's scores clipped to it.
inline double clip_score(float v, double max_val)
{
    return double(v) < max_val ? double(v) : max_val;
}

class Engine {
public:
    // For planes of w x h. `feature` names the extractor and `planes` the
    // planes ("the luma planes") in log lines. Fails
    // with -EINVAL (and a logged reason) on an unsupported kernel scale or a
    // plane too small for one block after decimation.
    int init(int w, int h, const Params &p, const char *feature, const char *planes);

    const Dims &dims() const { return dims_; }
    // The anti-aliasing blur and the local mean (the GPU twin's taps).
    const float_vif::Kernel &antialias() const { return antialias_; }
    const float_vif::Kernel &local() const { return local_; }

    // The score of ref against dis (each w x h, rows of `stride` floats; not
    // modified). *singular is set when the covariance of either could not be
    // inverted; a side that cannot be inverted scores 0 against one that can.
    float score(const float *ref, const float *dis, std::ptrdiff_t stride, bool *singular);

    // One side as the GPU twin (speed_vk.cpp) hands it over: the prepared
    // plane (dec_w x dec_h, packed: blurred, decimated, local mean removed)
    // and the lower triangle of its covariance, entry (xi, yi <= xi) at
    // xi * (xi + 1) / 2 + yi (each covariance_entry() of its sum).
    struct Prepared {
        const float *dec;
        const float *cov;
    };
    // score() from prepared sides: the same fit and comparison.
    float score(const Prepared &ref, const Prepared &dis, bool *singular);

    // A covariance entry from its window sum (both backends).
    float covariance_entry(double sum) const
    {
        return float(sum / double(std::size_t(dims_.sub_w) * std::size_t(dims_.sub_h)));
    }

private:
    struct Stats {
        std::vector<float> entropy, variance;
    };

    // Resample, blur, decimate and remove the local mean into dec_.
    void prepare(const float *src, std::ptrdiff_t stride);
    // Fit the block statistics of dec_ (covariance, then fit); false if the
    // covariance is singular.
    bool estimate(Stats &out);
    // The window means and the covariance of dec_ into cov_.
    void covariance();
    // The eigenvalues and block statistics from dec_ and cov_.
    bool fit(Stats &out);
    float finish(bool ok_ref, bool ok_dis, bool *singular) const;
    float compare() const;

    Params p_;
    Dims dims_;
    const char *feature_ = "";
    CovSumFn cov_sum_ = nullptr;
    float_vif::Kernel antialias_, local_;
    std::vector<float> scaled_, row_, dec_, blur_;
    std::vector<float> means_, cov_, eig_, y_, x_;
    LinearSolver solver_;
    Stats ref_, dis_;
    bool warned_singular_ = false, warned_iterations_ = false;
};

}  // namespace vmaf::speed
