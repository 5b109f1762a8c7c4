// vif: libvmaf's integer vif feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kVifExtractor;

}  // namespace vmaf
