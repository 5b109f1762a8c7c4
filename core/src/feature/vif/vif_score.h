// SPDX-License-Identifier: BSD-2-Clause-Patent
// The finishing step of integer VIF, shared by the CPU extractor and its Vulkan
// twin: four integer sums per scale become libvmaf's float numerator and
// denominator, then the outputs of one frame. Both backends reduce their pixels
// to the same exact integers and call this, so they print the same numbers.
#pragma once

#include <cstdint>

#include "feature/extractor.h"
#include "feature/options.h"
#include "feature/vif/vif_tables.h"

namespace vmaf::vif {

inline constexpr const char *kScaleNames[kScales] = {
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score"};
inline constexpr const char *kNumNames[kScales] = {"integer_vif_num_scale0", "integer_vif_num_scale1",
                                                   "integer_vif_num_scale2", "integer_vif_num_scale3"};
inline constexpr const char *kDenNames[kScales] = {"integer_vif_den_scale0", "integer_vif_den_scale1",
                                                   "integer_vif_den_scale2", "integer_vif_den_scale3"};

// Integer sums of one scale over its pixels. Every per-pixel term is an
// integer, so the sums do not depend on the order the pixels are visited in.
struct Sums {
    int64_t num_log = 0;  // Σ log2(numer2) - log2(numer1), Q11, where the gain term exists
    int64_t den_log = 0;  // Σ log2(σ1² + σn²) - log2(σn²), Q11, above the noise floor
    int64_t num_lin = 0;  // Σ σ2² (Q16) below the noise floor
    int64_t den_lin = 0;  // pixels below the noise floor
};

struct ScaleScore {
    float num = 0.0f, den = 0.0f;
};

// libvmaf's numerator and denominator of a scale, rounded to float.
inline ScaleScore finish(const Sums &s)
{
    const double num = double(s.num_log) / 2048.0 +
                       (double(s.den_lin) - (double(s.num_lin) / kLinDiv1) / kLinDiv2);
    const double den = double(s.den_log) / 2048.0 + double(s.den_lin);
    return {float(num), float(den)};
}

// The options that shape the outputs (the extractor's option table is in
// vif_cpu.cpp; both backends read the parsed values through this).
struct Settings {
    bool debug = false;
    bool skip_scale0 = false;
    double gain_limit = kDefaultEnhnGainLimit;

    static Settings from(const FeatureOptions &o);
};

// Write one frame's outputs under the extractor's provided names: the four
// scale scores, and with `debug` the combined and per-scale sums.
int write_scores(const ScaleScore (&s)[kScales], const Settings &settings, unsigned index, ScoreSink &out);

}  // namespace vmaf::vif
