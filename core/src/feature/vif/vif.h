// vif: libvmaf's integer vif feature.
#pragma once

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kVifExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kVifFeature;  // vif_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kVifTwin = VMAF_GPU_TWIN(kVifFeature);

namespace vif {

// Which build of the CPU kernels an instance runs: the fastest the processor
// supports (what kVifExtractor creates), the portable one, or the AVX2 one
// (the portable one where the processor lacks AVX2), so that tests on an
// AVX-512 machine also run it. All give identical scores; tests compare them
// and benchmarks time them.
enum class Kernels { Best, Portable, Avx2 };

std::unique_ptr<Extractor> create_cpu(const FeatureOptions &opts, Kernels which);

}  // namespace vif

}  // namespace vmaf
