// SPDX-License-Identifier: BSD-2-Clause-Patent
// ssimulacra2: libjxl's SSIMULACRA 2 perceptual score of the RGB pictures the
// YUV frames convert to (docs/features/ssimulacra2.md).
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kSsimulacra2Extractor;
inline constexpr const vk::FeatureInfo *kSsimulacra2Twin = nullptr;  // no GPU twin

}  // namespace vmaf
