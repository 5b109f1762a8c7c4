// speed_chroma and speed_temporal: libvmaf's SpEED-QA features.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kSpeedChromaExtractor;
extern const ExtractorInfo kSpeedTemporalExtractor;

}  // namespace vmaf
