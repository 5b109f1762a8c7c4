// SPDX-License-Identifier: BSD-2-Clause-Patent
// cambi's options resolved for one picture format (libvmaf's cambi.c init): the
// encode and source sizes, windows, contrast steps and the luma band they read.
// The CPU extractor and its Vulkan twin both start from these.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "feature/extractor.h"

namespace vmaf::cambi {

struct Settings {
    enum class Check {
        Ok,
        TooSmall,  // below CAMBI's windows: no score (a warning, as libvmaf's tool goes on)
        Shapes,    // source larger than the encode in one direction and smaller in the other
        BitDepth,  // pictures outside 8 to 16 bits
        Window,    // a window larger than the reciprocal table
    };
    Check check = Check::Ok;

    unsigned bpc = 8, enc_bits = 8;
    unsigned enc_w = 0, enc_h = 0, src_w = 0, src_h = 0;
    unsigned window_size = 0;         // as asked for
    unsigned window = 0, src_window = 0;  // at the encode's and the source's size
    bool speedup = false, full_ref = false;
    double topk = 0, max_val = 0;
    int num_diffs = 4;               // contrast steps 1 .. num_diffs
    std::vector<uint16_t> tvi;       // per step: the largest luma it is visible at, plus num_diffs
    std::vector<int> weights;        // per step
    uint16_t vlt_luma = 0;           // the visibility threshold's luma
    // The luma band some c-value can read: [band_base, band_base + band_size).
    // Empty when the visibility threshold lies above every step's TVI limit
    // (libvmaf's unsigned size then wraps and it reads out of bounds): no
    // c-value can fire and the score is 0.
    int band_base = 0, band_size = 0;

    static Settings from(const FeatureOptions &o, const FrameFormat &fmt);

    // Why `check` is not Ok, as a log line ("cambi: ...\n").
    std::string problem() const;
};

}  // namespace vmaf::cambi
