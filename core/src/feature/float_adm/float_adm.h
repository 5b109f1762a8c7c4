// float_adm: libvmaf's floating-point ADM (DLM adm2, AIM, adm3 and the four
// scale scores).
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatAdmExtractor;

}  // namespace vmaf
