// SPDX-License-Identifier: BSD-2-Clause-Patent
// vmaf_bench: throughput of one feature set on one backend and picture path at a
// time. The sets (--features) are the vmaf tool's: vmaf_v0.6.1 + PSNR (what `vmaf
// -m version=vmaf_v0.6.1 --feature psnr` computes, the default), a VMAF v1 model
// (v1: vmaf_v1.0.16_3d0h, v1=VARIANT for vmaf_v1.0.16_VARIANT: its cambi, adm3,
// motion3 and speed_chroma), or the models and features of its --aom_ctc /
// --nflx_ctc presets (cli_presets.cpp). The paths:
//   cpu                 host pictures, CPU extractors (--threads)
//   vulkan-host         host pictures, Vulkan state (upload included)
//   vulkan-device-pool  pictures from a DEVICE pool, filled by the host
//   vulkan-import       frames already in VkImages of the caller's own device
// Frames are a short cycle held in memory (synthetic, or the first --ring frames
// of two .y4m files), so the disk and the decoder are out of the measurement.
// Reports wall time, frames per second, host CPU time per frame (the whole
// process: worker threads and, on a CPU Vulkan driver, the driver too), GPU time
// per frame from the engine's timestamps, the mean scores, and which features ran
// on the GPU and which on the CPU. --profile: GPU time per feature and stage.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>
#include <string>

#include "bench_frames.h"
#include "bench_modes.h"
#include "options/cli_options.h"
#include "options/cli_presets.h"
#include "io/utf8_args.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_introspect.h"
#include "os/os.h"

namespace vmaf::bench {

namespace {

constexpr const char *kModel = "vmaf_v0.6.1";

struct Options {
    Mode mode = Mode::Cpu;
    unsigned width = 1920, height = 1080;
    unsigned frames = 300, warmup = 10;
    unsigned threads = 1;
    unsigned ring = 8;       // distinct frame pairs, cycled
    unsigned soak = 0;       // memory and open-file samples over the timed frames
    // What is computed: --features SET, or only the --feature extractors (no model).
    std::string set = "vmaf";
    bool set_given = false;  // --features named: --feature adds to the set
    std::vector<std::string> features;
    bool profile = false;
    std::string ref, dist, model_dir, json;
    std::string write_ref, write_dist;  // --write-y4m: write the synthetic frames, score nothing
    DeviceOptions dev;
};

struct Result {
    std::string device = "cpu";
    double wall_s = 0, cpu_s = 0;
    // The timed frames' window on the system clock (seconds since the epoch):
    // runs of several processes overlap where their windows do.
    double timed_from = 0, timed_to = 0;
    uint64_t gpu_frames = 0;
    double gpu_ms = 0;                   // mean over the timed frames
    double gpu_min_ms = 0, gpu_max_ms = 0;  // over every frame, warm-up included
    double vmaf = NAN, psnr_y = NAN;
    std::vector<std::pair<std::string, double>> models;  // output name, mean score
    std::vector<std::pair<std::string, double>> means;   // every stored score's mean
    // Where the extractors ran (requested order).
    Placement placement;
    std::vector<std::string> gpu, cpu;
    GpuProfile profile;  // the timed frames' (parts' totals over profile.frames)
    unsigned validation_messages = 0;
    struct Sample {
        unsigned frame;
        uint64_t rss, gpu;  // bytes
        int fds;
    };
    std::vector<Sample> soak;
    int fds_start = -1, fds_end = -1;  // before the context (and device) exist, after they are gone
    // Per timed frame whose score came before the flush: seconds from its
    // submission (feed) returning to the first return of a later feed after
    // which its score could be read. What a caller that polls after each
    // frame waits; sorted.
    std::vector<double> latency;
};

// The q-quantile of sorted values (nearest rank).
double quantile(const std::vector<double> &sorted, double q)
{
    if (sorted.empty()) return NAN;
    const size_t i = std::min(sorted.size() - 1, size_t(q * double(sorted.size())));
    return sorted[i];
}

// Resident memory of this process, bytes.
uint64_t rss_bytes() { return os::resident_bytes(); }

// Open file descriptors of this process.
int open_fds() { return os::open_handles(); }

void usage(std::FILE *f)
{
    std::fprintf(f,
                 "usage: vmaf_bench [options]\n"
                 "  --mode M          cpu | vulkan-host | vulkan-device-pool | vulkan-import (default cpu)\n"
                 "  --width W --height H   synthetic frame size (default 1920x1080)\n"
                 "  --ref F.y4m --dist F.y4m   score these instead (their first --ring frames)\n"
                 "  --frames N        timed frames (default 300)\n"
                 "  --write-y4m R D   write --frames synthetic frames (--width x --height) to the\n"
                 "                    .y4m files R and D, score nothing (for runs of the vmaf tool)\n"
                 "  --warmup K        frames before timing starts (default 10)\n"
                 "  --ring R          distinct frame pairs, cycled (default 8)\n"
                 "  --threads T       CPU frame threads (default 1)\n"
                 "  --in-flight N     frames queued on the GPU (default: the library's, 3)\n"
                 "  --device D        Vulkan device index or name substring\n"
                 "  --import-layout L vulkan-import images: auto (default), 3plane (one\n"
                 "                    G8_B8_R8_3PLANE_420 image per picture) or r8 (an R8 image per plane)\n"
                 "  --import-queue Q  vulkan-import: the queue family the program shares with the\n"
                 "                    library: compute (default; a compute-only family where there is\n"
                 "                    one, as FFmpeg's filter picks) or graphics (a renderer's)\n"
                 "  --model-dir DIR   where the models are (default: $VMAF_MODEL_DIR, else the built-in)\n"
                 "  --validation      Khronos validation layer on; any message fails the run\n"
                 "  --json FILE       also write the result as one JSON object ('-': stdout)\n"
                 "  --features SET    what is computed: vmaf (vmaf_v0.6.1 + psnr, default), aom_ctc\n"
                 "                    (the vmaf tool's --aom_ctc v7.0 models and features) or nflx_ctc\n"
                 "                    (--nflx_ctc v1.0); aom_ctc=VERSION, nflx_ctc=VERSION for another\n"
                 "                    version of the preset; v1 (the VMAF v1 model vmaf_v1.0.16_3d0h\n"
                 "                    alone), v1=VARIANT for vmaf_v1.0.16_VARIANT (5d0h, 3d0h_2160,\n"
                 "                    1d5h_2160) (--set is the same option)\n"
                 "  --feature NAME[=OPT=VAL:...]  only this feature, no model (repeatable); beside\n"
                 "                    an explicit --features SET, the set and this feature\n"
                 "  --profile         GPU time per feature and stage (Vulkan modes, a queue with\n"
                 "                    timestamps): the features of a stage run one after another\n"
                 "  --soak N          sample memory (RSS, device) and open files N times over the\n"
                 "                    timed frames, and open files before and after (scripts/soak.sh)\n");
}

bool parse_unsigned(const char *s, unsigned *out)
{
    // Digits only: strtoul alone would take a sign or leading spaces.
    if (!*s || std::strspn(s, "0123456789") != std::strlen(s)) return false;
    char *end = nullptr;
    errno = 0;
    const unsigned long v = std::strtoul(s, &end, 10);
    if (errno || *end || v > 1u << 20) return false;
    *out = unsigned(v);
    return true;
}

// Returns 0, or 2 with a message on a bad command line (1 after --help: exit 0).
int parse_options(int argc, char **argv, Options *o)
{
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return 1;
        }
        if (a == "--validation") {
            o->dev.validation = true;
            continue;
        }
        if (a == "--profile") {
            o->profile = true;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "vmaf_bench: %s needs a value\n", a.c_str());
            return 2;
        }
        const char *v = argv[++i];
        struct {
            const char *name;
            unsigned *dst;
        } numbers[] = {{"--width", &o->width},   {"--height", &o->height},   {"--frames", &o->frames},
                       {"--warmup", &o->warmup}, {"--threads", &o->threads}, {"--ring", &o->ring},
                       {"--in-flight", &o->dev.in_flight}, {"--soak", &o->soak}};
        bool done = false;
        for (const auto &n : numbers) {
            if (a != n.name) continue;
            if (!parse_unsigned(v, n.dst)) {
                std::fprintf(stderr, "vmaf_bench: %s: not a count: '%s'\n", a.c_str(), v);
                return 2;
            }
            done = true;
        }
        if (done) continue;
        if (a == "--mode") {
            if (!parse_mode(v, &o->mode)) {
                std::fprintf(stderr, "vmaf_bench: unknown mode '%s'\n", v);
                return 2;
            }
        } else if (a == "--features" || a == "--set") {
            o->set = v;
            o->set_given = true;
        } else if (a == "--feature") {
            o->features.push_back(v);
        } else if (a == "--write-y4m") {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "vmaf_bench: --write-y4m needs two files\n");
                return 2;
            }
            o->write_ref = v;
            o->write_dist = argv[++i];
        } else if (a == "--ref") {
            o->ref = v;
        } else if (a == "--dist") {
            o->dist = v;
        } else if (a == "--model-dir") {
            o->model_dir = v;
        } else if (a == "--json") {
            o->json = v;
        } else if (a == "--device") {
            o->dev.device = v;
        } else if (a == "--import-layout") {
            o->dev.import_layout = v;
            if (o->dev.import_layout != "auto" && o->dev.import_layout != "3plane" && o->dev.import_layout != "r8") {
                std::fprintf(stderr, "vmaf_bench: --import-layout: auto, 3plane or r8, not '%s'\n", v);
                return 2;
            }
        } else if (a == "--import-queue") {
            o->dev.import_queue = v;
            if (o->dev.import_queue != "compute" && o->dev.import_queue != "graphics") {
                std::fprintf(stderr, "vmaf_bench: --import-queue: compute or graphics, not '%s'\n", v);
                return 2;
            }
        } else {
            std::fprintf(stderr, "vmaf_bench: unknown option %s (--help lists them)\n", a.c_str());
            return 2;
        }
    }
    if (o->ref.empty() != o->dist.empty()) {
        std::fprintf(stderr, "vmaf_bench: --ref and --dist go together\n");
        return 2;
    }
    if (o->ref.empty() && (o->width < 16 || o->height < 16 || o->width > 16384 || o->height > 16384)) {
        std::fprintf(stderr, "vmaf_bench: bad size %ux%u (16 to 16384 each way)\n", o->width, o->height);
        return 2;
    }
    if (o->frames == 0 || o->ring == 0) {
        std::fprintf(stderr, "vmaf_bench: --frames and --ring must be at least 1\n");
        return 2;
    }
    return 0;
}

// What one run computes: models (by version) and features, in the vmaf tool's
// terms; the presets come from its own table.
struct FeatureSet {
    std::string label;  // "vmaf", "aom_ctc v7.0", "feature psnr"
    std::vector<cli::ModelSpec> models;
    std::vector<cli::FeatureSpec> features;
};

// The models and features of --features SET (the vmaf tool's own presets).
int make_preset(const Options &o, FeatureSet *set, std::string *err)
{
    if (o.set == "vmaf") {
        set->label = "vmaf";
        cli::ModelSpec model;
        model.version = kModel;
        set->models.push_back(std::move(model));
        cli::FeatureSpec psnr;
        psnr.name = "psnr";
        set->features.push_back(std::move(psnr));
        return 0;
    }
    const size_t eq = o.set.find('=');
    const std::string family = o.set.substr(0, eq);
    std::string version = eq == std::string::npos ? "" : o.set.substr(eq + 1);
    if (family == "v1") {
        // A VMAF v1 model by name (the vmaf tool's -m version=vmaf_v1.0.16_VARIANT).
        set->label = "v1 " + (version.empty() ? std::string("3d0h") : version);
        cli::ModelSpec model;
        model.version = "vmaf_v1.0.16_" + (version.empty() ? std::string("3d0h") : version);
        set->models.push_back(std::move(model));
        return 0;
    }
    if (family == "aom_ctc" && version.empty()) version = "v7.0";
    if (family == "nflx_ctc" && version.empty()) version = "v1.0";
    if (family != "aom_ctc" && family != "nflx_ctc") {
        *err = "--features: vmaf, v1[=VARIANT], aom_ctc[=VERSION] or nflx_ctc[=VERSION], not '" + o.set + "'";
        return 2;
    }
    cli::Options preset;
    if (cli::apply_preset(family, version, &preset, err)) return 2;
    set->label = family + " " + version;
    set->models = std::move(preset.models);
    set->features = std::move(preset.features);
    return 0;
}

// --feature alone computes those features and no model; beside an explicit
// --features SET it adds them to the set (one pass, as the vmaf tool's
// -m version=... --feature ... does).
int make_feature_set(const Options &o, FeatureSet *set, std::string *err)
{
    const bool with_set = o.set_given || o.features.empty();
    if (!with_set) set->label = "feature";
    else if (const int rc = make_preset(o, set, err)) return rc;
    for (const std::string &f : o.features) {
        cli::FeatureSpec spec;
        if (cli::parse_feature(f.c_str(), &spec, err)) return 2;
        set->label += with_set ? " + " + f : (set->features.empty() ? " " : ", ") + f;
        set->features.push_back(std::move(spec));
    }
    return 0;
}

// "models vmaf_v0.6.1, vmaf_v0.6.1neg; features psnr, ciede"
std::string describe(const FeatureSet &set)
{
    std::string models, features;
    for (const cli::ModelSpec &m : set.models) models += (models.empty() ? "" : ", ") + m.version;
    for (const cli::FeatureSpec &f : set.features) features += (features.empty() ? "" : ", ") + f.name;
    std::string s;
    if (!models.empty()) s += "models " + models;
    if (!features.empty()) s += (s.empty() ? "" : "; ") + std::string("features ") + features;
    return s;
}

double process_cpu_seconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

double epoch_seconds()
{
    timespec t{};
    clock_gettime(CLOCK_REALTIME, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

double wall_seconds()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

int load_model(const Options &o, const cli::ModelSpec &spec, VmafModel **model, std::string *err)
{
    const char *version = spec.version.c_str();
    VmafModelConfig cfg{};
    cfg.name = spec.name.c_str();
    cfg.flags = spec.flags;
    int e;
    std::string where;
    if (!o.model_dir.empty()) {
        where = o.model_dir + "/" + version + ".json";
        // A family in a folder of its own (vmaf_v1.0.16/vmaf_v1.0.16_3d0h.json),
        // as the library's own lookup allows.
        const std::string family = spec.version.substr(0, spec.version.find('_', 5));  // vmaf_vX.Y.Z
        const std::string nested = o.model_dir + "/" + family + "/" + version + ".json";
        if (!std::filesystem::exists(where) && std::filesystem::exists(nested)) where = nested;
        e = vmaf_model_load_from_path(model, &cfg, where.c_str());
    } else {
        const char *env = std::getenv("VMAF_MODEL_DIR");
        where = std::string(version) + " (in " + (env && *env ? env : "the built-in model directory") + ")";
        e = vmaf_model_load(model, &cfg, version);
    }
    if (e) *err = "cannot load model " + where + ": " + errno_text(e) + " (--model-dir DIR or VMAF_MODEL_DIR)";
    return e;
}

// The names of the scores the context stores, in its order.
std::vector<std::string> score_names(VmafContext *vmaf)
{
    std::vector<std::string> names;
    unsigned count = 0;
    if (vmaf_feature_score_count(vmaf, &count)) return names;
    for (unsigned i = 0; i < count; i++) {
        char name[256];
        if (vmaf_feature_score_name(vmaf, i, name, sizeof name) == 0) names.emplace_back(name);
    }
    return names;
}

// The timed frames' share of a profile: `after` less `before` (the warm-up's;
// empty when the engine had not started).
GpuProfile profile_between(const GpuProfile &before, const GpuProfile &after)
{
    GpuProfile p = after;
    p.frames -= before.frames;
    p.total_ms -= before.total_ms;
    for (size_t i = 0; i < p.parts.size() && i < before.parts.size(); i++) p.parts[i].total_ms -= before.parts[i].total_ms;
    return p;
}

// Warm-up frames, then the timed ones, then the flush; scores of every frame.
int run_frames(const Options &o, Feeder &feeder, VmafContext *vmaf, const std::vector<VmafModel *> &models,
               const FeatureSet &set, Result *r, std::string *err)
{
    const unsigned total = o.warmup + o.frames;
    for (unsigned i = 0; i < o.warmup; i++)
        if (int e = feeder.feed(vmaf, i, err)) return e;
    if (int e = feeder.drain(vmaf)) {
        *err = "waiting for the warm-up frames: " + errno_text(e);
        return e;
    }
    const GpuTime before = gpu_time(vmaf);
    const GpuProfile profile_before = gpu_profile(vmaf);
    const double wall0 = wall_seconds(), cpu0 = process_cpu_seconds();
    r->timed_from = epoch_seconds();
    const unsigned every = o.soak ? std::max(1u, o.frames / o.soak) : 0;
    // Latency: a score every frame has as soon as the frame is done (the warm-up
    // stored them all by now); PSNR where it is computed (motion scores come a
    // frame late).
    const std::vector<std::string> names = score_names(vmaf);
    const bool psnr = std::find(names.begin(), names.end(), "psnr_y") != names.end();
    const std::string probe = psnr ? "psnr_y" : names.empty() ? std::string() : names.front();
    std::vector<double> submitted(total, 0.0);
    unsigned next_seen = o.warmup;
    for (unsigned i = o.warmup; i < total; i++) {
        if (every && (i - o.warmup) % every == 0)
            r->soak.push_back({i, rss_bytes(), gpu_memory_bytes(vmaf), open_fds()});
        if (int e = feeder.feed(vmaf, i, err)) return e;
        const double now = wall_seconds();
        submitted[i] = now;
        double v;
        while (!probe.empty() && next_seen <= i &&
               vmaf_feature_score_at_index(vmaf, probe.c_str(), &v, next_seen) == 0)
            r->latency.push_back(now - submitted[next_seen++]);
    }
    std::sort(r->latency.begin(), r->latency.end());
    if (int e = vmaf_read_pictures(vmaf, nullptr, nullptr, 0)) {
        *err = "flush: " + errno_text(e);
        return e;
    }
    r->wall_s = wall_seconds() - wall0;
    r->timed_to = epoch_seconds();
    r->cpu_s = process_cpu_seconds() - cpu0;
    const GpuTime after = gpu_time(vmaf);
    r->gpu_frames = after.frames - before.frames;
    if (r->gpu_frames) r->gpu_ms = (after.total_ms - before.total_ms) / double(r->gpu_frames);
    r->gpu_min_ms = after.min_ms;
    r->gpu_max_ms = after.max_ms;
    r->profile = profile_between(profile_before, gpu_profile(vmaf));
    for (size_t m = 0; m < models.size(); m++) {
        double v = NAN;
        if (int e = vmaf_score_pooled(vmaf, models[m], VMAF_POOL_METHOD_MEAN, &v, 0, total - 1)) {
            *err = "vmaf_score_pooled(" + set.models[m].version + "): " + errno_text(e);
            return e;
        }
        r->models.push_back({set.models[m].name, v});
        if (m == 0) r->vmaf = v;
    }
    // Every stored score's mean (model scores, now stored, included).
    for (const std::string &name : score_names(vmaf)) {
        double v = NAN;
        if (int e = vmaf_feature_score_pooled(vmaf, name.c_str(), VMAF_POOL_METHOD_MEAN, &v, 0, total - 1)) {
            *err = "the mean of " + name + ": " + errno_text(e);
            return e;
        }
        r->means.push_back({name, v});
        if (name == "psnr_y") r->psnr_y = v;
    }
    // Where each requested extractor ran: on the GPU if the engine has it.
    r->placement = placement(vmaf);
    std::vector<std::string> asked;
    auto ask = [&](const char *extractor) {
        if (extractor && std::find(asked.begin(), asked.end(), extractor) == asked.end()) asked.push_back(extractor);
    };
    for (VmafModel *m : models) {
        unsigned count = 0;
        vmaf_model_feature_count(m, &count);
        for (unsigned i = 0; i < count; i++) {
            const char *extractor = nullptr;
            if (vmaf_model_feature_extractor(m, i, &extractor) == 0) ask(extractor);
        }
    }
    for (const cli::FeatureSpec &f : set.features) {
        const char *extractor = nullptr;
        if (vmaf_feature_extractor_name(f.name.c_str(), &extractor) == 0) ask(extractor);
    }
    for (const std::string &name : asked) (on_gpu(vmaf, name) ? r->gpu : r->cpu).push_back(name);
    r->device = feeder.device();
    r->validation_messages = feeder.validation_messages(vmaf);
    return 0;
}

int run(const Options &o, const FeatureSet &set, const FrameCycle &frames, Result *r, std::string *err)
{
    std::vector<VmafModel *> models;
    auto free_models = [&models] {
        for (VmafModel *m : models) vmaf_model_destroy(m);
        models.clear();
    };
    for (const cli::ModelSpec &spec : set.models) {
        VmafModel *m = nullptr;
        if (int e = load_model(o, spec, &m, err)) {
            free_models();
            return e;
        }
        models.push_back(m);
    }
    r->fds_start = open_fds();
    std::unique_ptr<Feeder> feeder = make_feeder(o.mode, o.dev, frames, err);
    if (!feeder) {
        free_models();
        return -ENOSYS;
    }
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_WARNING;
    cfg.n_threads = o.threads;
    VmafContext *vmaf = nullptr;
    int e = vmaf_init(&vmaf, cfg);
    if (e) *err = "vmaf_init: " + errno_text(e);
    for (size_t m = 0; m < models.size() && !e; m++)
        if ((e = vmaf_use_features_from_model(vmaf, models[m])))
            *err = "vmaf_use_features_from_model(" + set.models[m].version + "): " + errno_text(e);
    for (const cli::FeatureSpec &f : set.features) {
        if (e) break;
        VmafFeatureDictionary *d = nullptr;
        for (const auto &[k, v] : f.opts) vmaf_feature_dictionary_set(&d, k.c_str(), v.c_str());
        if ((e = vmaf_use_feature(vmaf, f.name.c_str(), d))) *err = "vmaf_use_feature(" + f.name + "): " + errno_text(e);
    }
    if (!e) e = feeder->attach(vmaf, err);
    if (!e && o.profile) enable_profile(vmaf);  // before the first frame starts the engine
    if (!e) e = run_frames(o, *feeder, vmaf, models, set, r, err);
    if (vmaf) vmaf_close(vmaf);
    feeder.reset();  // after the context: it may own the device the context used
    free_models();
    r->fds_end = open_fds();
    return e;
}

// JSON string contents: names and device strings carry no control characters.
std::string quoted(const std::string &s)
{
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        q += c;
    }
    return q + "\"";
}

std::string number(double v)
{
    char buf[64];
    if (std::isfinite(v)) std::snprintf(buf, sizeof buf, "%.6f", v);
    else std::snprintf(buf, sizeof buf, "null");
    return buf;
}

std::string string_list(const std::vector<std::string> &v)
{
    std::string s = "[";
    for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + quoted(v[i]);
    return s + "]";
}

std::string means_object(const std::vector<std::pair<std::string, double>> &v)
{
    std::string s = "{";
    for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + quoted(v[i].first) + ": " + number(v[i].second);
    return s + "}";
}

// Mean GPU ms per frame of each part, and the features' sums over their stages.
std::string profile_json(const GpuProfile &p)
{
    if (!p.frames) return "null";
    const double n = double(p.frames);
    std::string s = "{\"serialized\": true, \"frames\": " + std::to_string(p.frames) +
                    ", \"total_ms\": " + number(p.total_ms / n) + ", \"parts\": [";
    for (size_t i = 0; i < p.parts.size(); i++) {
        const GpuProfile::Part &q = p.parts[i];
        s += std::string(i ? ", " : "") + "{\"part\": " + quoted(q.name) + ", \"stage\": " +
             (q.stage < 0 ? std::string("null") : std::to_string(q.stage)) +
             ", \"carried\": " + (q.carried ? "true" : "false") + ", \"ms\": " + number(q.total_ms / n) + "}";
    }
    return s + "]}";
}

void print_json(std::FILE *f, const Options &o, const FeatureSet &set, const FrameCycle &frames, const Result &r)
{
    const VmafPicture &p = frames.ref(0);
    std::fprintf(f,
                 "{\"mode\": \"%s\", \"width\": %u, \"height\": %u, \"frames\": %u, \"warmup\": %u, "
                 "\"ring\": %u, \"source\": \"%s\", \"threads\": %u, \"in_flight\": %u, \"device\": %s, "
                 "\"wall_s\": %s, \"timed_from\": %.6f, \"timed_to\": %.6f, \"fps\": %s, \"host_cpu_ms_per_frame\": %s, \"gpu_ms_per_frame\": %s, "
                 "\"gpu_frames\": %llu, \"gpu_ms_min\": %s, \"gpu_ms_max\": %s, \"vmaf_mean\": %s, "
                 "\"psnr_y_mean\": %s, \"validation_messages\": %u, \"features\": %s, \"model_means\": %s, "
                 "\"gpu_features\": %s, \"cpu_features\": %s, \"cpu_from_gpu_copies\": %s, "
                 "\"score_means\": %s, \"latency_ms\": {\"frames\": %zu, \"median\": %s, \"p99\": %s, "
                 "\"max\": %s}, \"profile\": %s}\n",
                 mode_name(o.mode), p.w[0], p.h[0], o.frames, o.warmup, frames.size(),
                 o.ref.empty() ? "synthetic" : "y4m", o.threads, o.dev.in_flight, quoted(r.device).c_str(),
                 number(r.wall_s).c_str(), r.timed_from, r.timed_to, number(o.frames / r.wall_s).c_str(), number(1e3 * r.cpu_s / o.frames).c_str(),
                 number(r.gpu_frames ? r.gpu_ms : NAN).c_str(), (unsigned long long)r.gpu_frames,
                 number(r.gpu_frames ? r.gpu_min_ms : NAN).c_str(), number(r.gpu_frames ? r.gpu_max_ms : NAN).c_str(),
                 number(r.vmaf).c_str(), number(r.psnr_y).c_str(), r.validation_messages, quoted(set.label).c_str(),
                 means_object(r.models).c_str(), string_list(r.gpu).c_str(), string_list(r.cpu).c_str(),
                 r.placement.host_copies ? "true" : "false", means_object(r.means).c_str(), r.latency.size(),
                 number(1e3 * quantile(r.latency, 0.5)).c_str(), number(1e3 * quantile(r.latency, 0.99)).c_str(),
                 number(1e3 * quantile(r.latency, 1.0)).c_str(), profile_json(r.profile).c_str());
}

std::string join(const std::vector<std::string> &v)
{
    std::string s;
    for (const std::string &x : v) s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? "none" : s;
}

// The profile as a markdown table: mean GPU ms per frame of each part, the
// features' sums over their stages, and the whole frame.
void print_profile(const Options &o, const Result &r)
{
    if (o.mode == Mode::Cpu) {
        std::printf("GPU profile: none (the cpu mode has no GPU)\n");
        return;
    }
    const GpuProfile &p = r.profile;
    if (!p.frames || p.parts.empty()) {
        std::printf("GPU profile: none (%s)\n", r.placement.engine ? "this queue writes no timestamps"
                                                                  : "no GPU engine ran");
        return;
    }
    const double n = double(p.frames), total = p.total_ms / n;
    std::printf("\nGPU profile, mean ms per frame over %llu frames. Profile mode runs the features of a stage one "
                "after another, each alone, so the total is longer than without --profile.\n\n",
                (unsigned long long)p.frames);
    std::printf("| part | stage | GPU ms/frame | share |\n|---|---:|---:|---:|\n");
    auto row = [total](const std::string &part, const std::string &stage, double ms) {
        std::printf("| %s | %s | %.4f | %.1f%% |\n", part.c_str(), stage.c_str(), ms, total > 0 ? 100 * ms / total : 0.0);
    };
    for (const GpuProfile::Part &q : p.parts)
        row(q.name, q.stage < 0 ? "" : std::to_string(q.stage) + (q.carried ? ", carried" : ""), q.total_ms / n);
    // Features with more than one stage: their sum.
    std::vector<std::string> seen;
    for (const GpuProfile::Part &q : p.parts) {
        if (q.stage < 0 || std::find(seen.begin(), seen.end(), q.name) != seen.end()) continue;
        seen.push_back(q.name);
        double sum = 0;
        unsigned stages = 0;
        for (const GpuProfile::Part &x : p.parts)
            if (x.stage >= 0 && x.name == q.name) sum += x.total_ms, stages++;
        if (stages > 1) row(q.name, "all", sum / n);
    }
    row("total", "", total);
}

int main_impl(int argc, char **argv)
{
    Options o;
    if (int e = parse_options(argc, argv, &o)) return e == 1 ? 0 : 2;

    std::string err;
    FeatureSet set;
    if (make_feature_set(o, &set, &err)) {
        std::fprintf(stderr, "vmaf_bench: %s\n", err.c_str());
        return 2;
    }
    if (!o.write_ref.empty()) {
        if (write_synthetic_y4m(o.width, o.height, o.frames, o.write_ref, o.write_dist, &err)) {
            std::fprintf(stderr, "vmaf_bench: %s\n", err.c_str());
            return 1;
        }
        return 0;
    }
    FrameCycle frames;
    const int fe = o.ref.empty() ? frames.make_synthetic(o.width, o.height, o.ring, &err)
                                 : frames.read_y4m(o.ref, o.dist, o.ring, &err);
    if (fe) {
        std::fprintf(stderr, "vmaf_bench: %s\n", err.c_str());
        return 1;
    }
    Result r;
    if (run(o, set, frames, &r, &err)) {
        std::fprintf(stderr, "vmaf_bench: %s: %s\n", mode_name(o.mode), err.c_str());
        return 1;
    }
    const VmafPicture &p = frames.ref(0);
    char gpu[64] = "n/a";
    if (r.gpu_frames) std::snprintf(gpu, sizeof gpu, "%.3f ms/frame", r.gpu_ms);
    std::printf("vmaf_bench: %s %ux%u, %u frames: %.2f fps (%.3f s), host CPU %.3f ms/frame, GPU %s, "
                "VMAF %.6f, PSNR-Y %.6f [%s]\n",
                mode_name(o.mode), p.w[0], p.h[0], o.frames, o.frames / r.wall_s, r.wall_s,
                1e3 * r.cpu_s / o.frames, gpu, r.vmaf, r.psnr_y, r.device.c_str());
    std::printf("features: %s (%s)\n", set.label.c_str(), describe(set).c_str());
    if (!r.latency.empty())
        std::printf("latency, submission to score (%zu frames): median %.3f ms, p99 %.3f ms, max %.3f ms\n",
                    r.latency.size(), 1e3 * quantile(r.latency, 0.5), 1e3 * quantile(r.latency, 0.99),
                    1e3 * quantile(r.latency, 1.0));
    if (o.mode == Mode::Cpu)
        std::printf("  on the CPU: %s\n", join(r.cpu).c_str());
    else
        std::printf("  on the GPU: %s\n  on the CPU (%s): %s\n", join(r.gpu).c_str(),
                    r.placement.host_copies ? "from host copies the GPU made of its frames" : "from the host pictures",
                    join(r.cpu).c_str());
    if (r.models.size() > 1) {
        std::string scores;
        for (const auto &[name, v] : r.models) scores += (scores.empty() ? "" : ", ") + name + " " + number(v);
        std::printf("  mean scores: %s\n", scores.c_str());
    }
    if (o.profile) print_profile(o, r);
    if (!r.soak.empty()) {
        // Memory over the run: per-frame growth from the first to the last sample
        // (libvmaf's per-frame score storage grows by design), and open files.
        for (const Result::Sample &s : r.soak)
            std::printf("soak: frame %u rss %.1f MiB gpu %.1f MiB fds %d\n", s.frame, s.rss / 1048576.0,
                        s.gpu / 1048576.0, s.fds);
        // From the second sample: until then frame threads and their per-thread
        // buffers are still being made (a one-time rise, not a trend).
        const Result::Sample &a = r.soak.size() >= 3 ? r.soak[1] : r.soak.front(), &b = r.soak.back();
        const double frames_between = b.frame > a.frame ? double(b.frame - a.frame) : 1.0;
        std::printf("soak: rss %+.1f bytes/frame, gpu %+.1f bytes/frame over %u frames (from frame %u); open "
                    "files %d before, %d after\n", (double(b.rss) - double(a.rss)) / frames_between,
                    (double(b.gpu) - double(a.gpu)) / frames_between, b.frame - a.frame, a.frame, r.fds_start,
                    r.fds_end);
    }
    if (!o.json.empty()) {
        std::FILE *f = o.json == "-" ? stdout : os::open_file(o.json, "w");
        if (!f) {
            std::fprintf(stderr, "vmaf_bench: cannot write %s: %s\n", o.json.c_str(), std::strerror(errno));
            return 1;
        }
        print_json(f, o, set, frames, r);
        if (f != stdout) std::fclose(f);
    }
    if (o.dev.validation && r.validation_messages) {
        std::fprintf(stderr, "vmaf_bench: %u validation message(s)\n", r.validation_messages);
        return 1;
    }
    return 0;
}

}  // namespace

}  // namespace vmaf::bench

int main(int argc, char **argv)
{
    vmaf::io::Utf8Args utf8_args(argc, argv);  // paths in any language on Windows too
    return vmaf::bench::main_impl(utf8_args.argc(), utf8_args.argv());
}
