// SPDX-License-Identifier: BSD-2-Clause-Patent
// The vmaf command line: libvmaf's option names and meanings, plus --backend.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libvmaf/libvmaf.h"

namespace vmaf::cli {

// Process exit codes (docs/cli.md).
enum ExitCode : int {
    kExitOk = 0,
    kExitUsage = 1,   // bad command line
    kExitInput = 2,   // unreadable, corrupt, mismatched or empty input
    kExitSetup = 3,   // model, feature or backend could not be set up
    kExitScore = 4,   // scoring or writing the output failed
};

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// One -m/--model: a model by built-in version or file, with its output name,
// flags and per-feature option overrides ("vif.vif_enhn_gain_limit=1.0").
struct ModelSpec {
    std::string version;
    std::string path;
    std::string name = "vmaf";
    uint64_t flags = VMAF_MODEL_FLAGS_DEFAULT;
    struct Overload {
        std::string feature;
        KeyValues opts;
    };
    std::vector<Overload> overloads;

    // What messages call it: "version=vmaf_v0.6.1" or "path=FILE".
    std::string label() const { return version.empty() ? "path=" + path : "version=" + version; }
};

// One --feature NAME[=opt=val:opt=val].
struct FeatureSpec {
    std::string name;
    KeyValues opts;
};

enum class Backend { Cpu, Vulkan, Auto };

struct Options {
    std::string ref_path, dist_path;

    // Raw planar input: any of these switches the readers to raw .yuv.
    bool raw = false;
    unsigned width = 0, height = 0, bitdepth = 0;
    VmafPixelFormat pix_fmt = VMAF_PIX_FMT_UNKNOWN;

    std::vector<ModelSpec> models;
    std::vector<FeatureSpec> features;
    // Reference and distorted may differ in bit depth; both are read at the
    // deeper one (--aom_ctc v6.0 and later).
    bool common_bitdepth = false;

    unsigned threads = 0;
    unsigned subsample = 0;
    unsigned frame_cnt = 0;  // 0: all frames
    unsigned frame_skip_ref = 0, frame_skip_dist = 0;
    // A compressed input cut short or damaged ends where it is whole (with a
    // warning) instead of failing.
    bool allow_truncated = false;
    uint64_t cpumask = 0, gpumask = 0;

    VmafOutputFormat output_fmt = VMAF_OUTPUT_FORMAT_NONE;
    std::string output_path;  // "-" is standard output

    bool quiet = false;
    bool no_prediction = false;

    Backend backend = Backend::Cpu;
    bool backend_given = false;  // --backend was on the command line
    bool hwdec_vulkan = false;   // --hwdec vulkan (makes the backend vulkan)
    int vulkan_device = -1;  // -1: the first suitable device

    bool show_help = false;
    bool show_version = false;
};

// Parse argv. Returns 0, or kExitUsage with a one-line reason in *err.
int parse_options(int argc, char **argv, Options *out, std::string *err);

// One --feature argument, "NAME[=OPT=VAL:OPT=VAL]".
int parse_feature(const char *arg, FeatureSpec *f, std::string *err);

// The --help text.
std::string usage_text(const char *program);

}  // namespace vmaf::cli
