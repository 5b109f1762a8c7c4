// float_psnr: libvmaf's floating-point luma PSNR.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatPsnrExtractor;

}  // namespace vmaf
