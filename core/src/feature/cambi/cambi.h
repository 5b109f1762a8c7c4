// cambi: libvmaf's banding detector (Contrast Aware Multiscale Banding Index).
#pragma once

#include <memory>

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kCambiExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kCambiFeature;  // cambi_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kCambiTwin = VMAF_GPU_TWIN(kCambiFeature);

namespace cambi {

// Which build of the row kernels to run: the best the processor has, the
// portable one, or AVX2 (the portable one where the processor lacks AVX2), so
// tests on an AVX-512 machine also run it. All give identical scores.
enum class Kernels { Best, Portable, Avx2 };

std::unique_ptr<Extractor> create_cpu(const FeatureOptions &opts, Kernels which);

}  // namespace cambi

}  // namespace vmaf
