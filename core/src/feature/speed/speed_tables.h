// SPDX-License-Identifier: BSD-2-Clause-Patent
// Constants of SpEED-QA (behaviour of libvmaf's speed.c: speed_chroma and
// speed_temporal), of the CPU extractors and their Vulkan twins
// (speed_vk.cpp, through speed_tables.glsl).
#pragma once

namespace vmaf::speed {

// Provided feature names and their output aliases.
inline constexpr const char *kChromaUName = "Speed_chroma_feature_speed_chroma_u_score";
inline constexpr const char *kChromaVName = "Speed_chroma_feature_speed_chroma_v_score";
inline constexpr const char *kChromaUvName = "Speed_chroma_feature_speed_chroma_uv_score";
inline constexpr const char *kTemporalName = "Speed_temporal_feature_speed_temporal_score";

// Pixels enter as (sample - 128) on the 8-bit scale.
inline constexpr float kPixelOffset = -128.0f;

// The picture is blurred and decimated by 2^kScales in each direction.
inline constexpr int kScales = 4;
inline constexpr int kDecimation = 1 << kScales;

// Statistics are taken over non-overlapping kBlock x kBlock blocks of the
// decimated picture; the covariance matrix is kBlockElems x kBlockElems.
inline constexpr int kBlock = 5;
inline constexpr int kBlockElems = kBlock * kBlock;

// The smallest decimated size with one whole block, as an input size
// (at speed_prescale 1): kBlock << kScales = 80 samples.
inline constexpr int kMinInputSize = kBlock << kScales;

// Eigenvalues below this (and triangular pivots whose magnitude is below it)
// mark the covariance matrix as singular; also the relative size under which a
// subdiagonal element counts as zero in the eigenvalue iteration.
inline constexpr double kEps = 1e-6;
inline constexpr int kMaxEigenIterations = 500;

// speed_prescale within this of 1 means no resampling.
inline constexpr double kPrescaleOneTolerance = 1.0e-3;

// Option defaults and ranges (both extractors).
inline constexpr double kDefaultSigmaNn = 0.29;
inline constexpr double kDefaultMaxVal = 1000.0;
inline constexpr double kDefaultNnFloor = 0.0;
inline constexpr double kDefaultKernelScale = 1.0;
inline constexpr double kDefaultPrescale = 1.0;
inline constexpr const char *kDefaultPrescaleMethod = "nearest";
inline constexpr const char *kPrescaleMethods = "nearest|bilinear|bicubic|lanczos4";
inline constexpr int kWeightVarModes = 7;  // speed_weight_var_mode 0..6

}  // namespace vmaf::speed
