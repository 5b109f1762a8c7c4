// SPDX-License-Identifier: BSD-2-Clause-Patent
// The GPU twins' parity harness (docs/parity-harness.md): one table per twin,
// run through the three ways a caller reaches it, each against the CPU extractor
// (and libvmaf's golden outputs where the table names them):
//   - the engine: golden pairs, option sets, synthetic formats, depths and
//     sizes at each frames-in-flight count, and the inputs the twin declines;
//   - the C API: a context with an imported Vulkan state against a context
//     without one, every stored score and aggregate to the bit;
//   - the Vulkan import API: frames uploaded into a caller's VkImages and
//     imported, against host pictures on the same device.
// One device per process and frames-in-flight count, each golden pair decoded
// once. `test_parity --bench [FEATURE...] [--pair NAME] [--frames N]` prints
// frames per second per feature and path instead of testing; with
// `--throughput`, bench.h's engine and extractor run at 1080p and 2160p.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "feature/extractor.h"
#include "feature/options.h"
#include "libvmaf/libvmaf.h"
#include "sink.h"
#include "vulkan/state.h"

namespace vmaf::test {
struct V1Model;
struct V1Run;
}  // namespace vmaf::test

namespace vmaf::test::parity {

// Whether this is the sanitizers' pass (VMAF_TEST_SANITIZED=1, tests/meson.build):
// each path runs with fewer repetitions of the same host code (parity.cpp:
// the golden pairs' first VMAF_TEST_MAX_FRAMES frames, fewer synthetic sizes).
bool sanitizers_pass();

// A golden pair's frames, decoded once per process: every frame, or in the
// sanitizers' pass the first VMAF_TEST_MAX_FRAMES (`total`: the file's).
struct Frames {
    std::vector<VmafPicture> ref, dist;
    size_t total = 0;
    Frames() = default;
    Frames(const Frames &) = delete;
    ~Frames();
};
const Frames &golden(const std::string &pair);

// A synthetic input: format, depth, size, frame count, and options of the run.
struct Synthetic {
    VmafPixelFormat fmt;
    unsigned bpc, w, h, frames;
    Dict options = {};
    // Its own pictures instead of the table's generator (a case that needs
    // particular content).
    std::function<void(std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)> make = {};
    const char *what = "";
    unsigned in_flight = 0;  // run at this frames-in-flight count alone (0: at each of the table's)
    // Whether some CPU score is not 0 (1), or every one is (0); -1: not checked.
    int nonzero = -1;
};

// Every combination of these formats, depths and sizes, `frames` frames each.
std::vector<Synthetic> grid(std::initializer_list<VmafPixelFormat> fmts, std::initializer_list<unsigned> depths,
                            std::initializer_list<std::pair<unsigned, unsigned>> sizes, unsigned frames,
                            const Dict &options = {});

// The same rows, each under every option set of `sets` (options of the row first).
std::vector<Synthetic> each_with(const std::vector<Synthetic> &rows, const std::vector<Dict> &sets);

// Frames of smooth texture (sines across the picture) plus noise, random
// chroma; the distorted frame by frame f % 4 noisier, blurred along the rows,
// contrast-boosted (gains above 1) or noisier still. With `to_extremes`, the
// fourth kind's texture is stretched to the black and white ends of the depth
// and its noise scaled with the depth (SSIM's small and large variances).
void textured_frames(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned frames, uint32_t seed,
                     bool to_extremes, std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist);

// Rows of one case's pictures under several options share them: a maker that
// calls `make` when `key` differs from the last key made (keeping only the last
// pictures made) and gives each row new references to them.
using Maker = std::function<void(std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)>;
Maker shared_pictures(const std::string &key, Maker make);

// libvmaf's values for some outputs (provided names, looked up in the JSON under
// their aliases), in the golden file NAME + suffix (files
// without the first output are passed over), within `tol`. `null_is_inf`:
// libvmaf's null (a score that is not finite) is +infinity here.
struct GoldenCheck {
    const char *suffix;
    std::vector<const char *> outputs;
    double tol = 0;
    bool null_is_inf = false;
    std::vector<std::string> only_pairs = {};  // empty: every golden pair
    // Options added to the table's golden_options for this check (a run of its
    // own, also compared with the CPU's), and the suffix libvmaf's JSON gives
    // these outputs' names (its `_egl_1` of a second configuration).
    Dict options = {};
    const char *name_suffix = "";
};

// A format and option set the twin must decline (Engine::supports false), so
// that a context keeps the feature on the CPU extractor.
struct Decline {
    FrameFormat fmt;
    Dict options = {};
    const char *why = "";
    bool unless_float64 = false;  // supported exactly when the device has doubles
};

// One twin's table.
struct Table {
    const ExtractorInfo *extractor;
    // libvmaf's golden outputs, checked on every golden pair through the engine.
    std::vector<GoldenCheck> golden;
    Dict golden_options;  // the options of the golden-pair runs
    // The golden and option paths pass over the pairs the twin declines with
    // those options (the CPU runs them in a context); on the full set of pairs
    // the golden path then runs `golden_supported` of them (0: every one).
    bool skip_declined = false;
    unsigned golden_supported = 0;
    // More checks of the engine's scores of each golden pair.
    std::function<void(const std::string &pair, const MapSink &gpu)> golden_extra;
    // Outputs the engine must give on every golden pair, every frame, and how
    // many aggregates (-1: not checked); the CPU's are compared too.
    std::vector<const char *> outputs;
    int aggregates = -1;
    // Option sets, each on every pair of option_pairs, exactly the CPU's.
    std::vector<Dict> option_sets;
    std::vector<std::string> option_pairs;
    // Synthetic inputs, exactly the CPU's, at each frames-in-flight count. In
    // the sanitizers' pass fewer (parity.cpp's sanitizer_rows): of rows that
    // differ only in size the smallest, the widest and one of each other
    // odd/even shape; of those, each that brings a picture (format, depth,
    // size, frames) or an option no earlier row ran.
    std::vector<Synthetic> synthetic;
    std::vector<unsigned> frames_in_flight = {vk::kDefaultFramesInFlight};
    // The pictures of a synthetic case (seeded by the harness per case).
    std::function<void(const Synthetic &c, uint32_t seed, std::vector<VmafPicture> *ref,
                       std::vector<VmafPicture> *dist)>
        generate;
    std::vector<Decline> declines;
    // The C API path runs these pairs (empty: every golden pair); the import
    // path the first of them, in each layout the device copies and samples.
    std::vector<std::string> api_pairs;
    // The feature reads the reference alone: the engine and the CPU get it as
    // both pictures.
    bool reference_only = false;
    // The CPU oracle, where it needs more than ExtractorInfo::create (history).
    std::function<MapSink(const FeatureOptions &, const std::vector<VmafPicture> &ref,
                          const std::vector<VmafPicture> &dist)>
        cpu;
    bool nan_equal = false;          // NaN on both sides is equal (no other difference is)
    // The largest |GPU - CPU| of a score or aggregate (0: to the bit); imported
    // frames still equal host pictures on the same device to the bit.
    double tol = 0;
    bool needs_float64 = false;      // the device must have doubles (lavapipe has)
    // Each frame one submission (else at least one per frame: a feature whose
    // work is carried into the next frame's submission).
    bool one_submission_per_frame = true;
    bool check_second_flush = true;  // a second engine flush succeeds and adds nothing
};

// The paths, each a Catch2 test case of PARITY_TABLE.
void run_golden(const Table &t);
void run_options(const Table &t);
void run_synthetic(const Table &t);
void run_declines(const Table &t);
void run_c_api(const Table &t);
void run_import_api(const Table &t);

// The process's state for `frames_in_flight`, with the validation layer unless
// VMAF_TEST_VULKAN_NO_VALIDATION=1; released at the end of the run.
vk::State &shared_state(unsigned frames_in_flight = vk::kDefaultFramesInFlight);

// The vmaf models through the C API on every golden pair, vmaf_v0.6.1 and
// vmaf_v0.6.1neg: `score` gives a pair's per-frame outputs and VMAF for a model,
// on `st` (the shared state) or on the CPU (nullptr), with the table's own checks
// of the run. Every output on the GPU equals the CPU's to the bit and libvmaf's
// JSON within 1e-4; `own_outputs` of them hold one of `own` in their names (the
// twin's, reported apart from the other features' and VMAF). In the sanitizers'
// pass vmaf_v0.6.1neg runs on the first pair alone.
using ModelScoreFn = std::function<std::map<std::string, std::vector<double>>(const std::string &pair,
                                                                              const char *version, vk::State *st)>;
void model_api_case(const char *twin, std::initializer_list<const char *> own, unsigned own_outputs,
                    const ModelScoreFn &score);

// A v1 model on a golden pair through the C API on the shared state (run_v1 of
// v1_models.h, with `threads`): scored without error on a GPU engine, its 15
// outputs and pooled VMAF equal to libvmaf's (largest difference 0), four
// instances on the GPU, each of `features` in their names; printed. The run, and
// in *on_workers whether the engine collected on its workers.
V1Run v1_on_gpu(const std::string &pair, const V1Model &model, std::initializer_list<const char *> features,
                unsigned threads = 0, unsigned *on_workers = nullptr);

// The reference's and the distorted's samples at (x, y) of plane `pl` of frame
// `f`, whose reference picture is `ref` (allocated, not yet filled).
using PairSample =
    std::function<std::pair<unsigned, unsigned>(const VmafPicture &ref, unsigned f, unsigned pl, unsigned x, unsigned y)>;
// A generator's pictures: c.frames pairs of c's format, depth and size, each
// sample from `sample`, called frame by frame, plane by plane, row by row (so
// that a generator's random numbers come in a fixed order); 8-bit samples in
// bytes, deeper ones in 16-bit words.
void fill_pairs(const Synthetic &c, const PairSample &sample, std::vector<VmafPicture> *ref,
                std::vector<VmafPicture> *dist);

// fill_pairs() of a diagonal ramp over the depth's range per plane, moving
// `frame_step` samples a frame, the distorted one up to a sixteenth of the
// range brighter (clipped), by random numbers seeded with `seed`.
void ramps(const Synthetic &c, uint32_t seed, unsigned frame_step, std::vector<VmafPicture> *ref,
           std::vector<VmafPicture> *dist);

// Frees what the process shared (states, devices, decoded pairs): main's last step.
void release_shared();

// Every registered table, for --bench.
void register_table(const char *name, const Table &(*table)());
// Frames per second per feature and path; prints, asserts nothing.
int bench(const std::vector<std::string> &features, const std::string &pair, unsigned frames);
// tests/support/bench.h's throughput run per feature: the engine and the CPU
// extractor on cycled noise frames at 1080p 8-bit and 2160p 10-bit (its
// VMAF_BENCH_SIZE, VMAF_BENCH_FRAMES and VMAF_BENCH_PROFILE apply).
int throughput(const std::vector<std::string> &features);

}  // namespace vmaf::test::parity

// The harness's test cases for one table: `fn` returns the table, `tag` selects
// them ("[psnr]": tests/meson.build runs one meson test per tag).
#define PARITY_TABLE(name, fn, tag)                                                                              \
    namespace {                                                                                                    \
    const bool parity_registered_##name = (::vmaf::test::parity::register_table(#name, fn), true);               \
    }                                                                                                              \
    TEST_CASE(#name ": golden pairs through the engine, the CPU's and libvmaf's", tag "[golden]")                \
    {                                                                                                              \
        ::vmaf::test::parity::run_golden(fn());                                                                    \
    }                                                                                                              \
    TEST_CASE(#name ": option sets through the engine, the CPU's", tag "[options]")                              \
    {                                                                                                              \
        ::vmaf::test::parity::run_options(fn());                                                                   \
    }                                                                                                              \
    TEST_CASE(#name ": formats, depths and sizes through the engine, the CPU's", tag "[synthetic]")              \
    {                                                                                                              \
        ::vmaf::test::parity::run_synthetic(fn());                                                                 \
    }                                                                                                              \
    TEST_CASE(#name ": inputs the twin declines", tag "[declines]")                                              \
    {                                                                                                              \
        ::vmaf::test::parity::run_declines(fn());                                                                  \
    }                                                                                                              \
    TEST_CASE(#name ": the C API with a Vulkan state, the CPU context's", tag "[c_api]")                         \
    {                                                                                                              \
        ::vmaf::test::parity::run_c_api(fn());                                                                     \
    }                                                                                                              \
    TEST_CASE(#name ": the Vulkan import API, host pictures' scores", tag "[import]")                            \
    {                                                                                                              \
        ::vmaf::test::parity::run_import_api(fn());                                                                \
    }
