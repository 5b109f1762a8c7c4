// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/registry.h"

#include <array>
#include <cstddef>
#include <iterator>

#include "feature/adm/adm.h"
#include "feature/float_motion/float_motion.h"
#include "feature/float_vif/float_vif.h"
#include "feature/float_adm/float_adm.h"
#include "feature/ciede/ciede.h"
#include "feature/float_ansnr/float_ansnr.h"
#include "feature/float_moment/float_moment.h"
#include "feature/float_psnr/float_psnr.h"
#include "feature/cambi/cambi.h"
#include "feature/motion/motion.h"
#include "feature/psnr/psnr.h"
#include "feature/psnr_hvs/psnr_hvs.h"
#include "feature/speed/speed.h"
#include "feature/ssim/ssim.h"
#include "feature/ssimulacra2/ssimulacra2.h"
#include "feature/butteraugli/butteraugli.h"
#include "feature/vif/vif.h"
#include "feature/xpsnr/xpsnr.h"

namespace vmaf {

namespace {

// Every feature: one line per extractor, naming its CPU extractor and its GPU
// twin (nullptr where it has none, or without Vulkan). Each folder declares
// its options, provided names and output aliases in its ExtractorInfo, and its
// twin in its header, so adding a twin touches the folder only.
constexpr RegistryEntry kFeatures[] = {
    {&kPsnrExtractor, kPsnrTwin},
    {&kMotionExtractor, kMotionTwin},
    {&kVifExtractor, kVifTwin},
    {&kAdmExtractor, kAdmTwin},
    {&kFloatVifExtractor, kFloatVifTwin},
    {&kFloatMotionExtractor, kFloatMotionTwin},
    {&kFloatAdmExtractor, kFloatAdmTwin},
    {&kPsnrHvsExtractor, kPsnrHvsTwin},
    {&kCiedeExtractor, kCiedeTwin},
    {&kFloatPsnrExtractor, kFloatPsnrTwin},
    {&kFloatAnsnrExtractor, kFloatAnsnrTwin},
    {&kFloatMomentExtractor, kFloatMomentTwin},
    {&kCambiExtractor, kCambiTwin},
    {&kFloatSsimExtractor, kFloatSsimTwin},
    {&kFloatMsSsimExtractor, kFloatMsSsimTwin},
    {&kSpeedChromaExtractor, kSpeedChromaTwin},
    {&kSpeedTemporalExtractor, kSpeedTemporalTwin},
    {&kXpsnrExtractor, kXpsnrTwin},
    {&kSsimulacra2Extractor, kSsimulacra2Twin},
    {&kButteraugliExtractor, kButteraugliTwin},
};

constexpr auto kExtractors = [] {
    std::array<const ExtractorInfo *, std::size(kFeatures)> a{};
    for (size_t i = 0; i < a.size(); ++i) a[i] = kFeatures[i].cpu;
    return a;
}();

}  // namespace

std::span<const ExtractorInfo *const> cpu_extractors()
{
    return kExtractors;
}

std::span<const RegistryEntry> registry_entries()
{
    return kFeatures;
}

const vk::FeatureInfo *gpu_twin(const ExtractorInfo &info)
{
    for (const RegistryEntry &f : kFeatures)
        if (f.cpu == &info) return f.gpu;
    return nullptr;
}

const ExtractorInfo *find_extractor(std::string_view name)
{
    for (const ExtractorInfo *e : kExtractors)
        if (name == e->name) return e;
    return nullptr;
}

const ExtractorInfo *find_extractor_by_feature(std::string_view feature)
{
    for (const ExtractorInfo *e : kExtractors)
        for (const char *p : e->provided)
            if (feature == p || feature == feature_alias(p)) return e;
    return nullptr;
}

std::string_view feature_alias(std::string_view provided)
{
    for (const ExtractorInfo *e : kExtractors)
        for (const FeatureAlias &a : e->aliases)
            if (provided == a.name) return a.alias;
    return provided;
}

std::string feature_output_name(std::string_view provided, const FeatureOptions &opts)
{
    const std::string suffix = opts.name_suffix();
    // libvmaf keeps the full name when no option changes it, and writes the
    // alias in outputs; with options it stores alias + suffix.
    return std::string(feature_alias(provided)) + suffix;
}

}  // namespace vmaf
