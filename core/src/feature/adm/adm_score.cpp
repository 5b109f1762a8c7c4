// SPDX-License-Identifier: BSD-2-Clause-Patent
// The float half of integer ADM. Every expression keeps libvmaf's mix of float
// and double and its order of operations: the scores are printed from these
// floats, so one rounding done differently shows.
#include "feature/adm/adm_score.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include "util/env.h"

namespace vmaf::adm {

namespace {

uint32_t ceil_log2(double v) { return uint32_t(std::ceil(std::log2(v))); }

float cube_root(double v) { return std::pow(float(v), 1.0f / 3.0f); }

// The noise floor added to every orientation's term.
float noise_floor(const Rect &rc, double noise_weight)
{
    return std::pow(float(rc.height() * rc.width() * noise_weight), 1.0f / 3.0f);
}

}  // namespace

SumShifts sum_shifts(int w, int h, int scale)
{
    SumShifts s;
    s.score = score_rect(w, h);
    const Rect &rc = s.score;
    if (scale == 0) {
        // Rows are pre-shifted only when the area could overflow 64 bits.
        s.den_row = std::max(int(std::ceil(std::log2(double(rc.height() * rc.width())) - kDen0AreaBias)), 0);
        for (int o = 0; o < kOrientations; o++)
            s.num_cube[o] = int(uint32_t(std::ceil(std::log2(w) - kCm0CubeShiftBias[o])));
    } else {
        s.den_square = kDenSquareShift[scale - 1];
        s.den_cube = int(ceil_log2(rc.width()));
        s.den_row = int(ceil_log2(rc.height()));
        for (int o = 0; o < kOrientations; o++) s.num_cube[o] = int(ceil_log2(w));
    }
    s.num_row = int(ceil_log2(h));
    return s;
}

float finish_den(const uint64_t (&den)[kOrientations], const SumShifts &shifts, int scale,
                 const ScaleWeights &weights, double noise_weight)
{
    double to_real;
    if (scale == 0)
        to_real = std::pow(2.0, kDen0Exponent - shifts.den_row);
    else
        to_real = std::pow(2.0, double(uint32_t(kDenExponent[scale - 1] - uint32_t(shifts.den_row) -
                                                uint32_t(shifts.den_cube))));
    // CSF weighting after the sum: w^3 Σx^3 == Σ(w x)^3.
    const float floor = noise_floor(shifts.score, noise_weight);
    float out = 0.0f;
    for (int o = 0; o < kOrientations; o++) {
        const double csf = double(den[o] / to_real) * std::pow(double(weights.real[o]), 3.0);
        out = o == 0 ? cube_root(csf) + floor : out + (cube_root(csf) + floor);
    }
    return out;
}

float finish_num(const int64_t (&num)[kOrientations], const SumShifts &shifts, int scale, double noise_weight)
{
    const uint32_t rows = uint32_t(shifts.num_row);
    const float floor = noise_floor(shifts.score, noise_weight);
    float out = 0.0f;
    for (int o = 0; o < kOrientations; o++) {
        float f;
        if (scale == 0) {
            const uint32_t e = uint32_t(kCm0Exponent[o]) - uint32_t(shifts.num_cube[o]) - rows;
            f = float(double(num[o]) / std::pow(2.0, double(e)));
        } else {
            const uint32_t e = uint32_t(kCmExponent[scale - 1]) - uint32_t(shifts.num_cube[o]) - rows;
            f = float(num[o]) / float(std::pow(2.0, double(e)));
        }
        out = o == 0 ? std::pow(f, 1.0f / 3.0f) + floor : out + (std::pow(f, 1.0f / 3.0f) + floor);
    }
    return out;
}

Settings Settings::from(const FeatureOptions &o)
{
    Settings s;
    s.debug = o.flag("debug");
    s.skip_scale0 = o.flag("adm_skip_scale0");
    s.skip_aim = o.flag("adm_skip_aim");
    s.gain_limit = o.number("adm_enhn_gain_limit");
    s.noise_weight = o.number("adm_noise_weight");
    s.dlm_weight = o.number("adm_dlm_weight");
    s.min_val = o.number("adm_min_val");
    s.view.mode = CsfMode(int(o.number("adm_csf_mode")));
    s.view.norm_view_dist = o.number("adm_norm_view_dist");
    s.view.ref_display_height = int(o.number("adm_ref_display_height"));
    s.view.csf_scale = o.number("adm_csf_scale");
    s.view.csf_diag_scale = o.number("adm_csf_diag_scale");
    // The option, else the environment's default, else libvmaf's AVX-512 build.
    std::string edge = o.text("edge_as");
    if (!o.is_set("edge_as"))
        switch (env_choice("VMAF_ADM_EDGE_AS", {"avx2", "avx512"})) {
        case 0: edge = "avx2"; break;
        case 1: edge = "avx512"; break;
        case -2: env_unknown("VMAF_ADM_EDGE_AS", {"avx2", "avx512"}, "taken as avx512"); break;
        default: break;
        }
    s.edge = edge == "avx2" ? kernels::kEdgeAvx2 : kernels::kEdgeAvx512;
    return s;
}

ScaleScore finish_scale(const ScaleSums &sums, const SumShifts &shifts, int scale, const ScaleWeights &weights,
                        const Settings &settings)
{
    if (scale == 0 && settings.skip_scale0) return kSkippedScale;
    ScaleScore out;
    out.den = finish_den(sums.den, shifts, scale, weights, settings.noise_weight);
    out.num = finish_num(sums.num, shifts, scale, settings.noise_weight);
    // AIM has no noise floor.
    if (!settings.skip_aim) out.aim = finish_num(sums.aim, shifts, scale, 0.0);
    return out;
}

int write_scores(const ScaleScore (&s)[kScales], const Settings &settings, unsigned w, unsigned h, unsigned index,
                 ScoreSink &out)
{
    double num = 0.0, den = 0.0, aim_num = 0.0;
    for (const ScaleScore &x : s) {
        num += x.num;
        den += x.den;
        aim_num += x.aim;
    }
    // Sums this small are noise: libvmaf zeroes them (limit scaled by area).
    const double limit = 1e-10 * double(int(w) * int(h)) / (1920.0 * 1080.0);
    num = num < limit ? 0.0 : num;
    den = den < limit ? 0.0 : den;
    // libvmaf leaves AIM unset when the denominator vanishes; 0 here.
    const double adm2 = den == 0.0 ? 1.0 : num / den;
    const double aim = den == 0.0 ? 0.0 : aim_num / den;
    const double dlmw = settings.dlm_weight;
    const double adm3 = std::max(adm2 * dlmw + (1.0 - aim) * (1.0 - dlmw), settings.min_val);

    int err = 0;
    err |= out.append(kAdm2Name, index, adm2);
    err |= out.append(kAimName, index, aim);
    err |= out.append(kAdm3Name, index, adm3);
    for (int i = 0; i < kScales; i++) err |= out.append(kScaleNames[i], index, double(s[i].num) / s[i].den);
    if (!settings.debug) return err;

    err |= out.append("integer_adm", index, adm2);
    err |= out.append("integer_adm_num", index, num);
    err |= out.append("integer_adm_den", index, den);
    for (int i = 0; i < kScales; i++) {
        err |= out.append(kNumNames[i], index, s[i].num);
        err |= out.append(kDenNames[i], index, s[i].den);
    }
    return err;
}

}  // namespace vmaf::adm
