// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_moment: libvmaf's first and second moments of the luma planes.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatMomentExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
inline constexpr const vk::FeatureInfo *kFloatMomentTwin = nullptr;  // no GPU twin

}  // namespace vmaf
