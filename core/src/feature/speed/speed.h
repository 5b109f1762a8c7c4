// speed_chroma and speed_temporal: libvmaf's SpEED-QA features.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kSpeedChromaExtractor;
extern const ExtractorInfo kSpeedTemporalExtractor;
// The GPU twins, as feature/registry.cpp names them beside the extractors.
inline constexpr const vk::FeatureInfo *kSpeedChromaTwin = nullptr;  // no GPU twin
inline constexpr const vk::FeatureInfo *kSpeedTemporalTwin = nullptr;  // no GPU twin

}  // namespace vmaf
