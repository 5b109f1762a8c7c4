// float_motion: libvmaf's floating-point motion feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatMotionExtractor;

}  // namespace vmaf
