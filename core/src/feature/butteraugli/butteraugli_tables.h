// SPDX-License-Identifier: BSD-2-Clause-Patent
// The constants of butteraugli as libjxl's `butteraugli_main` computes it
// (libjxl 0.11: lib/jxl/butteraugli/butteraugli.cc, lib/jxl/base/fast_math-inl.h,
// tools/butteraugli_main.cc). Each is declared with libjxl's type (double or
// float): which one it is moves the scores' last bits.
#pragma once

#include <cstdint>

namespace vmaf::butteraugli {

inline constexpr const char *kName = "butteraugli";
inline constexpr const char *kNormName = "butteraugli_3norm";

// libjxl's comparator computes nothing for pictures smaller than this in
// either direction (its tool pads them; this extractor refuses them).
inline constexpr unsigned kMinSide = 8;
// The tool's viewing conditions for SDR input: 80 nits.
inline constexpr float kDefaultIntensityTarget = 80.0f;

// ---- blurs (sigmas of the Gaussian kernels, truncated at 2.25 sigma) ----

inline constexpr float kKernelM = 2.25f;
inline constexpr double kSigmaOpsin = 1.2;
inline constexpr double kSigmaLf = 7.15593339443;
inline constexpr double kSigmaHf = 3.22489901262;
inline constexpr double kSigmaUhf = 1.56416327805;
inline constexpr float kSigmaMask = 2.7f;

// ---- opsin dynamics ----

inline constexpr double kMix[12] = {0.29956550340058319, 0.63373087833825936, 0.077705617820981968,
                                    1.7557483643287353,  0.22158691104574774, 0.69391388044116142,
                                    0.0987313588422,     1.7557483643287353,  0.02,
                                    0.02,                0.20480129041026129, 12.226454707163354};
inline constexpr float kMinSensitivity = 1e-4f;
inline constexpr float kMinMixed01 = 1.7557483643287353f;
inline constexpr float kMinMixed2 = 12.226454707163354f;
// Gamma: log2 rational polynomial (coefficients of x^0 .. x^2) and its mapping.
inline constexpr float kLog2P[3] = {-1.8503833400518310E-06f, 1.4287160470083755E+00f, 7.4245873327820566E-01f};
inline constexpr float kLog2Q[3] = {9.9032814277590719E-01f, 1.0096718572241148E+00f, 1.7409343003366853E-01f};
inline constexpr float kGammaMul = 19.245013259874995f * 0.693147180559945f;
inline constexpr double kGammaAdd = -23.16046239805755;
inline constexpr double kGammaBias = 9.9710635769299145;

// ---- frequency separation ----

inline constexpr double kXmulLf = 33.832837186260;
inline constexpr double kYmulLf = 14.458268100570;
inline constexpr double kBmulLf = 49.87984651440;
inline constexpr double kYToBLf = -0.362267051518;
inline constexpr double kSuppress = 46.0;
inline constexpr double kSuppressS = 0.653020556257;
inline constexpr double kRemoveMfRange = 0.29;
inline constexpr double kAddMfRange = 0.1;
inline constexpr double kRemoveHfRange = 1.5;
inline constexpr double kAddHfRange = 0.132;
inline constexpr double kRemoveUhfRange = 0.04;
inline constexpr double kMaxclampHf = 28.4691806922;
inline constexpr double kMaxclampUhf = 5.19175294647;
inline constexpr double kMulYHf = 2.155;
inline constexpr double kMulYUhf = 2.69313763794;
inline constexpr double kMaxClampMul = 0.724216145665;

// ---- differences ----

inline constexpr double kWMfMalta = 37.0819870399;
inline constexpr double kNorm1Mf = 130262059.556;
inline constexpr double kWMfMaltaX = 8246.75321353;
inline constexpr double kNorm1MfX = 1009002.70582;
inline constexpr double kWHfMalta = 18.7237414387;
inline constexpr double kNorm1Hf = 4498534.45232;
inline constexpr double kWHfMaltaX = 6923.99476109;
inline constexpr double kNorm1HfX = 8051.15833247;
inline constexpr double kWUhfMalta = 1.10039032555;
inline constexpr double kNorm1Uhf = 71.7800275169;
inline constexpr double kWUhfMaltaX = 173.5;
inline constexpr double kNorm1UhfX = 5.0;
inline constexpr double kWmul[9] = {400.0,         1.50815703118,  0,
                                    2150.0,        10.6195433239,  16.2176043152,
                                    29.2353797994, 0.844626970982, 0.703646627719};
inline constexpr double kMaltaLen = 3.75;
inline constexpr double kMaltaMulliHf = 0.39905817637;
inline constexpr double kMaltaMulliLf = 0.611612573796;
inline constexpr float kMaltaWeight0 = 0.5f;
inline constexpr float kMaltaWeight1 = 0.33f;

// The 16 lines of 9 pixels around the centre (5 of them for the LF variant,
// 7 for the diagonals of the HF one), as (dy, dx), in libjxl's order.
struct MaltaLine {
    int n;
    int8_t d[9][2];
};

inline constexpr MaltaLine kMaltaHf[16] = {
    {9, {{0, -4}, {0, -3}, {0, -2}, {0, -1}, {0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}}},
    {9, {{-4, 0}, {-3, 0}, {-2, 0}, {-1, 0}, {0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}},
    {7, {{-3, -3}, {-2, -2}, {-1, -1}, {0, 0}, {1, 1}, {2, 2}, {3, 3}}},
    {7, {{-3, 3}, {-2, 2}, {-1, 1}, {0, 0}, {1, -1}, {2, -2}, {3, -3}}},
    {9, {{-4, 1}, {-3, 1}, {-2, 1}, {-1, 0}, {0, 0}, {1, 0}, {2, -1}, {3, -1}, {4, -1}}},
    {9, {{-4, -1}, {-3, -1}, {-2, -1}, {-1, 0}, {0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 1}}},
    {9, {{-1, -4}, {-1, -3}, {-1, -2}, {0, -1}, {0, 0}, {0, 1}, {1, 2}, {1, 3}, {1, 4}}},
    {9, {{1, -4}, {1, -3}, {1, -2}, {0, -1}, {0, 0}, {0, 1}, {-1, 2}, {-1, 3}, {-1, 4}}},
    {7, {{-3, -2}, {-2, -1}, {-1, -1}, {0, 0}, {1, 1}, {2, 1}, {3, 2}}},
    {7, {{-3, 2}, {-2, 1}, {-1, 1}, {0, 0}, {1, -1}, {2, -1}, {3, -2}}},
    {7, {{-2, -3}, {-1, -2}, {-1, -1}, {0, 0}, {1, 1}, {1, 2}, {2, 3}}},
    {7, {{-2, 3}, {-1, 2}, {-1, 1}, {0, 0}, {1, -1}, {1, -2}, {2, -3}}},
    {9, {{1, -4}, {1, -3}, {1, -2}, {0, -1}, {0, 0}, {0, 1}, {-1, 2}, {-1, 3}, {-1, 4}}},
    {9, {{-1, -4}, {-1, -3}, {-1, -2}, {0, -1}, {0, 0}, {0, 1}, {1, 2}, {1, 3}, {1, 4}}},
    {9, {{-4, -1}, {-3, -1}, {-2, -1}, {-1, 0}, {0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 1}}},
    {9, {{-4, 1}, {-3, 1}, {-2, 1}, {-1, 0}, {0, 0}, {1, 0}, {2, -1}, {3, -1}, {4, -1}}},
};

inline constexpr MaltaLine kMaltaLf[16] = {
    {5, {{0, -4}, {0, -2}, {0, 0}, {0, 2}, {0, 4}}},
    {5, {{-4, 0}, {-2, 0}, {0, 0}, {2, 0}, {4, 0}}},
    {5, {{-3, -3}, {-2, -2}, {0, 0}, {2, 2}, {3, 3}}},
    {5, {{-3, 3}, {-2, 2}, {0, 0}, {2, -2}, {3, -3}}},
    {5, {{-4, 1}, {-2, 1}, {0, 0}, {2, -1}, {4, -1}}},
    {5, {{-4, -1}, {-2, -1}, {0, 0}, {2, 1}, {4, 1}}},
    {5, {{-1, -4}, {-1, -2}, {0, 0}, {1, 2}, {1, 4}}},
    {5, {{1, -4}, {1, -2}, {0, 0}, {-1, 2}, {-1, 4}}},
    {5, {{-3, -2}, {-2, -1}, {0, 0}, {2, 1}, {3, 2}}},
    {5, {{-3, 2}, {-2, 1}, {0, 0}, {2, -1}, {3, -2}}},
    {5, {{-2, -3}, {-1, -2}, {0, 0}, {1, 2}, {2, 3}}},
    {5, {{-2, 3}, {-1, 2}, {0, 0}, {1, -2}, {2, -3}}},
    {5, {{2, -4}, {1, -2}, {0, 0}, {-1, 2}, {-2, 4}}},
    {5, {{-2, -4}, {-1, -2}, {0, 0}, {1, 2}, {2, 4}}},
    {5, {{-4, -2}, {-2, -1}, {0, 0}, {2, 1}, {4, 2}}},
    {5, {{-4, 2}, {-2, 1}, {0, 0}, {2, -1}, {4, -2}}},
};

// The six Malta maps in the order libjxl adds them: the band (0 uhf, 1 hf,
// 2 mf), the channel (0 X, 1 Y) whose ac they add to, the filter (the
// high-frequency one's lines of 9 for uhf, the low-frequency one's of 5 for
// the others), its weight (both sides: hf_asymmetry 1) and norm.
struct MaltaMap {
    int band, channel;
    bool lf;
    double mulli, w, norm1;
};
inline constexpr MaltaMap kMaltaMaps[6] = {
    {0, 1, false, kMaltaMulliHf, kWUhfMalta, kNorm1Uhf}, {0, 0, false, kMaltaMulliHf, kWUhfMaltaX, kNorm1UhfX},
    {1, 1, true, kMaltaMulliLf, kWHfMalta, kNorm1Hf},    {1, 0, true, kMaltaMulliLf, kWHfMaltaX, kNorm1HfX},
    {2, 1, true, kMaltaMulliLf, kWMfMalta, kNorm1Mf},    {2, 0, true, kMaltaMulliLf, kWMfMaltaX, kNorm1MfX},
};

// ---- masking ----

inline constexpr float kMaskingMuls[3] = {2.5f, 0.4f, 0.4f};
inline constexpr float kMaskMul = 6.19424080439f;
inline constexpr float kMaskBias = 12.61050594197f;
inline constexpr float kMaskToErrorMul = 10.0f;
// std::log(80.0) / std::log(255.0), and the threshold it scales.
inline constexpr float kIntensityTargetNormalizationHack = 0.79079917404f;
inline constexpr float kInternalGoodQualityThreshold = 17.83f * kIntensityTargetNormalizationHack;
inline constexpr float kGlobalScale = 1.0 / kInternalGoodQualityThreshold;
inline constexpr double kMaskYOffset = 0.829591754942, kMaskYScaler = 0.451936922203, kMaskYMul = 2.5485944793;
inline constexpr double kMaskDcYOffset = 0.20025578522, kMaskDcYScaler = 3.87449418804,
                        kMaskDcYMul = 0.505054525019;

// ---- the second resolution ----

inline constexpr double kHeuristicMixingValue = 0.3;
inline constexpr float kSubsampledWeight = 0.5f;

}  // namespace vmaf::butteraugli
