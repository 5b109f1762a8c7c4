// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_vif: libvmaf's floating-point VIF feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatVifExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
inline constexpr const vk::FeatureInfo *kFloatVifTwin = nullptr;  // no GPU twin

}  // namespace vmaf
