// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer ADM constants shared by the CPU extractor and its Vulkan twin
// (behaviour of libvmaf's integer_adm.c). Only plain integers and floats live
// here, so a shader can receive them through a generated header or
// specialization constants; the per-scale CSF weights are computed on the
// host (adm_csf.h) and uploaded.
//
// Vocabulary: every scale is one level of a 2-D db2 wavelet transform that
// splits a plane into a (low-low, the input of the next scale), v (low
// vertical, high horizontal), h (high vertical, low horizontal) and d (high
// both). The three detail orientations are indexed h = 0, v = 1, d = 2.
#pragma once

#include <cstdint>

namespace vmaf::adm {

inline constexpr int kScales = 4;
inline constexpr int kOrientations = 3;  // h, v, d

// The smallest picture side: the transform needs at least five input samples
// at every scale (three halvings leave ceil(side / 8) for the last one).
inline constexpr unsigned kMinSide = 33;

// ---------------------------------------------------------------- wavelet --

// Daubechies-2 analysis filters in Q15 (the low-pass taps sum to 2^15 * sqrt 2).
inline constexpr int32_t kDwtLo[4] = {15826, 27411, 7345, -4240};
inline constexpr int32_t kDwtHi[4] = {-4240, -7345, 27411, -15826};
inline constexpr int32_t kDwtLoSum = 46342;

// Scale 0 reads bpc-bit samples. The vertical pass centres them (subtracts
// half the range times the low-pass gain) and drops bpc bits with rounding
// into 16-bit intermediates; the horizontal pass drops 16 bits.
inline constexpr int32_t dwt0_vertical_round(unsigned bpc) { return int32_t(1) << (bpc - 1); }
inline constexpr int32_t dwt0_lo_offset(unsigned bpc) { return kDwtLoSum * dwt0_vertical_round(bpc); }
inline constexpr int kDwt0HorizontalShift = 16;

// Scales 1..3 transform 32-bit low-low bands with 64-bit sums; the shifts
// (index scale - 1) keep the bands inside 32 bits.
inline constexpr int kDwtVerticalShift[3] = {0, 16, 16};
inline constexpr int kDwtHorizontalShift[3] = {15, 16, 15};
inline constexpr int64_t round_of(int shift) { return shift ? int64_t(1) << (shift - 1) : 0; }

// ------------------------------------------------------------- decoupling --

// Distorted/reference ratios k are Q15 in [0, 1]; 1/x comes from a table of
// 2^30 / x for |x| <= 32768 (larger 32-bit values are first normalised to 15
// significant bits).
inline constexpr int kRatioShift = 15;
inline constexpr int32_t kRatioOne = 1 << kRatioShift;
inline constexpr int kReciprocalShift = 30;
inline constexpr int32_t kReciprocalRange = 32768;

// cos^2(1 degree) as libvmaf rounds it: float(cos(pi / 180)^2). Orientation
// vectors closer than one degree count as "enhancement".
inline constexpr float kCos1DegSq = 0x1.ffd814p-1f;

inline constexpr double kDefaultEnhnGainLimit = 100.0;

// Decoupling and the CSF run on the score region widened by one sample (the
// 3x3 masking window) plus one more at the far sides; scores use the picture
// minus 10 % on each side.
inline constexpr double kBorderFactor = 0.1;

// ------------------------------------------------------ CSF and masking --

// Scale 0 (16-bit bands): CSF weights are Q21 for h/v and Q23 for d, the
// weighted band keeps 6 fractional bits: (w * x + round) >> shift. The d
// rounding constant is 2^16 - 1, not 2^16, in libvmaf.
inline constexpr int kCsf0Shift[kOrientations] = {15, 15, 17};
inline constexpr int32_t kCsf0Round[kOrientations] = {16384, 16384, 65535};
inline constexpr int kCsf0WeightQ[kOrientations] = {21, 21, 23};
// The weights libvmaf uses for its default viewing set-up (3 heights, 1080
// lines, Watson CSF) instead of converting the float ones.
inline constexpr uint16_t kCsf0DefaultWeight[kOrientations] = {36453, 36453, 49417};

// Masking contributions: |c| / 30 for the eight neighbours and |c| / 15 for
// the centre, Q17 factors with a 12-bit rounded shift (result Q5).
inline constexpr int32_t kOneBy30Q17 = 4369;
inline constexpr int32_t kOneBy15Q17 = 8738;
inline constexpr int kMask0Shift = 12;

// Masked-signal cube: the threshold joins the weighted band (Q21 or Q23 of
// the Q6 band) shifted left by 10 or 12; squares drop 29 or 30 bits; cubes
// drop ceil(log2(w)) - 4 or - 3 bits, row sums ceil(log2(h)); the float
// result is scaled by 2^-(exponent - those shifts).
inline constexpr int kCm0ThresholdShift[kOrientations] = {10, 10, 12};
inline constexpr int kCm0SquareShift[kOrientations] = {29, 29, 30};
inline constexpr int kCm0CubeShiftBias[kOrientations] = {4, 4, 3};
inline constexpr int kCm0Exponent[kOrientations] = {52, 52, 57};

// Reference energy at scale 0: cubes summed per row, rows shifted by
// max(0, ceil(log2(area)) - 20), converted with 2^-(18 - shift).
inline constexpr int kDen0AreaBias = 20;
inline constexpr int kDen0Exponent = 18;

// Scales 1..3 (32-bit bands): CSF weights Q32; the weighted band drops 28
// bits with rounding. Masking factors are Q32 and rounded by adding -2^31
// (libvmaf stores 1u << 31 in an int32), i.e. floor(x - 1/2).
inline constexpr int kCsfShift = 28;
inline constexpr int64_t kCsfRound = int64_t(1) << (kCsfShift - 1);
inline constexpr int64_t kOneBy30Q32 = 143165577;
inline constexpr int64_t kOneBy15Q32 = 286331153;
inline constexpr int kMaskShift = 32;
inline constexpr int64_t kMaskRound = -(int64_t(1) << 31);

// Masked-signal cube at scales 1..3: squares drop 30 bits (round 2^29), cubes
// ceil(log2(w)), row sums ceil(log2(h)); float scale 2^-(exponent - shifts).
inline constexpr int kCmSquareShift = 30;
inline constexpr int kCmExponent[3] = {45, 39, 36};

// Reference energy at scales 1..3: squares drop 31/30/31 bits after adding
// 2^shift (a full unit, as libvmaf does), cubes ceil(log2(region width)),
// rows ceil(log2(region height)); float scale 2^-(exponent - shifts).
inline constexpr int kDenSquareShift[3] = {31, 30, 31};
inline constexpr int kDenExponent[3] = {32, 27, 23};

// --------------------------------------------------------- CSF models --

enum class CsfMode : int { Watson97 = 0, Barten = 1, BartenWatsonBlend = 2, BartenWatsonBlendMae = 3 };

inline constexpr double kDefaultNormViewDist = 3.0;
inline constexpr int kDefaultRefDisplayHeight = 1080;
inline constexpr double kDefaultNoiseWeight = 0.03125;
inline constexpr double kCsfLuminance = 100.0;  // cd/m^2, Barten model

// The Watson and Barten models themselves: feature/common/adm_csf_models.h.

// Blended Barten/Watson weights, tabulated per viewing set-up:
// [0 = h/v, 1 = d][scale]. "Mae" tables are the later (L1-fit) revision.
struct BlendedCsf {
    int display_height;
    double view_dist;
    float weight[2][kScales];
};
inline constexpr BlendedCsf kBlendedCsf[] = {
    {1080, 3.0, {{0.01183f, 0.025026f, 0.04295f, 0.058621f}, {0.004302f, 0.011778f, 0.023918f, 0.035901f}}},
    {1080, 5.0, {{0.004212f, 0.014809f, 0.029642f, 0.047464f}, {0.000984f, 0.005852f, 0.0146f, 0.027574f}}},
    // 2160 lines at 1.5 heights has the pixel density of 1080 at 3.
    {2160, 1.5, {{0.01183f, 0.025026f, 0.04295f, 0.058621f}, {0.004302f, 0.011778f, 0.023918f, 0.035901f}}},
    {2160, 3.0, {{0.00226f, 0.01183f, 0.025026f, 0.04295f}, {0.000479f, 0.004302f, 0.011778f, 0.023918f}}},
    {2160, 5.0, {{0.000092f, 0.004212f, 0.014809f, 0.029642f}, {0.000050f, 0.000984f, 0.005852f, 0.0146f}}},
    {720, 3.0, {{0.018715f, 0.035637f, 0.052798f, 0.061509f}, {0.007999f, 0.018396f, 0.031851f, 0.037718f}}},
    {720, 5.0, {{0.010144f, 0.022561f, 0.040309f, 0.05672f}, {0.003463f, 0.010282f, 0.021839f, 0.034641f}}},
    {480, 3.0, {{0.027961f, 0.045875f, 0.060275f, 0.056234f}, {0.013572f, 0.026277f, 0.036959f, 0.034511f}}},
    {480, 5.0, {{0.016781f, 0.032822f, 0.05032f, 0.061594f}, {0.00691f, 0.016545f, 0.029917f, 0.037777f}}},
};
inline constexpr BlendedCsf kBlendedCsfMae[] = {
    {1080, 3.0, {{0.011249f, 0.022606f, 0.035930f, 0.045673f}, {0.004097f, 0.010921f, 0.021430f, 0.031313f}}},
    {1080, 5.0, {{0.004052f, 0.013939f, 0.026298f, 0.038833f}, {0.000927f, 0.005544f, 0.013415f, 0.024515f}}},
    {2160, 1.5, {{0.011249f, 0.022606f, 0.035930f, 0.045673f}, {0.004097f, 0.010921f, 0.021430f, 0.031313f}}},
    {2160, 3.0, {{0.002166f, 0.011249f, 0.022606f, 0.035930f}, {0.000447f, 0.004097f, 0.010921f, 0.021430f}}},
    {2160, 5.0, {{0.000077f, 0.004052f, 0.013939f, 0.026298f}, {0.000045f, 0.000927f, 0.005544f, 0.013415f}}},
    {720, 3.0, {{0.017329f, 0.030870f, 0.042134f, 0.047410f}, {0.007509f, 0.016707f, 0.028072f, 0.032722f}}},
    {720, 5.0, {{0.009689f, 0.020577f, 0.034162f, 0.044523f}, {0.003302f, 0.009579f, 0.019661f, 0.030318f}}},
    {480, 3.0, {{0.024969f, 0.037825f, 0.046676f, 0.043974f}, {0.012511f, 0.023424f, 0.032139f, 0.030166f}}},
    {480, 5.0, {{0.015665f, 0.028766f, 0.040612f, 0.047483f}, {0.006514f, 0.015107f, 0.026476f, 0.032776f}}},
};

}  // namespace vmaf::adm
