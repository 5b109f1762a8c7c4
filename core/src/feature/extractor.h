// SPDX-License-Identifier: BSD-2-Clause-Patent
// The feature extractor interface. Every feature (psnr, motion, vif, adm) has a
// CPU implementation of this interface and, with Vulkan, a GPU twin.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "feature/options.h"
#include "libvmaf/picture.h"
#include "picture/format.h"

namespace vmaf {

namespace vk {
struct FeatureInfo;  // a GPU twin (feature/twin.h)
}  // namespace vk

// How a feature's header names its GPU twin for the registry
// (k<Name>Twin = VMAF_GPU_TWIN(k<Name>Feature)): the twin with Vulkan,
// nullptr in a build without.
#if VMAF_HAVE_VULKAN
#define VMAF_GPU_TWIN(twin) (&vk::twin)
#else
#define VMAF_GPU_TWIN(twin) nullptr
#endif

// Where extractors write scores. Names are libvmaf's provided-feature names
// ("VMAF_integer_feature_vif_scale0_score", "psnr_y"); the framework maps them to
// output names (alias plus option suffix). Implementations are thread-safe.
class ScoreSink {
public:
    virtual ~ScoreSink() = default;
    virtual int append(const char *name, unsigned index, double value) = 0;
    // Read back a score this extractor (same options) wrote; -ENOENT if absent.
    virtual int get(const char *name, unsigned index, double *value) const = 0;
    // A score of the whole sequence (libvmaf's aggregate_metrics).
    virtual int set_aggregate(const char *name, double value) = 0;
};

// The reference pictures of the two previous indices, for extractors that
// compare against them (nullptr where there is none).
struct RefHistory {
    const VmafPicture *prev = nullptr;
    const VmafPicture *prev_prev = nullptr;
};

class Extractor {
public:
    virtual ~Extractor() = default;
    // Called once before the first frame with the geometry all frames share.
    virtual int init(const FrameFormat &fmt) = 0;
    // Called for every frame pair. Non-temporal extractors may be called from
    // several threads at once on different instances, in any index order.
    virtual int extract(const VmafPicture &ref, const VmafPicture &dist,
                        unsigned index, ScoreSink &out) = 0;
    // kExtractorPrevRef extractors get the previous reference pictures here,
    // right before each extract() on the same thread.
    virtual void set_history(const RefHistory &) {}
    // Called once at the end on one instance: write scores that need the whole
    // sequence (e.g. motion2 takes the min of neighbours).
    virtual int flush(ScoreSink &) { return 0; }
};

enum ExtractorFlags : unsigned {
    // Frames must arrive in index order on one instance (state across frames).
    kExtractorTemporal = 1u << 0,
    // extract() needs the previous reference pictures (set_history()); frames may
    // still run in parallel, as the context keeps those pictures alive.
    kExtractorPrevRef = 1u << 1,
};

// libvmaf's output alias of a provided feature name
// ("VMAF_integer_feature_vif_scale0_score" is written as "integer_vif_scale0").
struct FeatureAlias {
    const char *name;
    const char *alias;
};

// One extractor, as its folder registers it (feature/registry.cpp lists them).
struct ExtractorInfo {
    const char *name;                          // libvmaf's extractor name ("vif")
    std::span<const char *const> provided;     // provided feature names
    std::span<const OptionSpec> options;
    unsigned flags;
    std::unique_ptr<Extractor> (*create)(const FeatureOptions &opts);
    // Optional: flags that depend on the options (ORed with `flags`).
    unsigned (*option_flags)(const FeatureOptions &opts) = nullptr;
    // The output aliases of provided names that have one.
    std::span<const FeatureAlias> aliases = {};
    // Aggregate metrics written with the option suffix of the provided names,
    // so that two instances with different options keep both (xpsnr's
    // axpsnr_*). libvmaf's own aggregates (psnr's apsnr_*) are not listed:
    // libvmaf writes them plain.
    std::span<const char *const> suffixed_aggregates = {};
};

}  // namespace vmaf
