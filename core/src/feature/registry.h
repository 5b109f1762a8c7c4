// SPDX-License-Identifier: BSD-2-Clause-Patent
// The table of feature extractors and libvmaf's feature-name aliases.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "feature/extractor.h"

namespace vmaf {

// One feature as registry.cpp lists it: its CPU extractor (the oracle) and its
// Vulkan twin, where it has one in this build.
struct RegistryEntry {
    const ExtractorInfo *cpu;
    const vk::FeatureInfo *gpu;
};

// Every feature, in registry order.
std::span<const RegistryEntry> registry_entries();

// Every CPU extractor the library has.
std::span<const ExtractorInfo *const> cpu_extractors();

// The GPU twin of a registered extractor (nullptr: none).
const vk::FeatureInfo *gpu_twin(const ExtractorInfo &info);

// By extractor name ("vif", "adm", "motion", "psnr").
const ExtractorInfo *find_extractor(std::string_view name);

// By a feature it provides, under its full or its alias name
// ("VMAF_integer_feature_adm2_score" or "integer_adm2").
const ExtractorInfo *find_extractor_by_feature(std::string_view feature);

// libvmaf's output alias of a provided name ("integer_vif_scale0"); names
// without an alias are returned unchanged.
std::string_view feature_alias(std::string_view provided);

// The name a feature is stored and written under: its alias plus the suffix
// of non-default options ("integer_adm2_egl_1").
std::string feature_output_name(std::string_view provided, const FeatureOptions &opts);

}  // namespace vmaf
