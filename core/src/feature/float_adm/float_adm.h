// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_adm: libvmaf's floating-point ADM (DLM adm2, AIM, adm3 and the four
// scale scores).
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatAdmExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
inline constexpr const vk::FeatureInfo *kFloatAdmTwin = nullptr;  // no GPU twin

}  // namespace vmaf
