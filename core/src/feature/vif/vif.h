// SPDX-License-Identifier: BSD-2-Clause-Patent
// vif: libvmaf's integer vif feature.
#pragma once

#include "feature/extractor.h"
#include "util/simd.h"

namespace vmaf {

extern const ExtractorInfo kVifExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kVifFeature;  // vif_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kVifTwin = VMAF_GPU_TWIN(kVifFeature);

namespace vif {

using vmaf::Kernels;  // util/simd.h

std::unique_ptr<Extractor> create_cpu(const FeatureOptions &opts, Kernels which);

}  // namespace vif

}  // namespace vmaf
