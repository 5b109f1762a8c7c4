// SPDX-License-Identifier: BSD-2-Clause-Patent
// adm: libvmaf's integer adm feature.
#pragma once

#include "feature/extractor.h"
#include "util/simd.h"

namespace vmaf {

extern const ExtractorInfo kAdmExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kAdmFeature;  // adm_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kAdmTwin = VMAF_GPU_TWIN(kAdmFeature);

namespace adm {

using vmaf::Kernels;  // util/simd.h

std::unique_ptr<Extractor> create_cpu(const FeatureOptions &opts, Kernels which);

}  // namespace adm

}  // namespace vmaf
