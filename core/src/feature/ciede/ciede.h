// ciede: libvmaf's CIEDE2000 colour difference (ciede2000 = 45 - 20 log10(mean dE00)).
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kCiedeExtractor;

}  // namespace vmaf
