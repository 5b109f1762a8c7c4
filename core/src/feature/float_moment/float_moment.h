// float_moment: libvmaf's first and second moments of the luma planes.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatMomentExtractor;

}  // namespace vmaf
