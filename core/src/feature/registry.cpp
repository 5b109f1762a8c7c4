#include "feature/registry.h"

#include <array>

#include "feature/adm/adm.h"
#include "feature/motion/motion.h"
#include "feature/psnr/psnr.h"
#include "feature/vif/vif.h"

namespace vmaf {

namespace {

constexpr std::array kExtractors = {
    &kPsnrExtractor,
    &kMotionExtractor,
    &kVifExtractor,
    &kAdmExtractor,
};

struct Alias { std::string_view name, alias; };

// libvmaf's alias table for the features this library computes.
constexpr Alias kAliases[] = {
    {"VMAF_integer_feature_adm2_score", "integer_adm2"},
    {"VMAF_integer_feature_aim_score", "integer_aim"},
    {"VMAF_integer_feature_adm3_score", "integer_adm3"},
    {"VMAF_integer_feature_adm_scale0_score", "integer_adm_scale0"},
    {"VMAF_integer_feature_adm_scale1_score", "integer_adm_scale1"},
    {"VMAF_integer_feature_adm_scale2_score", "integer_adm_scale2"},
    {"VMAF_integer_feature_adm_scale3_score", "integer_adm_scale3"},
    {"VMAF_integer_feature_motion_score", "integer_motion"},
    {"VMAF_integer_feature_motion2_score", "integer_motion2"},
    {"VMAF_integer_feature_motion3_score", "integer_motion3"},
    {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
    {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
    {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
    {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
};

}  // namespace

std::span<const ExtractorInfo *const> cpu_extractors()
{
    return kExtractors;
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
    for (const Alias &a : kAliases)
        if (a.name == provided) return a.alias;
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
