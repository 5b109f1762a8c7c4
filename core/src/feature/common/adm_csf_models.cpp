// SPDX-License-Identifier: BSD-2-Clause-Patent
// The Watson and Barten models. The float/double mix below is deliberate:
// each intermediate is rounded to float exactly where libvmaf rounds it,
// because the integer ADM converts the weights to fixed point and one ulp
// there moves its scores.
#include "feature/common/adm_csf_models.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace vmaf::adm {

namespace {

// Display visual resolution in pixels per degree of visual angle (56.55 for
// 1080 lines seen from 3 heights).
float pixels_per_degree(double norm_view_dist, int ref_display_height)
{
    return float(norm_view_dist * ref_display_height * std::numbers::pi / 180.0);
}

float lerp(float x0, float y0, float x1, float y1, float x)
{
    return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

float barten_mtf(float freq)
{
    float mtf = 0.0f;
    for (int i = 0; i < 4; i++)
        mtf = float(mtf + kBartenMtfA[i] * std::exp(double(-kBartenMtfB[i] * freq)));
    return mtf;
}

float barten_rod_cone(float luminance)
{
    const float *p = kBartenRodCone;
    return float(p[0] * std::pow(std::pow(double(p[1] / luminance), double(p[2])) + 1.0, double(-p[3])));
}

}  // namespace

float watson_quant_step(int lambda, int theta, double norm_view_dist, int ref_display_height)
{
    const WatsonParams &p = kWatsonLuma;
    const float r = pixels_per_degree(norm_view_dist, ref_display_height);
    // Watson et al., formula 9.
    const float t = float(std::log10(std::pow(2.0, lambda + 1) * p.f0 * p.g[theta] / r));
    const float kt2 = p.k * t * t;  // float arithmetic, as in libvmaf
    return float(2.0 * p.a * std::pow(10.0, double(kt2)) / kWatsonAmplitude[lambda][theta]);
}

float barten_csf(int lambda, double norm_view_dist, int ref_display_height, double luminance, double gain)
{
    const float r = pixels_per_degree(norm_view_dist, ref_display_height);
    // Nominal frequency of the level: half the resolution at the finest one.
    const float freq = float(r / std::pow(2.0, lambda + 1));

    const double lum = std::clamp(luminance, double(kBartenLumAnchor[0]), double(kBartenLumAnchor[5]));
    int lo = 0, hi = 0;
    for (int i = 0; i < 5; i++) {
        if (lum >= kBartenLumAnchor[i] && lum <= kBartenLumAnchor[i + 1]) {
            lo = i;
            hi = i + 1;
            break;
        }
    }
    const float x0 = float(std::log10(double(kBartenLumAnchor[lo])));
    const float x1 = float(std::log10(double(kBartenLumAnchor[hi])));
    const float x = float(std::log10(lum));
    float p[4];
    for (int k = 0; k < 4; k++) p[k] = lerp(x0, kBartenParams[lo][k + 1], x1, kBartenParams[hi][k + 1], x);

    const float a = float(1.0f + std::pow(double(p[0] * freq), double(p[1])));
    const float b = float(1.0f / std::pow(1.0 - std::exp(-std::pow(double(freq / 7), 2.0)), double(p[2])));
    const float neural = float(p[3] / std::pow(double(a * b), 0.5));
    return float(neural * barten_mtf(freq) * barten_rod_cone(float(luminance)) * gain);
}

}  // namespace vmaf::adm
