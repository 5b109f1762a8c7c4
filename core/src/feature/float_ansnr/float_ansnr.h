// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_ansnr: libvmaf's anti-noise SNR (float_ansnr) and its PSNR twin (float_anpsnr).
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatAnsnrExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
inline constexpr const vk::FeatureInfo *kFloatAnsnrTwin = nullptr;  // no GPU twin

}  // namespace vmaf
