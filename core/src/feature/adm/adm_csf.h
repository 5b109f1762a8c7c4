// SPDX-License-Identifier: BSD-2-Clause-Patent
// Contrast sensitivity weights of the ADM detail bands, per scale and
// orientation, from the viewing set-up (host side: the Vulkan twin uploads
// the same numbers).
#pragma once

#include <array>
#include <cstdint>

#include "feature/adm/adm_tables.h"
#include "feature/common/adm_csf_models.h"

namespace vmaf::adm {

struct ViewSetup {
    CsfMode mode = CsfMode::Watson97;
    double norm_view_dist = kDefaultNormViewDist;   // viewing distance / display height
    int ref_display_height = kDefaultRefDisplayHeight;
    double csf_scale = 1.0;        // Barten: h/v gain
    double csf_diag_scale = 1.0;   // Barten: d gain
};

struct ScaleWeights {
    float real[kOrientations];      // h, v, d
    uint32_t fixed[kOrientations];  // scale 0: Q21, Q21, Q23 (16 bits); scales 1..3: Q32
};

using Weights = std::array<ScaleWeights, kScales>;

// Every scale's weights, converted to fixed point the way libvmaf does.
// Returns -EINVAL when the set-up has no weights: the blended CSFs are only
// tabulated for a few display heights and distances.
int make_weights(const ViewSetup &setup, Weights *out);

}  // namespace vmaf::adm
