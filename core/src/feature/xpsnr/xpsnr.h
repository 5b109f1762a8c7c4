// xpsnr: the extended perceptually weighted PSNR of FFmpeg's xpsnr filter.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kXpsnrExtractor;
// No GPU twin yet: it runs on the CPU in either backend.
inline constexpr const vk::FeatureInfo *kXpsnrTwin = nullptr;

}  // namespace vmaf
