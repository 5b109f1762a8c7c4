// SPDX-License-Identifier: BSD-2-Clause-Patent
// The float SSIM engine: SSIM's mean terms over one pair of planes, and the
// two decimations (float_ssim's box, MS-SSIM's low-pass halving), on the
// kernel build an instance picked.
#pragma once

#include <cerrno>
#include <cmath>
#include <vector>

#include "feature/extractor.h"
#include "feature/ssim/ssim.h"
#include "feature/ssim/ssim_kernel.h"
#include "feature/ssim/ssim_tables.h"
#include "util/log.h"

namespace vmaf::ssim {

// Mean SSIM, luminance, contrast and structure over a plane, each rounded
// to float as libvmaf returns them.
struct ScaleTerms {
    float ssim, l, c, s;
};

// The mean terms from the sums of the per-pixel terms over `count` pixels.
inline ScaleTerms mean_terms(double ssim_sum, double l_sum, double c_sum, double s_sum, double count)
{
    return {float(ssim_sum / count), float(l_sum / count), float(c_sum / count), float(s_sum / count)};
}

// MS-SSIM from the five scales' mean terms, with Wang's exponents in libvmaf's
// order. Returns false where the product becomes infinite (libvmaf's error).
inline bool ms_ssim_combine(const ScaleTerms *t, double *out)
{
    double msssim = 1.0;
    for (int i = 0; i < kScales; i++) {
        msssim *= std::pow(double(t[i].l), double(kAlpha[i])) * std::pow(double(t[i].c), double(kBeta[i])) *
                  std::pow(double(t[i].s), double(kGamma[i]));
        if (msssim == INFINITY) return false;
    }
    *out = msssim;
    return true;
}

// float_ssim's options and what they make of a frame format: the box
// downscaling factor (`scale`, or libvmaf's automatic one where it is 0), the
// size the window runs over, and the dB cap. The CPU extractor and its GPU
// twin alike.
struct FloatSsimSetup {
    bool lcs, db, clip;
    int scale;
    int factor = 1;  // after plan()
    int w = 0, h = 0;
    double cap = INFINITY;

    explicit FloatSsimSetup(const FeatureOptions &o)
        : lcs(o.flag("enable_lcs")), db(o.flag("enable_db")), clip(o.flag("clip_db")), scale(int(o.number("scale")))
    {
    }

    // -EINVAL, logged, where the downscaled picture is smaller than the window.
    int plan(const FrameFormat &fmt)
    {
        factor = scale > 0 ? scale : auto_scale(int(fmt.w), int(fmt.h));
        w = factor > 1 ? decimated_size(int(fmt.w), factor) : int(fmt.w);
        h = factor > 1 ? decimated_size(int(fmt.h), factor) : int(fmt.h);
        if (w < kWindow || h < kWindow) {
            log(VMAF_LOG_LEVEL_ERROR, "float_ssim: %ux%u downscaled by %d is %dx%d, smaller than the %dx%d window\n",
                fmt.w, fmt.h, factor, w, h, kWindow, kWindow);
            return -EINVAL;
        }
        cap = clip ? max_db(fmt.bpc, fmt.w, fmt.h) : INFINITY;
        return 0;
    }
};

// float_ssim's outputs of one frame (in dB, capped at `cap`, with `db`), for the
// CPU extractor and its GPU twin alike.
inline int write_ssim(ScoreSink &sink, unsigned index, const ScaleTerms &t, bool db, bool lcs, double cap)
{
    int err = sink.append("float_ssim", index, db ? to_db(t.ssim, cap) : double(t.ssim));
    if (lcs) {
        err |= sink.append("float_ssim_l", index, t.l);
        err |= sink.append("float_ssim_c", index, t.c);
        err |= sink.append("float_ssim_s", index, t.s);
    }
    return err;
}

// float_ms_ssim's outputs of one frame from its five scales' terms: -EINVAL
// where the product is infinite (libvmaf's error).
inline int write_ms_ssim(ScoreSink &sink, unsigned index, const ScaleTerms *t, bool db, bool lcs, double cap)
{
    static constexpr const char *kL[kScales] = {"float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1",
                                                "float_ms_ssim_l_scale2", "float_ms_ssim_l_scale3",
                                                "float_ms_ssim_l_scale4"};
    static constexpr const char *kC[kScales] = {"float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1",
                                                "float_ms_ssim_c_scale2", "float_ms_ssim_c_scale3",
                                                "float_ms_ssim_c_scale4"};
    static constexpr const char *kS[kScales] = {"float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1",
                                                "float_ms_ssim_s_scale2", "float_ms_ssim_s_scale3",
                                                "float_ms_ssim_s_scale4"};
    double score;
    if (!ms_ssim_combine(t, &score)) {
        log(VMAF_LOG_LEVEL_ERROR, "float_ms_ssim: infinite score at frame %u\n", index);
        return -EINVAL;
    }
    int err = sink.append("float_ms_ssim", index, db ? to_db(score, cap) : score);
    if (lcs) {
        for (int i = 0; i < kScales; i++) err |= sink.append(kL[i], index, t[i].l);
        for (int i = 0; i < kScales; i++) err |= sink.append(kC[i], index, t[i].c);
        for (int i = 0; i < kScales; i++) err |= sink.append(kS[i], index, t[i].s);
    }
    return err;
}

// One row of per-pixel terms: l * c * s, l, c, s.
struct TermRows {
    double *lcs, *l, *c, *s;
};

// The kernels of one instruction set, each over one row.
struct KernelSet {
    // Horizontal window pass over `n` outputs of a row of both planes: the
    // means of ref and cmp and the windowed ref^2, cmp^2 and ref * cmp.
    void (*horizontal)(const float *ref, const float *cmp, int n, float *const out[5]);
    // Vertical window pass over `n` columns of the five horizontal planes
    // (rows[p][k] is plane p's k-th row of the window) and the per-pixel terms.
    void (*vertical_terms)(const float *const (*rows)[kWindow], int n, const TermRows &out);
    // One output row of MS-SSIM's halving from the window's rows split into
    // even and odd samples (lpf_point).
    void (*lpf_half_row)(const float *const *even, const float *const *odd, int out_w, float *out);
};

class Engine {
public:
    explicit Engine(Kernels which);

    // SSIM over packed w x h planes (both sides at least kWindow).
    ScaleTerms ssim(const float *ref, const float *cmp, int w, int h);

    // MS-SSIM's step to the next scale: the 9x9 low-pass filter at every
    // second sample of every second row; `dst` gets decimated_size(w, 2) x
    // decimated_size(h, 2) samples.
    void lpf_half(const float *src, int w, int h, float *dst);

    // float_ssim's downscaling by `factor` through a factor x factor box.
    void box_decimate(const float *src, int w, int h, int factor, float *dst);

private:
    const KernelSet *k_;
    std::vector<float> ring_;    // 5 planes x kWindow rows of horizontal outputs
    std::vector<double> terms_;  // 4 rows of per-pixel terms
    std::vector<float> split_;   // the padded rows' even and odd samples
    std::vector<float> box_;     // float_ssim's box taps
};

}  // namespace vmaf::ssim
