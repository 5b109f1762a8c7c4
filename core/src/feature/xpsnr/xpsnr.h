// SPDX-License-Identifier: BSD-2-Clause-Patent
// xpsnr: the extended perceptually weighted PSNR of FFmpeg's xpsnr filter.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kXpsnrExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kXpsnrFeature;  // xpsnr_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kXpsnrTwin = VMAF_GPU_TWIN(kXpsnrFeature);

}  // namespace vmaf
