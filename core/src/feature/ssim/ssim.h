// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_ssim and float_ms_ssim: libvmaf's float SSIM and multi-scale SSIM
// extractors, sharing one engine (Gaussian window, per-pixel terms,
// decimation).
#pragma once

#include <memory>

#include "feature/extractor.h"
#include "util/simd.h"

namespace vmaf {

extern const ExtractorInfo kFloatSsimExtractor;
extern const ExtractorInfo kFloatMsSsimExtractor;
// The GPU twins, as feature/registry.cpp names them beside the extractors.
namespace vk {
extern const FeatureInfo kFloatSsimFeature;  // ssim_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kFloatSsimTwin = VMAF_GPU_TWIN(kFloatSsimFeature);
namespace vk {
extern const FeatureInfo kFloatMsSsimFeature;  // ssim_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kFloatMsSsimTwin = VMAF_GPU_TWIN(kFloatMsSsimFeature);

namespace ssim {

using vmaf::Kernels;  // util/simd.h

std::unique_ptr<Extractor> create_ssim_cpu(const FeatureOptions &opts, Kernels which);
std::unique_ptr<Extractor> create_ms_ssim_cpu(const FeatureOptions &opts, Kernels which);

}  // namespace ssim

}  // namespace vmaf
