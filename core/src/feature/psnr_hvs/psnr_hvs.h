// psnr_hvs: libvmaf's PSNR-HVS (Xiph's DCT-domain, contrast-masked PSNR) per plane
// and combined.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kPsnrHvsExtractor;

}  // namespace vmaf
