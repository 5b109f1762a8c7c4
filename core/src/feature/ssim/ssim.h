// float_ssim and float_ms_ssim: libvmaf's float SSIM and multi-scale SSIM
// extractors, sharing one engine (Gaussian window, per-pixel terms,
// decimation).
#pragma once

#include <memory>

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kFloatSsimExtractor;
extern const ExtractorInfo kFloatMsSsimExtractor;
// The GPU twins, as feature/registry.cpp names them beside the extractors.
namespace vk {
extern const FeatureInfo kFloatSsimFeature;  // ssim_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kFloatSsimTwin = VMAF_GPU_TWIN(kFloatSsimFeature);
namespace vk {
extern const FeatureInfo kFloatMsSsimFeature;  // ssim_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kFloatMsSsimTwin = VMAF_GPU_TWIN(kFloatMsSsimFeature);

namespace ssim {

// Which build of the kernels an instance runs: the fastest the processor
// supports (what the ExtractorInfos create), the portable one, or the AVX2
// one (the portable one where the processor lacks AVX2). All give identical
// scores; tests compare them and benchmarks time them.
enum class Kernels { Best, Portable, Avx2 };

std::unique_ptr<Extractor> create_ssim_cpu(const FeatureOptions &opts, Kernels which);
std::unique_ptr<Extractor> create_ms_ssim_cpu(const FeatureOptions &opts, Kernels which);

}  // namespace ssim

}  // namespace vmaf
