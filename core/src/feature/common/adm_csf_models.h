// SPDX-License-Identifier: BSD-2-Clause-Patent
// The contrast sensitivity models of ADM's detail bands, which the integer
// ADM (adm/adm_csf.h) and the float ADM (float_adm/float_adm_csf.h) both
// weight with (behaviour of libvmaf's adm_tools.h and barten_csf_tools.h).
#pragma once

namespace vmaf::adm {

// Watson et al. 1997, "Visibility of wavelet quantization noise", luma
// thresholds (formula 7, table IV, subject sfl) and basis-function
// amplitudes A[lambda][theta] (table V) of the 7/9 biorthogonal basis;
// theta = 0 ll, 1 lh, 2 hh, 3 hl.
struct WatsonParams {
    float a, k, f0;
    float g[4];
};
inline constexpr WatsonParams kWatsonLuma = {0.495f, 0.466f, 0.401f, {1.501f, 1.0f, 0.534f, 1.0f}};
inline constexpr float kWatsonAmplitude[6][4] = {
    {0.62171f, 0.67234f, 0.72709f, 0.67234f},
    {0.34537f, 0.41317f, 0.49428f, 0.41317f},
    {0.18004f, 0.22727f, 0.28688f, 0.22727f},
    {0.091401f, 0.11792f, 0.15214f, 0.11792f},
    {0.045943f, 0.059758f, 0.077727f, 0.059758f},
    {0.023013f, 0.030018f, 0.039156f, 0.030018f},
};

// Barten's CSF as simplified in HDR-VDP-2.2.1: parameters at six adaptation
// luminances, interpolated in log10 luminance; rod/cone sensitivity and the
// optical MTF.
inline constexpr float kBartenLumAnchor[6] = {0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f};
inline constexpr float kBartenParams[6][5] = {
    {0.0160737f, 0.991265f, 3.74038f, 0.50722f, 4.46044f},
    {0.383873f, 0.800889f, 3.54104f, 0.682505f, 4.94958f},
    {0.929301f, 0.476505f, 4.37453f, 0.750315f, 5.28678f},
    {1.29776f, 0.405782f, 4.40602f, 0.935314f, 5.61425f},
    {1.49222f, 0.334278f, 3.79542f, 1.07327f, 6.4635f},
    {1.46213f, 0.394533f, 2.7755f, 1.16577f, 7.45665f},
};
inline constexpr float kBartenRodCone[4] = {30.162f, 4.0627f, 1.6596f, 0.2712f};
inline constexpr float kBartenMtfA[4] = {0.424838596301290f, 0.572435103936480f, 0.000167576239164937f,
                                        0.00255872352306433f};
inline constexpr float kBartenMtfB[4] = {0.028f, 0.37f, 37.0f, 360.0f};

// The inverse weight of band theta (0 ll, 1 lh, 2 hh, 3 hl) at scale lambda
// (0 finest) in Watson's model, and Barten's CSF at a luminance (cd/m^2)
// times a gain.
float watson_quant_step(int lambda, int theta, double norm_view_dist, int ref_display_height);
float barten_csf(int lambda, double norm_view_dist, int ref_display_height, double luminance, double gain);

}  // namespace vmaf::adm
