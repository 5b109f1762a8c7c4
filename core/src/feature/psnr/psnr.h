// SPDX-License-Identifier: BSD-2-Clause-Patent
// psnr: libvmaf's integer psnr feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kPsnrExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kPsnrFeature;  // psnr_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kPsnrTwin = VMAF_GPU_TWIN(kPsnrFeature);

}  // namespace vmaf
