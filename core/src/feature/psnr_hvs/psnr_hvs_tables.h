// SPDX-License-Identifier: BSD-2-Clause-Patent
// psnr_hvs constants and integer transform, shared by the CPU extractor and its
// Vulkan twin (psnr_hvs_vk.cpp; feature/psnr_hvs/psnr_hvs_tables_glsl.cpp exports them to GLSL)
// (behaviour of libvmaf's third_party/xiph/psnr_hvs.c: the
// Daala 8-point lifting DCT, the PSNR-HVS-M contrast-sensitivity tables and
// the masking rule, all in float except the transform).
#pragma once

#include <cmath>
#include <cstdint>

namespace vmaf::psnr_hvs {

inline constexpr const char *kNames[3] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr"};
inline constexpr const char *kCombined = "psnr_hvs";

// 8x8 blocks, a new one every 7 samples in each direction (they overlap by one).
inline constexpr int kBlock = 8;
inline constexpr int kStep = 7;
// Deepest input scored.
inline constexpr unsigned kMaxBpc = 12;

// Weights of the combined score: 0.8 luma, 0.1 each chroma plane (on the MSE-like
// per-plane values, before the dB conversion).
inline constexpr double kWeightY = 0.8;
inline constexpr double kWeightC = 0.1;

// The masking table is (csf * kMaskScale)^2, evaluated in double then stored as float.
inline constexpr double kMaskScale = 0.3885746225901003;

// Unbiased variance estimates: n / (n - 1) for the whole block (64 samples) and
// a quadrant (16), the factor rounded to float first.
inline constexpr float kBlockScale = 1 / 63.0f * 64;
inline constexpr float kQuadScale = 1 / 15.0f * 16;

// Contrast-sensitivity weights per DCT coefficient [vertical][horizontal], as
// float. The Cb/Cr tables are the 4:2:0 ones; libvmaf uses them for every
// chroma layout.
inline constexpr float kCsfY[8][8] = {
    {1.6193873005, 2.2901594831, 2.08509755623, 1.48366094411, 1.00227514334, 0.678296995242, 0.466224900598, 0.3265091542},
    {2.2901594831, 1.94321815382, 2.04793073064, 1.68731108984, 1.2305666963, 0.868920337363, 0.61280991668, 0.436405793551},
    {2.08509755623, 2.04793073064, 1.34329019223, 1.09205635862, 0.875748795257, 0.670882927016, 0.501731932449, 0.372504254596},
    {1.48366094411, 1.68731108984, 1.09205635862, 0.772819797575, 0.605636379554, 0.48309405692, 0.380429446972, 0.295774038565},
    {1.00227514334, 1.2305666963, 0.875748795257, 0.605636379554, 0.448996256676, 0.352889268808, 0.283006984131, 0.226951348204},
    {0.678296995242, 0.868920337363, 0.670882927016, 0.48309405692, 0.352889268808, 0.27032073436, 0.215017739696, 0.17408067321},
    {0.466224900598, 0.61280991668, 0.501731932449, 0.380429446972, 0.283006984131, 0.215017739696, 0.168869545842, 0.136153931001},
    {0.3265091542, 0.436405793551, 0.372504254596, 0.295774038565, 0.226951348204, 0.17408067321, 0.136153931001, 0.109083846276},
};

inline constexpr float kCsfCb[8][8] = {
    {1.91113096927, 2.46074210438, 1.18284184739, 1.14982565193, 1.05017074788, 0.898018824055, 0.74725392039, 0.615105596242},
    {2.46074210438, 1.58529308355, 1.21363250036, 1.38190029285, 1.33100189972, 1.17428548929, 0.996404342439, 0.830890433625},
    {1.18284184739, 1.21363250036, 0.978712413627, 1.02624506078, 1.03145147362, 0.960060382087, 0.849823426169, 0.731221236837},
    {1.14982565193, 1.38190029285, 1.02624506078, 0.861317501629, 0.801821139099, 0.751437590932, 0.685398513368, 0.608694761374},
    {1.05017074788, 1.33100189972, 1.03145147362, 0.801821139099, 0.676555426187, 0.605503172737, 0.55002013668, 0.495804539034},
    {0.898018824055, 1.17428548929, 0.960060382087, 0.751437590932, 0.605503172737, 0.514674450957, 0.454353482512, 0.407050308965},
    {0.74725392039, 0.996404342439, 0.849823426169, 0.685398513368, 0.55002013668, 0.454353482512, 0.389234902883, 0.342353999733},
    {0.615105596242, 0.830890433625, 0.731221236837, 0.608694761374, 0.495804539034, 0.407050308965, 0.342353999733, 0.295530605237},
};

inline constexpr float kCsfCr[8][8] = {
    {2.03871978502, 2.62502345193, 1.26180942886, 1.11019789803, 1.01397751469, 0.867069376285, 0.721500455585, 0.593906509971},
    {2.62502345193, 1.69112867013, 1.17180569821, 1.3342742857, 1.28513006198, 1.13381474809, 0.962064122248, 0.802254508198},
    {1.26180942886, 1.17180569821, 0.944981930573, 0.990876405848, 0.995903384143, 0.926972725286, 0.820534991409, 0.706020324706},
    {1.11019789803, 1.3342742857, 0.990876405848, 0.831632933426, 0.77418706195, 0.725539939514, 0.661776842059, 0.587716619023},
    {1.01397751469, 1.28513006198, 0.995903384143, 0.77418706195, 0.653238524286, 0.584635025748, 0.531064164893, 0.478717061273},
    {0.867069376285, 1.13381474809, 0.926972725286, 0.725539939514, 0.584635025748, 0.496936637883, 0.438694579826, 0.393021669543},
    {0.721500455585, 0.962064122248, 0.820534991409, 0.661776842059, 0.531064164893, 0.438694579826, 0.375820256136, 0.330555063063},
    {0.593906509971, 0.802254508198, 0.706020324706, 0.587716619023, 0.478717061273, 0.393021669543, 0.330555063063, 0.285345396658},
};

// The GPU twin's layout (psnr_hvs_vk.cpp, feature/psnr_hvs/psnr_hvs_*.comp): each block's
// summary of its 64 weighted errors for the serial float sum holds the binades
// it is worked out for (kCandidates consecutive ones) and two words per binade.
namespace gpu {
inline constexpr int kCandidates = 3;
inline constexpr int kSummaryWords = 1 + 2 * kCandidates;
}  // namespace gpu

// Masking weight of a CSF weight: (csf * scale)^2 in double, stored as float.
inline float mask_weight(float csf)
{
    return float((csf * kMaskScale) * (csf * kMaskScale));
}

// A plane's score from its float sum of weighted squared errors over `count`
// coefficients: the mean, over the squared peak, in float.
inline double plane_score(float total, int count, unsigned bpc)
{
    total /= float(count);  // no block (a plane under 8x8): 0 / 0, as in the reference
    const int32_t peak = (int32_t(1) << bpc) - 1;
    total /= float(peak * peak);
    return double(total);
}

// The combined score of the three planes' scores.
inline double combined_score(const double score[3])
{
    return score[0] * kWeightY + kWeightC * (score[1] + score[2]);
}

// A score in dB.
inline double to_db(double score) { return 10.0 * (-1.0 * std::log10(score)); }

// ---- The 8-point integer DCT (Daala's lifting factorisation) ----
//
// Every rotation is a chain of lifting steps v += round(u * m / 2^s), with m a
// Q-format constant; butterflies halve with truncation toward zero. The
// products are 32-bit, wrapping like the reference's int arithmetic.

struct Lift {
    int32_t mul;
    int shift;
};

inline constexpr Lift kTanPi8Half = {13573, 15};   // sqrt(2) - 1
inline constexpr Lift kSqrtHalf14 = {11585, 14};   // sqrt(1/2)
inline constexpr Lift kDst3Pi8Tan = {21895, 15};   // (1 - cos(3pi/8)) / sin(3pi/8)
inline constexpr Lift kDst3Pi8Sin = {15137, 14};   // sin(3pi/8)
inline constexpr Lift kTwoMinusSqrt2 = {19195, 15};  // 2 - sqrt(2)
inline constexpr Lift kSqrt2MinusHalf = {7489, 13};  // sqrt(2) - 1/2
inline constexpr Lift kPi16Tan = {3227, 15};       // (1 - cos(pi/16)) / sin(pi/16)
inline constexpr Lift kPi16Sin = {6393, 15};       // sin(pi/16)
inline constexpr Lift kPi3_16Tan = {2485, 13};     // (1 - cos(3pi/16)) / sin(3pi/16)
inline constexpr Lift kPi3_16Sin = {18205, 15};    // sin(3pi/16)

// round(v * l.mul / 2^l.shift) with the product and rounding term in wrapping 32 bits.
inline int32_t lift(int32_t v, Lift l)
{
    const uint32_t p = uint32_t(v) * uint32_t(l.mul) + (uint32_t(1) << (l.shift - 1));
    return int32_t(p) >> l.shift;
}

// v / 2 rounded toward zero.
inline int32_t half(int32_t v) { return v / 2; }

// One 8-point forward transform: in[k * stride] -> out[k] (k = 0..7, DC first).
inline void fdct8(const int32_t *in, int stride, int32_t out[8])
{
    // Inputs in the order the butterflies pair them.
    int32_t c0 = in[0 * stride], c4 = in[1 * stride], c2 = in[2 * stride], c6 = in[3 * stride];
    int32_t c7 = in[4 * stride], c3 = in[5 * stride], c5 = in[6 * stride], c1 = in[7 * stride];

    // Sum/difference butterflies of mirrored pairs.
    c1 = c0 - c1;
    const int32_t c1_half = half(c1);
    c0 -= c1_half;
    c4 += c5;
    const int32_t c4_half = half(c4);
    c5 -= c4_half;
    c3 = c2 - c3;
    c2 -= half(c3);
    c6 += c7;
    const int32_t c6_half = half(c6);
    c7 = c6_half - c7;

    // Even half: a 4-point DCT made of a 2-point DCT and a 2-point DST-IV.
    c0 += c6_half;
    c6 = c0 - c6;
    c2 = c4_half - c2;
    c4 = c2 - c4;
    c0 -= lift(c4, kTanPi8Half);
    c4 += lift(c0, kSqrtHalf14);
    c0 -= lift(c4, kTanPi8Half);
    c6 -= lift(c2, kDst3Pi8Tan);
    c2 += lift(c6, kDst3Pi8Sin);
    c6 -= lift(c2, kDst3Pi8Tan);

    // Odd half: a 4-point DST-IV.
    c3 += lift(c5, kTwoMinusSqrt2);
    c5 += lift(c3, kSqrtHalf14);
    c3 -= lift(c5, kSqrt2MinusHalf);
    c7 = half(c5) - c7;
    c5 -= c7;
    c3 = c1_half - c3;
    c1 -= c3;
    c7 += lift(c1, kPi16Tan);
    c1 -= lift(c7, kPi16Sin);
    c7 += lift(c1, kPi16Tan);
    c5 += lift(c3, kPi3_16Tan);
    c3 -= lift(c5, kPi3_16Sin);
    c5 += lift(c3, kPi3_16Tan);

    out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
    out[4] = c4; out[5] = c5; out[6] = c6; out[7] = c7;
}

// 8x8 forward transform of a block (row-major, in place): columns first, then
// rows of the column results. Result [v][u]: v vertical, u horizontal frequency.
inline void fdct8x8(int32_t block[64])
{
    int32_t cols[64];  // cols[8 * x + v]: coefficient v of column x
    for (int x = 0; x < 8; x++) fdct8(block + x, 8, cols + 8 * x);
    for (int v = 0; v < 8; v++) fdct8(cols + v, 8, block + 8 * v);
}

}  // namespace vmaf::psnr_hvs
