// SPDX-License-Identifier: BSD-2-Clause-Patent
// CSF weights of the float ADM. The Watson and Barten models are the integer
// ADM's (feature/common/adm_csf_models.h; libvmaf's adm_tools.h and
// barten_csf_tools.h); the DLM paper's CSF is float ADM's own.
#include "feature/float_adm/float_adm_csf.h"

#include <cmath>
#include <numbers>

#include "feature/common/adm_csf_models.h"

namespace vmaf::float_adm {

float native_csf(int lambda, double norm_view_dist, int ref_display_height, int theta)
{
    // Pixels per degree of visual angle, then the nominal frequency of the
    // level (half of it at the finest one); both rounded to float.
    const float r = float(norm_view_dist * ref_display_height * std::numbers::pi / 180.0);
    float freq = float(r / std::pow(2.0, lambda + 1));
    // Oblique effect: the diagonal band is seen as a higher frequency.
    if (theta == 45) freq = float(freq / kNativeCsfOblique);
    return float((kNativeCsfA + kNativeCsfB * freq) * std::exp(-kNativeCsfC * freq));
}

void csf_weights(const CsfSetup &s, int scale, float out[kOrientations])
{
    float f1, f2;
    if (s.mode == kCsfBarten) {
        f1 = adm::barten_csf(scale, s.norm_view_dist, s.ref_display_height, kCsfLuminance, s.csf_scale);
        f2 = adm::barten_csf(scale, s.norm_view_dist, s.ref_display_height, kCsfLuminance, s.csf_diag_scale);
    } else if (s.mode == kCsfAdmNative) {
        f1 = native_csf(scale, s.norm_view_dist, s.ref_display_height, 0);
        f2 = native_csf(scale, s.norm_view_dist, s.ref_display_height, 45);
    } else {
        // Inverse Watson quantisation steps of the lh (h/v) and hh (d) bands.
        f1 = 1.0f / adm::watson_quant_step(scale, 1, s.norm_view_dist, s.ref_display_height);
        f2 = 1.0f / adm::watson_quant_step(scale, 2, s.norm_view_dist, s.ref_display_height);
    }
    if (s.f1[scale] >= 0) f1 = float(s.f1[scale]);
    if (s.f2[scale] >= 0) f2 = float(s.f2[scale]);
    out[0] = f1;
    out[1] = f1;
    out[2] = f2;
}

}  // namespace vmaf::float_adm
