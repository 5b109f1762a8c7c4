// The table of GPU features: one line per feature folder with a <name>_vk.cpp.
#include <cstring>

#include "gpu/feature.h"

namespace vmaf::vk {

extern const FeatureInfo kAdmFeature;
extern const FeatureInfo kCambiFeature;
extern const FeatureInfo kFloatMsSsimFeature;
extern const FeatureInfo kFloatSsimFeature;
extern const FeatureInfo kCiedeFeature;
extern const FeatureInfo kMotionFeature;
extern const FeatureInfo kPsnrFeature;
extern const FeatureInfo kPsnrHvsFeature;
extern const FeatureInfo kVifFeature;

namespace {
constexpr const FeatureInfo *kFeatures[] = {
    &kAdmFeature,
    &kCambiFeature,
    &kFloatMsSsimFeature,
    &kFloatSsimFeature,
    &kCiedeFeature,
    &kMotionFeature,
    &kPsnrFeature,
    &kPsnrHvsFeature,
    &kVifFeature,
};
}  // namespace

std::span<const FeatureInfo *const> gpu_features() { return kFeatures; }

const FeatureInfo *find_gpu_feature(const char *name)
{
    for (const FeatureInfo *f : kFeatures)
        if (!std::strcmp(f->name, name)) return f;
    return nullptr;
}

}  // namespace vmaf::vk
