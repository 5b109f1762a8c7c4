// SPDX-License-Identifier: BSD-2-Clause-Patent
// ciede: libvmaf's CIEDE2000 colour difference (ciede2000 = 45 - 20 log10(mean dE00)).
#pragma once

#include <vector>

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kCiedeExtractor;
// Its GPU twin, as feature/registry.cpp names it beside the extractor.
namespace vk {
extern const FeatureInfo kCiedeFeature;  // ciede_vk.cpp
}  // namespace vk
inline constexpr const vk::FeatureInfo *kCiedeTwin = VMAF_GPU_TWIN(kCiedeFeature);

namespace ciede {

// The linear-light red of every pair of 8-bit samples (Y, V) and the blue of
// every (Y, U), as the CPU's YUV -> Lab conversion computes them (the C
// library's pow): red at [Y << 8 | V], blue at [kLinearTableSide + (Y << 8 | U)].
// Built on first use (1 MiB); the CPU extractor and its GPU twin both read it.
const std::vector<double> &linear_rb_table_8bit();

}  // namespace ciede

}  // namespace vmaf
