// motion: libvmaf's integer motion feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kMotionExtractor;

}  // namespace vmaf
