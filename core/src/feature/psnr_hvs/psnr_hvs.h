// SPDX-License-Identifier: BSD-2-Clause-Patent
// psnr_hvs: libvmaf's PSNR-HVS (Xiph's DCT-domain, contrast-masked PSNR) per plane
// and combined.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kPsnrHvsExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kPsnrHvsFeature;  // psnr_hvs_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kPsnrHvsTwin = VMAF_GPU_TWIN(kPsnrHvsFeature);

}  // namespace vmaf
