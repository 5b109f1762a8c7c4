// SPDX-License-Identifier: BSD-2-Clause-Patent
// Float ADM constants of the CPU extractor, which has no Vulkan twin yet
// (behaviour of libvmaf's float_adm.c, adm.c and adm_tools.c). Plain numbers
// only, so a shader can receive them as specialization constants.
//
// Vocabulary as in the integer ADM: every scale is one level of a 2-D db2
// wavelet transform splitting a plane into a (low-low, the next scale's
// input), v (low vertical, high horizontal), h (high vertical, low
// horizontal) and d (high both); detail orientations are indexed h = 0,
// v = 1, d = 2.
#pragma once

namespace vmaf::float_adm {

inline constexpr int kScales = 4;
inline constexpr int kOrientations = 3;  // h, v, d

// The smallest picture side: every scale's transform needs two input rows and
// columns, and the masking window two samples of the coarsest bands
// (ceil(side / 16) >= 2). libvmaf does not check; below this it reads
// samples it never wrote.
inline constexpr unsigned kMinSide = 17;

// Samples are centred on zero: sample / 2^(bpc - 8) - 128.
inline constexpr float kSampleOffset = -128.0f;

// Daubechies-2 analysis filters, single precision.
inline constexpr float kDwtLo[4] = {0.482962913144690f, 0.836516303737469f, 0.224143868041857f,
                                    -0.129409522550921f};
inline constexpr float kDwtHi[4] = {-0.129409522550921f, -0.224143868041857f, 0.836516303737469f,
                                    -0.482962913144690f};

// Decoupling: k = distorted / (reference + eps), through an approximate
// reciprocal refined once (see float_adm_kernels.h); orientation vectors
// closer than one degree count as enhancement. cos^2(1 degree) is computed in
// double and rounded to float once.
inline constexpr float kRatioEps = 1e-30f;
inline constexpr float kCos1DegSq = 0x1.ffd814p-1f;

// Masking: neighbours weigh 1/30 and the centre 1/15 of the masker's |csf|.
// They are nine-digit renderings of the single-precision 1/30 and 1/15 used
// as doubles (not exactly floats): the products are formed in double and
// rounded to float, as libvmaf does.
inline constexpr double kOneBy30 = 0.0333333351;
inline constexpr double kOneBy15 = 0.0666666701;

// Scores use the picture minus 10 % on each side; decoupling and the CSF run
// on that region widened by one sample (the 3x3 masking window) plus one more
// at the far sides.
inline constexpr double kBorderFactor = 0.1;

// Scale 0 skipped: its denominator is this instead of zero.
inline constexpr float kSkippedDen = 1e-10f;

// Totals below 1e-10 per 1920x1080 pixels count as zero.
inline constexpr double kNumDenLimit = 1e-10;

// Options' defaults.
inline constexpr double kDefaultEnhnGainLimit = 100.0;
inline constexpr double kDefaultNormViewDist = 3.0;
inline constexpr int kDefaultRefDisplayHeight = 1080;
inline constexpr double kDefaultNoiseWeight = 0.03125;
inline constexpr double kDefaultPNorm = 3.0;
inline constexpr double kCsfLuminance = 100.0;  // cd/m^2, Barten model

// adm_csf_mode: 1 Barten, 2 the DLM paper's CSF, anything else Watson.
enum CsfMode : int { kCsfWatson97 = 0, kCsfBarten = 1, kCsfAdmNative = 2 };

// The DLM paper's CSF (Li, Zhang, Ma, Ngan 2011):
// (a + b f) exp(-c f), with the diagonal frequency divided by 0.7.
inline constexpr double kNativeCsfA = 0.31;
inline constexpr double kNativeCsfB = 0.69;
inline constexpr double kNativeCsfC = 0.29;
inline constexpr double kNativeCsfOblique = 0.7;

}  // namespace vmaf::float_adm
