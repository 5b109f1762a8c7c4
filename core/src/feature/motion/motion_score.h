// SPDX-License-Identifier: BSD-2-Clause-Patent
// The scoring of integer motion, shared by the CPU extractor and its Vulkan
// twin: both reduce a frame to the same exact SAD, and this turns SADs into
// every output (the per-frame SAD score, then motion2 and motion3 at flush), so
// the two backends print the same numbers by the same code.
#pragma once

#include <cstdint>

#include "feature/extractor.h"
#include "feature/options.h"

namespace vmaf::motion {

inline constexpr const char *kSadName = "VMAF_integer_feature_motion_sad_score";
inline constexpr const char *kMotionName = "VMAF_integer_feature_motion_score";
inline constexpr const char *kMotion2Name = "VMAF_integer_feature_motion2_score";
inline constexpr const char *kMotion3Name = "VMAF_integer_feature_motion3_score";

// The options that shape the outputs (the option table is in motion_cpu.cpp;
// both backends read the parsed values through this).
struct Settings {
    bool force_zero = false;
    double blend_factor = 1.0;
    double blend_offset = 40.0;
    double fps_weight = 1.0;
    double max_val = 10000.0;
    bool five_frame = false;
    bool moving_average = false;
    bool debug = false;

    static Settings from(const FeatureOptions &o);

    // How many frames back the reference is compared with, and so the first
    // index that has a SAD (earlier ones score 0).
    unsigned lag() const { return five_frame ? 2u : 1u; }
    // Whether frame `index` compares two pictures at all.
    bool compares(unsigned index) const { return !force_zero && index >= lag(); }
};

// A frame's SAD (of the blurred luma difference, in 1/256 steps) as its score.
double frame_score(uint64_t sad, unsigned w, unsigned h, const Settings &s);

// Write one frame's outputs: the SAD score, and with `debug` integer_motion.
int write_frame(double score, const Settings &s, unsigned index, ScoreSink &out);

// At the end of the sequence: motion2 and motion3 of every frame, from the SAD
// scores write_frame() stored in `out`.
int write_sequence(const Settings &s, ScoreSink &out);

}  // namespace vmaf::motion
