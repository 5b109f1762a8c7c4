// SPDX-License-Identifier: BSD-2-Clause-Patent
// motion: libvmaf's integer motion feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kMotionExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kMotionFeature;  // motion_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kMotionTwin = VMAF_GPU_TWIN(kMotionFeature);

}  // namespace vmaf
