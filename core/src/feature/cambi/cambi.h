// SPDX-License-Identifier: BSD-2-Clause-Patent
// cambi: libvmaf's banding detector (Contrast Aware Multiscale Banding Index).
#pragma once

#include <memory>

#include "feature/extractor.h"
#include "util/simd.h"

namespace vmaf {

extern const ExtractorInfo kCambiExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kCambiFeature;  // cambi_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kCambiTwin = VMAF_GPU_TWIN(kCambiFeature);

namespace cambi {

using vmaf::Kernels;  // util/simd.h

std::unique_ptr<Extractor> create_cpu(const FeatureOptions &opts, Kernels which);

}  // namespace cambi

}  // namespace vmaf
