// CSF weights. The float/double mix below is deliberate: each intermediate is
// rounded to float exactly where libvmaf rounds it, because the weights are
// converted to fixed point and one ulp there moves the integer scores.
#include "feature/adm/adm_csf.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
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
