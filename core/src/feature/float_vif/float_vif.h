// float_vif: libvmaf's floating-point VIF feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatVifExtractor;

}  // namespace vmaf
