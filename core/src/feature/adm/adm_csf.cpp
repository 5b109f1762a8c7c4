// SPDX-License-Identifier: BSD-2-Clause-Patent
// CSF weights: a model's (feature/common/adm_csf_models.h, whose float
// roundings are libvmaf's, because the weights are converted to fixed point
// and one ulp there moves the integer scores) or a tabulated blend.
#include "feature/adm/adm_csf.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <iterator>

namespace vmaf::adm {

namespace {

const BlendedCsf *find_blended(const ViewSetup &s)
{
    const bool mae = s.mode == CsfMode::BartenWatsonBlendMae;
    const auto *begin = mae ? std::begin(kBlendedCsfMae) : std::begin(kBlendedCsf);
    const auto *end = mae ? std::end(kBlendedCsfMae) : std::end(kBlendedCsf);
    for (const auto *b = begin; b != end; ++b)
        if (b->display_height == s.ref_display_height && b->view_dist == s.norm_view_dist) return b;
    return nullptr;
}

// Float weights of one scale: {h/v, d}.
bool real_weights(const ViewSetup &s, int scale, float out[2])
{
    switch (s.mode) {
    case CsfMode::Watson97:
        // The inverse quantisation step of the lh (h/v) and hh (d) bands.
        out[0] = 1.0f / watson_quant_step(scale, 1, s.norm_view_dist, s.ref_display_height);
        out[1] = 1.0f / watson_quant_step(scale, 2, s.norm_view_dist, s.ref_display_height);
        return true;
    case CsfMode::Barten:
        out[0] = barten_csf(scale, s.norm_view_dist, s.ref_display_height, kCsfLuminance, s.csf_scale);
        out[1] = barten_csf(scale, s.norm_view_dist, s.ref_display_height, kCsfLuminance, s.csf_diag_scale);
        return true;
    case CsfMode::BartenWatsonBlend:
    case CsfMode::BartenWatsonBlendMae:
        if (const BlendedCsf *b = find_blended(s)) {
            out[0] = b->weight[0][scale];
            out[1] = b->weight[1][scale];
            return true;
        }
        return false;
    }
    return false;
}

// Float to fixed point as libvmaf's C code converts on x86-64: truncation
// toward zero, keeping the low 16 or 32 bits. Weights of 1 or more (Barten's
// CSF at 1080 lines, 3 heights, exceeds 1 at every scale) do not fit the Q32
// format of scales 1..3: libvmaf's integer ADM is not meaningful in that mode
// (its C code wraps like this, its SIMD code saturates and yields NaN).
template <typename U>
U to_fixed(double v)
{
    return U(uint64_t(int64_t(v)));
}

}  // namespace

int make_weights(const ViewSetup &s, Weights *out)
{
    const bool default_setup =
        std::fabs(s.norm_view_dist * s.ref_display_height - kDefaultNormViewDist * kDefaultRefDisplayHeight) < 1.0e-8 &&
        s.mode == CsfMode::Watson97;
    for (int scale = 0; scale < kScales; scale++) {
        float w[2];
        if (!real_weights(s, scale, w)) return -EINVAL;
        ScaleWeights &sw = (*out)[scale];
        sw.real[0] = sw.real[1] = w[0];
        sw.real[2] = w[1];
        for (int o = 0; o < kOrientations; o++) {
            if (scale == 0)
                sw.fixed[o] = default_setup ? kCsf0DefaultWeight[o]
                                            : to_fixed<uint16_t>(sw.real[o] * std::ldexp(1.0, kCsf0WeightQ[o]));
            else
                sw.fixed[o] = to_fixed<uint32_t>(sw.real[o] * std::ldexp(1.0, 32));
        }
    }
    return 0;
}

}  // namespace vmaf::adm
