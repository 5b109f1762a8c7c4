// SPDX-License-Identifier: BSD-2-Clause-Patent
// The constants of ssimulacra2: the YUV -> RGB conversion this project defines,
// and libjxl's (libjxl 0.11: tools/ssimulacra2.cc, tools/gauss_blur.cc,
// lib/jxl/cms/opsin_params.h, lib/jxl/cms/transfer_functions-inl.h,
// lib/jxl/base/fast_math-inl.h), whose float values the scores depend on
// bit for bit.
#pragma once

#include "feature/common/srgb.h"

namespace vmaf::ssimulacra2 {

inline constexpr const char *kName = "ssimulacra2";

// libjxl's tool refuses pictures smaller than this in either direction.
inline constexpr unsigned kMinSide = 8;
inline constexpr int kNumScales = 6;

// ---- YUV -> RGB and sRGB -> linear (feature/common/srgb.h) ----

using srgb::kAutoHdHeight;
using srgb::kBt2020;
using srgb::kBt601;
using srgb::kBt709;
using srgb::kSrgbLowDivInv;
using srgb::kSrgbP;
using srgb::kSrgbQ;
using srgb::kSrgbThreshold;
using srgb::LumaWeights;

// ---- linear RGB -> XYB (opsin absorbance, float as libjxl declares it) ----

inline constexpr float kM02 = 0.078f;
inline constexpr float kM00 = 0.30f;
inline constexpr float kM01 = 1.0f - kM02 - kM00;
inline constexpr float kM12 = 0.078f;
inline constexpr float kM10 = 0.23f;
inline constexpr float kM11 = 1.0f - kM12 - kM10;
inline constexpr float kM20 = 0.24342268924547819f;
inline constexpr float kM21 = 0.20476744424496821f;
inline constexpr float kM22 = 1.0f - kM20 - kM21;
inline constexpr float kOpsin[3][3] = {{kM00, kM01, kM02}, {kM10, kM11, kM12}, {kM20, kM21, kM22}};
inline constexpr float kOpsinBias = 0.0037930732552754493f;

// Cube root (Newton iterations from an exponent guess).
inline constexpr int kCbrtExpBias = 0x54800000;
inline constexpr int kCbrtExpMul = 0x002AAAAA;

// MakePositiveXYB: X * 14 + 0.42, Y + 0.01, (B - Y) + 0.55.
inline constexpr float kXScale = 14.f;
inline constexpr float kXOffset = 0.42f;
inline constexpr float kYOffset = 0.01f;
inline constexpr float kBOffset = 0.55f;

// ---- blur and maps ----

inline constexpr double kBlurSigma = 1.5;
inline constexpr float kC2 = 0.0009f;

// ---- the score ----

// Weights of the 108 norms, in the order channel (X, Y, B), scale, norm (1, 4),
// map (SSIM, artifact, detail lost).
inline constexpr double kWeights[108] = {
    0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0, 0.0, 0.0004371155730107379,
    0.0, 1.1041726426657346, 0.00066284834129271, 0.00015231632783718752, 0.0, 0.0016406437456599754,
    0.0, 1.8422455520539298, 11.441172603757666, 0.0, 0.0007989109436015163, 0.000176816438078653,
    0.0, 1.8787594979546387, 10.94906990605142, 0.0, 0.0007289346991508072, 0.9677937080626833,
    0.0, 0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053, 0.0004550992113792063,
    0.0, 0.0, 0.0013648766163243398, 0.0, 0.0, 0.0, 0.0, 0.0, 7.466890328078848, 0.0,
    17.445833984131262, 0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296,
    1.027889937768264, 225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361,
    0.001237755635509985, 176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757,
    0.0004485436923833408, 0.0, 0.0, 0.0, 34.77906344483772, 44.835625328877896, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0005313191874358747, 0.0,
    0.00016533814161379112, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0004179171803251336, 0.0017290828234722833,
    0.0, 0.0020827005846636437, 0.0, 0.0, 8.826982764996862, 23.19243343998926, 0.0,
    95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493,
    171.2667255897307, 0.9807858872435379, 0.0, 0.0, 0.0, 0.0005130064588990679, 0.0,
    0.00010854057858411537};

// The weighted sum s goes through s *= kScoreScale, then
// s = a s + b s^2 + c s^3, then 100 - 10 s^kScoreExponent (100 where s <= 0).
inline constexpr double kScoreScale = 0.9562382616834844;
inline constexpr double kPolyA = 2.326765642916932;
inline constexpr double kPolyB = 0.020884521182843837;  // subtracted
inline constexpr double kPolyC = 6.248496625763138e-05;
inline constexpr double kScoreExponent = 0.6276336467831387;

}  // namespace vmaf::ssimulacra2
