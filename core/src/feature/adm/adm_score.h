// SPDX-License-Identifier: BSD-2-Clause-Patent
// The finishing step of integer ADM, shared by the CPU extractor and its Vulkan
// twin.
//
// Per scale, both backends reduce their samples to the same integers: for each
// orientation, the reference energy and the two masked sums (DLM and AIM), each
// summed per band row, the row sum rounded and shifted, the shifted rows added
// (ScaleSums). The shifts are per row, so a row's sum has to be complete before
// it is shifted; the shifts themselves come from sum_shifts(). Everything after
// that (float conversions, cube roots, noise floors, the ratios of the outputs)
// is this file's, so both backends print the same numbers.
#pragma once

#include <cstdint>

#include "feature/adm/adm_csf.h"
#include "feature/adm/adm_kernels.h"
#include "feature/adm/adm_tables.h"
#include "feature/extractor.h"
#include "feature/options.h"

namespace vmaf::adm {

// Integer sums of one scale, per orientation (h, v, d), after the row shifts.
struct ScaleSums {
    uint64_t den[kOrientations] = {};  // reference energy, Σ|ref|³ in the scale's format
    int64_t num[kOrientations] = {};   // DLM: restored part masked by the additive one
    int64_t aim[kOrientations] = {};   // AIM: additive part masked by the restored one
};

// Where a scale's sums run and how its terms are shifted. Band size w x h.
struct SumShifts {
    Rect score;                   // the band minus 10 % on every side
    int den_row = 0;              // row sums of the reference energy: (Σ + round) >> den_row
    int den_square = 0;           // scales 1..3, per sample: (m² + 2^den_square) >> den_square
    int den_cube = 0;             // scales 1..3, per sample: (… · m + round) >> den_cube
    int num_row = 0;              // row sums of the masked cubes
    int num_cube[kOrientations] = {};  // masked cube, per sample and orientation
};

SumShifts sum_shifts(int w, int h, int scale);

// libvmaf's float numerator, denominator and AIM numerator of one scale.
struct ScaleScore {
    float num = 0.0f, den = 0.0f, aim = 0.0f;
};

// The reference energy of a scale as libvmaf's float denominator: per
// orientation the cube root of the CSF-weighted sum plus the noise floor.
float finish_den(const uint64_t (&den)[kOrientations], const SumShifts &shifts, int scale,
                 const ScaleWeights &weights, double noise_weight);
// A masked sum (DLM or AIM) as libvmaf's float numerator.
float finish_num(const int64_t (&num)[kOrientations], const SumShifts &shifts, int scale, double noise_weight);

// The options that shape the outputs (the option table is adm_cpu.cpp's; both
// backends read the parsed values through this).
struct Settings {
    bool debug = false;
    bool skip_scale0 = false;
    bool skip_aim = false;
    double gain_limit = kDefaultEnhnGainLimit;
    double noise_weight = kDefaultNoiseWeight;
    double dlm_weight = 0.5;
    double min_val = 0.0;
    ViewSetup view;
    kernels::EdgeBlocks edge = kernels::kEdgeAvx512;

    static Settings from(const FeatureOptions &o);
};

// libvmaf's placeholder for a skipped scale 0.
inline constexpr ScaleScore kSkippedScale{0.0f, 1e-10f, 0.0f};

// One scale's score from its integer sums (or the placeholder when skipped).
ScaleScore finish_scale(const ScaleSums &sums, const SumShifts &shifts, int scale, const ScaleWeights &weights,
                        const Settings &settings);

// Write one frame's outputs under the extractor's provided names; w x h is the
// picture (the noise limit scales with its area).
int write_scores(const ScaleScore (&s)[kScales], const Settings &settings, unsigned w, unsigned h, unsigned index,
                 ScoreSink &out);

// The extractor's provided names (adm_cpu.cpp lists them in its ExtractorInfo).
inline constexpr const char *kAdm2Name = "VMAF_integer_feature_adm2_score";
inline constexpr const char *kAimName = "VMAF_integer_feature_aim_score";
inline constexpr const char *kAdm3Name = "VMAF_integer_feature_adm3_score";
inline constexpr const char *kScaleNames[kScales] = {
    "VMAF_integer_feature_adm_scale0_score", "VMAF_integer_feature_adm_scale1_score",
    "VMAF_integer_feature_adm_scale2_score", "VMAF_integer_feature_adm_scale3_score"};
inline constexpr const char *kNumNames[kScales] = {"integer_adm_num_scale0", "integer_adm_num_scale1",
                                                   "integer_adm_num_scale2", "integer_adm_num_scale3"};
inline constexpr const char *kDenNames[kScales] = {"integer_adm_den_scale0", "integer_adm_den_scale1",
                                                   "integer_adm_den_scale2", "integer_adm_den_scale3"};

}  // namespace vmaf::adm
