// adm: libvmaf's integer adm feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kAdmExtractor;

}  // namespace vmaf
