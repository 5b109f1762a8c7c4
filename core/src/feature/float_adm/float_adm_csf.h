// SPDX-License-Identifier: BSD-2-Clause-Patent
// Contrast sensitivity weights of the float ADM's detail bands, per scale
// (host side: the Vulkan twin uploads the same numbers).
#pragma once

#include "feature/float_adm/float_adm_tables.h"

namespace vmaf::float_adm {

struct CsfSetup {
    int mode = kCsfWatson97;                        // adm_csf_mode
    double norm_view_dist = kDefaultNormViewDist;   // viewing distance / display height
    int ref_display_height = kDefaultRefDisplayHeight;
    double csf_scale = 1.0;       // Barten: h/v gain
    double csf_diag_scale = 1.0;  // Barten: d gain
    // Per-scale overrides of the h/v (f1) and d (f2) weights; negative: none.
    double f1[kScales] = {-1.0, -1.0, -1.0, -1.0};
    double f2[kScales] = {-1.0, -1.0, -1.0, -1.0};
};

// The weights of the h, v and d bands of one scale (0 finest), rounded to
// float where libvmaf rounds them.
void csf_weights(const CsfSetup &setup, int scale, float out[kOrientations]);

// The CSF of the DLM paper at a scale, theta 0 (h/v) or 45 (d).
float native_csf(int lambda, double norm_view_dist, int ref_display_height, int theta);

}  // namespace vmaf::float_adm
