// SPDX-License-Identifier: BSD-2-Clause-Patent
// ssimulacra2: libjxl's SSIMULACRA 2 perceptual score of the RGB pictures the
// YUV frames convert to (docs/features/ssimulacra2.md).
#pragma once

#include <memory>

#include "feature/common/native_fma_vk.h"
#include "feature/extractor.h"
#include "util/simd.h"

namespace vmaf {

extern const ExtractorInfo kSsimulacra2Extractor;

// The extractor with the build of its kernels `which` names (the registry's
// create() takes the best); every build gives the same bits.
std::unique_ptr<Extractor> create_ssimulacra2_cpu(const FeatureOptions &opts, Kernels which);
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kSsimulacra2Feature;  // ssimulacra2_vk.cpp
class State;
// Whether its kernels take libjxl's fused multiply-add from the device's fma()
// (ADR 0086): native_fma() of feature/common/native_fma_vk.h, the probe's
// verdict, worked out once per device, unless VMAF_VULKAN_NATIVE_FMA is off.
inline bool ssimulacra2_native_fma(State &st)
{
    return native_fma(st);
}
}  // namespace vk
inline constexpr const vk::FeatureInfo *kSsimulacra2Twin = VMAF_GPU_TWIN(kSsimulacra2Feature);

}  // namespace vmaf
