// float_ansnr: libvmaf's anti-noise SNR (float_ansnr) and its PSNR twin (float_anpsnr).
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatAnsnrExtractor;

}  // namespace vmaf
