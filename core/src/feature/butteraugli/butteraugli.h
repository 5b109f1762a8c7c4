// SPDX-License-Identifier: BSD-2-Clause-Patent
// butteraugli: libjxl's butteraugli distance and 3-norm of the RGB pictures the
// YUV frames convert to (docs/features/butteraugli.md), and its Vulkan twin.
#pragma once

#include <memory>

#include "feature/extractor.h"
#include "util/simd.h"

namespace vmaf {

extern const ExtractorInfo kButteraugliExtractor;

// The extractor with the build of its kernels `which` names (the registry's
// create() takes the best); every build gives the same bits.
std::unique_ptr<Extractor> create_butteraugli_cpu(const FeatureOptions &opts, Kernels which);
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kButteraugliFeature;  // butteraugli_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kButteraugliTwin = VMAF_GPU_TWIN(kButteraugliFeature);

}  // namespace vmaf
