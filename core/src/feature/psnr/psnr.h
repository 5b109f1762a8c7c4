// psnr: libvmaf's integer psnr feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kPsnrExtractor;

}  // namespace vmaf
