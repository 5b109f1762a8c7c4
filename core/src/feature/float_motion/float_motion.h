// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_motion: libvmaf's floating-point motion feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatMotionExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
inline constexpr const vk::FeatureInfo *kFloatMotionTwin = nullptr;  // no GPU twin

}  // namespace vmaf
