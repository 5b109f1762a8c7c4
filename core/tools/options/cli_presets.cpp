// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "cli_presets.h"

#include <array>
#include <span>

namespace vmaf::cli {

namespace {

struct PresetModel {
    const char *version, *name;
};

// One preset version, fully expanded (libvmaf builds each AOM version from the
// previous one; the table spells out the result).
struct Preset {
    const char *family, *version;
    std::span<const PresetModel> models;
    std::span<const char *const> features;  // --feature arguments, in order
    bool common_bitdepth;                   // inputs may differ in bit depth
};

constexpr PresetModel kAomModels[] = {{"vmaf_v0.6.1", "vmaf"}, {"vmaf_v0.6.1neg", "vmaf_neg"}};
constexpr PresetModel kNflxModels[] = {{"vmaf_4k_v0.6.1", "vmaf"},
                                       {"vmaf_4k_v0.6.1neg", "vmaf_neg"}};

#define AOM_PSNR "psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5"
#define AOM_SSIM_DB "enable_db=true:clip_db=true"

// v1.0, v2.0
constexpr const char *kAom1[] = {AOM_PSNR, "ciede", "float_ssim=" AOM_SSIM_DB,
                                 "float_ms_ssim=" AOM_SSIM_DB, "psnr_hvs"};
// v3.0 to v6.0 add CAMBI
constexpr const char *kAom3[] = {AOM_PSNR, "ciede", "float_ssim=" AOM_SSIM_DB,
                                 "float_ms_ssim=" AOM_SSIM_DB, "psnr_hvs", "cambi"};
// v7.0 computes SSIM at full resolution (scale=1) in place of the automatic scale
constexpr const char *kAom7[] = {AOM_PSNR, "ciede", "float_ssim=scale=1:" AOM_SSIM_DB,
                                 "float_ms_ssim=" AOM_SSIM_DB, "psnr_hvs", "cambi"};
constexpr const char *kNflx1[] = {"psnr=enable_chroma=true:enable_apsnr=true",
                                  "float_ssim=" AOM_SSIM_DB, "cambi"};

constexpr Preset kPresets[] = {
    {"aom_ctc", "v1.0", kAomModels, kAom1, false},
    {"aom_ctc", "v2.0", kAomModels, kAom1, false},
    {"aom_ctc", "v3.0", kAomModels, kAom3, false},
    {"aom_ctc", "v4.0", kAomModels, kAom3, false},
    {"aom_ctc", "v5.0", kAomModels, kAom3, false},
    {"aom_ctc", "v6.0", kAomModels, kAom3, true},
    {"aom_ctc", "v7.0", kAomModels, kAom7, true},
    {"nflx_ctc", "v1.0", kNflxModels, kNflx1, false},
};

}  // namespace

std::string preset_versions(std::string_view family)
{
    std::string s;
    for (const Preset &p : kPresets)
        if (family == p.family) s += (s.empty() ? "" : ", ") + std::string(p.version);
    return s;
}

int apply_preset(std::string_view family, std::string_view version, Options *opt,
                 std::string *err)
{
    if (family == "aom_ctc" && version == "proposed") {
        *err = "--aom_ctc proposed is deprecated: use one of " + preset_versions(family);
        return kExitUsage;
    }
    for (const Preset &p : kPresets) {
        if (family != p.family || version != p.version) continue;
        for (const PresetModel &m : p.models) {
            ModelSpec spec;
            spec.version = m.version;
            spec.name = m.name;
            opt->models.push_back(std::move(spec));
        }
        for (const char *f : p.features) {
            FeatureSpec spec;
            if (int e = parse_feature(f, &spec, err)) return e;
            opt->features.push_back(std::move(spec));
        }
        opt->common_bitdepth = opt->common_bitdepth || p.common_bitdepth;
        return 0;
    }
    *err = "bad --" + std::string(family) + " version \"" + std::string(version) +
           "\": expected one of " + preset_versions(family);
    return kExitUsage;
}

}  // namespace vmaf::cli
