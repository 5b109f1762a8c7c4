// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_psnr: libvmaf's floating-point luma PSNR.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatPsnrExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
inline constexpr const vk::FeatureInfo *kFloatPsnrTwin = nullptr;  // no GPU twin

}  // namespace vmaf
