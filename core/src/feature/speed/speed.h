// SPDX-License-Identifier: BSD-2-Clause-Patent
// speed_chroma and speed_temporal: libvmaf's SpEED-QA features.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kSpeedChromaExtractor;
extern const ExtractorInfo kSpeedTemporalExtractor;
// The GPU twins, as feature/registry.cpp names them beside the extractors.
namespace vk {
extern const FeatureInfo kSpeedChromaFeature;    // speed_vk.cpp
extern const FeatureInfo kSpeedTemporalFeature;  // speed_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kSpeedChromaTwin = VMAF_GPU_TWIN(kSpeedChromaFeature);
inline constexpr const vk::FeatureInfo *kSpeedTemporalTwin = VMAF_GPU_TWIN(kSpeedTemporalFeature);

}  // namespace vmaf
