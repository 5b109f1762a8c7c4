// SPDX-License-Identifier: BSD-2-Clause-Patent
// Float VIF over the four scales (libvmaf's compute_vif in vif.c).
#pragma once

#include <array>
#include <vector>

#include "feature/common/float_vif_filter.h"

namespace vmaf::float_vif {

struct Settings {
    double gain_limit = kDefaultGainLimit;
    double kernelscale = kDefaultKernelScale;
    double sigma_nsq = kDefaultSigmaNsq;
    bool skip_scale0 = false;
};

// Per-scale float sums of the numerator and denominator terms (as doubles,
// the way libvmaf hands them on). Skipped scales stay 0.
struct Sums {
    std::array<double, kScales> num{}, den{};
};

// The plane sizes of every scale for a scale-0 size (each halves, rounding down).
struct ScaleSizes {
    std::array<int, kScales> w{}, h{};
};
ScaleSizes scale_sizes(int w, int h);

// Whether every scale's filter window fits its plane (the mirrored taps stay
// inside); libvmaf reads outside the plane otherwise.
bool fits(int w, int h, float kernelscale, int first_scale);

class Scorer {
public:
    void init(int w, int h, const Settings &s);
    // ref and dis: scale-0 planes of the size given to init().
    Sums score(PlaneView ref, PlaneView dis);

private:
    // Sums of one scale: filter means, squares and product row by row and
    // accumulate the statistic in float, per row and then over rows.
    void scale_sums(const Kernel &k, PlaneView ref, PlaneView dis, float *num, float *den);

    Settings settings_;
    StatParams params_{};
    std::array<Kernel, kScales> kernels_{};
    ScaleSizes sizes_{};
    // Decimated planes, ping-ponged between scales.
    std::vector<float> ref_a_, dis_a_, ref_b_, dis_b_;
    // Vertical pass rows and filtered rows: mu1, mu2, xx, yy, xy.
    std::array<std::vector<float>, 5> vrow_, hrow_;
    std::vector<float> scratch_;
};

}  // namespace vmaf::float_vif
