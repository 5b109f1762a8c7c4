// SPDX-License-Identifier: BSD-2-Clause-Patent
// vmaf: score a distorted video against its reference with the libvmaf C API.
// Options and output follow Netflix libvmaf's tool of the same name (docs/cli.md).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "backend.h"
#include "options/cli_options.h"
#include "hwdec.h"
#include "io/utf8_args.h"
#include "io/video_reader.h"
#include "libvmaf/libvmaf.h"
#include "read_ahead.h"
#include "os/os.h"
#if VMAF_CLI_HAVE_VULKAN
#include "libvmaf/libvmaf_vulkan.h"
#endif

namespace vmaf::cli {

namespace {

[[gnu::format(printf, 1, 2)]] void error(const char *fmt, ...)
{
    std::fputs("vmaf: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fputc('\n', stderr);
}

std::string describe(const io::VideoFormat &f)
{
    return std::to_string(f.w) + "x" + std::to_string(f.h) + " " + io::pix_fmt_name(f.pix_fmt) +
           " " + std::to_string(f.bpc) + "-bit";
}

// ---- input -----------------------------------------------------------------

struct Inputs {
    std::unique_ptr<io::VideoReader> ref, dist;
    // What the pictures hold: the inputs' format, at the deeper bit depth
    // with a common bit depth.
    io::VideoFormat format{};
};

bool has_extension(const std::string &path, const char *ext)
{
    const size_t n = std::strlen(ext);
    return path.size() >= n && path.compare(path.size() - n, n, ext) == 0;
}

// .y4m natively, raw .yuv with -w -h -p -b, anything else through FFmpeg's
// libraries where the build has them.
int open_one(const Options &o, const std::string &path, std::unique_ptr<io::VideoReader> *out)
{
    std::string err;
    int e;
    if (o.raw) {
        e = io::VideoReader::open_raw(path, o.width, o.height, o.pix_fmt, o.bitdepth, out, &err);
    } else if (has_extension(path, ".y4m") || (!io::have_libav() && !has_extension(path, ".yuv"))) {
        e = io::VideoReader::open_y4m(path, out, &err);
        if (e && e != -ENOENT && !has_extension(path, ".y4m"))
            err += " (this vmaf reads .y4m, and raw .yuv with -w, -h, -p and -b; other files need a build "
                   "with FFmpeg's libraries, docs/cli.md)";
    } else if (has_extension(path, ".yuv")) {
        e = -EINVAL;
        err = path + ": raw .yuv input needs -w, -h, -p and -b";
    } else {
        e = io::open_libav(path, out, &err, o.allow_truncated);
    }
    if (!e) return 0;
    error("%s", err.c_str());
    return kExitInput;
}

// What to do about two inputs that differ.
std::string how_to_match(const io::VideoFormat &a, const io::VideoFormat &b)
{
    std::string fix;
    if (a.w != b.w || a.h != b.h)
        fix += " Scale the distorted video to the reference's size first (e.g. ffmpeg -i DIST -vf scale=" +
               std::to_string(a.w) + ":" + std::to_string(a.h) + " -pix_fmt ... dist.y4m).";
    if (a.pix_fmt != b.pix_fmt)
        fix += " Convert both to one chroma layout (e.g. ffmpeg -pix_fmt yuv420p).";
    if (a.bpc != b.bpc)
        fix += " Convert both to one bit depth, or score them at the deeper one with --aom_ctc v6.0 or later.";
    return fix;
}

int open_inputs(const Options &o, Inputs *in)
{
    if (int e = open_one(o, o.ref_path, &in->ref)) return e;
    if (int e = open_one(o, o.dist_path, &in->dist)) return e;
    const io::VideoFormat &a = in->ref->format(), &b = in->dist->format();
    if (a.w != b.w || a.h != b.h || a.pix_fmt != b.pix_fmt ||
        (a.bpc != b.bpc && !o.common_bitdepth)) {
        error("reference and distorted videos differ: %s is %s, %s is %s.%s", o.ref_path.c_str(),
              describe(a).c_str(), o.dist_path.c_str(), describe(b).c_str(), how_to_match(a, b).c_str());
        return kExitInput;
    }
    // Frames are paired one for one: inputs at different frame rates are
    // named (each is read in presentation order; docs/cli.md).
    const io::VideoReader &r = *in->ref, &d = *in->dist;
    if (r.rate_den() && d.rate_den() && uint64_t(r.rate_num()) * d.rate_den() != uint64_t(d.rate_num()) * r.rate_den())
        std::fprintf(stderr, "vmaf: warning: %s is %u/%u frames a second, %s is %u/%u: frames are paired one for "
                     "one, in order, not by time\n", o.ref_path.c_str(), r.rate_num(), r.rate_den(),
                     o.dist_path.c_str(), d.rate_num(), d.rate_den());
    in->format = a;
    // libvmaf's tool sizes its pictures at the deeper depth but reads the
    // shallower file's bytes unconverted; here its samples are shifted up.
    in->format.bpc = std::max(a.bpc, b.bpc);
    return 0;
}

// ---- context, models, features --------------------------------------------

struct ContextHandle {
    VmafContext *v = nullptr;
    ~ContextHandle() { if (v) vmaf_close(v); }
};

// The loaded models: a plain model, or a bootstrap collection with its main model.
struct LoadedModel {
    const ModelSpec *spec;
    VmafModel *model = nullptr;
    VmafModelCollection *collection = nullptr;
};

struct Models {
    std::vector<LoadedModel> list;
    ~Models()
    {
        for (LoadedModel &m : list) {
            if (m.model) vmaf_model_destroy(m.model);
            if (m.collection) vmaf_model_collection_destroy(m.collection);
        }
    }
};

VmafFeatureDictionary *make_dict(const KeyValues &kv)
{
    VmafFeatureDictionary *d = nullptr;
    for (const auto &[k, v] : kv)
        if (vmaf_feature_dictionary_set(&d, k.c_str(), v.c_str())) {
            vmaf_feature_dictionary_free(&d);
            return nullptr;
        }
    return d;
}

// Load as a plain model first, then as a collection (libvmaf's -m takes both).
int load_model(const ModelSpec &spec, LoadedModel *out)
{
    VmafModelConfig cfg{spec.name.c_str(), spec.flags};
    const bool by_version = !spec.version.empty();
    const char *what = by_version ? spec.version.c_str() : spec.path.c_str();
    int err = by_version ? vmaf_model_load(&out->model, &cfg, what)
                         : vmaf_model_load_from_path(&out->model, &cfg, what);
    if (const int plain_err = err) {
        out->model = nullptr;
        err = by_version ? vmaf_model_collection_load(&out->model, &out->collection, &cfg, what)
                         : vmaf_model_collection_load_from_path(&out->model, &out->collection, &cfg,
                                                                what);
        // The collection attempt is a fallback: report why the model failed.
        if (err) err = plain_err;
    }
    if (err) {
        out->model = nullptr;
        out->collection = nullptr;
        // The library said why (a missing file and bad content are both -EINVAL, as in libvmaf).
        error("could not load model %s: %s", spec.label().c_str(),
              err == -EINVAL ? "no such model, or not a valid model file" : std::strerror(-err));
        return kExitSetup;
    }
    for (const ModelSpec::Overload &ov : spec.overloads) {
        VmafFeatureDictionary *d = make_dict(ov.opts);
        if (!d) return kExitSetup;
        err = out->collection
                  ? vmaf_model_collection_feature_overload(out->model, &out->collection,
                                                           ov.feature.c_str(), d)
                  : vmaf_model_feature_overload(out->model, ov.feature.c_str(), d);
        if (err) {
            error("model %s: could not set options of feature %s", spec.label().c_str(),
                  ov.feature.c_str());
            return kExitSetup;
        }
    }
    return 0;
}

// Load the models (before the context: they load while a Vulkan device is made).
int load_models(const Options &o, Models *models)
{
    for (const ModelSpec &spec : o.models) {
        models->list.push_back({&spec});
        if (int e = load_model(spec, &models->list.back())) return e;
    }
    return 0;
}

// The features of the models and of --feature, on the context.
int setup_scoring(VmafContext *vmaf, const Options &o, const Models &models)
{
    for (const LoadedModel &m : models.list) {
        const int err = m.collection ? vmaf_use_features_from_model_collection(vmaf, m.collection)
                                     : vmaf_use_features_from_model(vmaf, m.model);
        if (err) {
            error("could not set up the features of model %s", m.spec->label().c_str());
            return kExitSetup;
        }
    }
    for (const FeatureSpec &f : o.features) {
        VmafFeatureDictionary *d = nullptr;
        if (!f.opts.empty() && !(d = make_dict(f.opts))) return kExitSetup;
        if (vmaf_use_feature(vmaf, f.name.c_str(), d)) {
            error("could not use feature \"%s\" (unknown name or bad options)", f.name.c_str());
            return kExitSetup;
        }
    }
    return 0;
}

// The context prepare_context() started, with the features.
int make_context(const Options &o, const Models &models, ContextHandle *ctx)
{
    std::string why;
    if (int e = take_context(&ctx->v, &why)) {
        if (!why.empty()) error("%s", why.c_str());
        return e;
    }
    return setup_scoring(ctx->v, o, models);
}

// ---- reading frames --------------------------------------------------------

// "\r12 frames 240.00 FPS" on a terminal's stderr.
class Progress {
public:
    explicit Progress(bool enabled) : enabled_(enabled), start_(Clock::now()) {}
    void frame(unsigned n)
    {
        if (!enabled_) return;
        const double s = std::chrono::duration<double>(Clock::now() - start_).count();
        std::fprintf(stderr, "\r%u frame%s %.2f FPS\033[K", n, n == 1 ? "" : "s", s > 0 ? n / s : 0.0);
        std::fflush(stderr);
    }
    void finish()
    {
        if (enabled_) std::fputc('\n', stderr);
    }

private:
    using Clock = std::chrono::steady_clock;
    bool enabled_;
    Clock::time_point start_;
};

struct PictureHandle {
    VmafPicture pic{};
    bool held = false;
    ~PictureHandle() { if (held) vmaf_picture_unref(&pic); }
};

// vmaf_read_pictures takes both pictures when it succeeds; when it fails they
// are still the caller's (as in libvmaf), and the handles unref them.
int read_pictures(VmafContext *vmaf, PictureHandle &ref, PictureHandle &dist, unsigned index)
{
    const int err = vmaf_read_pictures(vmaf, &ref.pic, &dist.pic, index);
    if (!err) ref.held = dist.held = false;
    return err;
}

int skip_frames(io::VideoReader &r, unsigned n)
{
    if (!n) return 0;
    std::string msg;
    if (r.skip(n, &msg) < 0) {
        error("%s", msg.c_str());
        return kExitInput;
    }
    return 0;
}

// Where empty pictures come from: the context's host pool, or with the Vulkan
// backend its device pool (pictures the GPU copies from; the host copies nothing).
struct PictureSource {
    bool device = false;
    int fetch(VmafContext *vmaf, VmafPicture *pic) const
    {
#if VMAF_CLI_HAVE_VULKAN
        if (device) return vmaf_vulkan_picture_fetch(vmaf, pic);
#endif
        return vmaf_fetch_preallocated_picture(vmaf, pic);
    }
};

// Threads reading each input, and frames each input is read ahead of the frame
// being scored: the pool holds 2 * depth pictures beyond what the library keeps
// (adr/0028-cli-read-ahead.md). With a Vulkan device a .y4m or .yuv file is
// read several frames at once (adr/0045-cli-parallel-reads.md): one thread
// copying from the page cache reads more slowly than the GPU scores. The CPU
// backend scores far more slowly than one thread reads, and more readers
// would only take cores from it. VMAF_CLI_READ_THREADS sets the threads per
// input (1 to 16; docs/cli.md). Called once the backend is chosen.
struct ReadPlan {
    unsigned threads, depth;
};
ReadPlan make_read_plan()
{
    unsigned threads = vulkan_attached() ? std::clamp(std::thread::hardware_concurrency() / 4, 2u, 4u) : 1;
    if (const char *v = std::getenv("VMAF_CLI_READ_THREADS"); v && *v) {
        char *end = nullptr;
        const unsigned long n = std::strtoul(v, &end, 10);
        if (*end || n < 1 || n > 16 || !std::isdigit(static_cast<unsigned char>(*v)))
            std::fprintf(stderr, "vmaf: warning: VMAF_CLI_READ_THREADS=%s is not 1 to 16; using %u\n", v,
                         threads);
        else
            threads = unsigned(n);
    }
    return {threads, std::max(4u, 2 * threads)};
}
const ReadPlan &read_plan()
{
    static const ReadPlan plan = make_read_plan();
    return plan;
}

// Device pictures are write-combined GPU memory: the file is read into a cached
// buffer of this size, then copied (faster than the kernel writing them).
constexpr size_t kDeviceBounce = 256 << 10;

// Feed every frame pair to the context and flush it. *n_frames: pairs read.
// Each input is read on its own threads, up to plan.depth frames ahead; this
// thread makes every library call, in frame order.
int score_frames(VmafContext *vmaf, Inputs &in, const Options &o, const PictureSource &source,
                 bool show_progress, unsigned *n_frames)
{
    if (int e = skip_frames(*in.ref, o.frame_skip_ref)) return e;
    if (int e = skip_frames(*in.dist, o.frame_skip_dist)) return e;

    if (source.device) {
        in.ref->set_bounce(kDeviceBounce);
        in.dist->set_bounce(kDeviceBounce);
    }
    const ReadPlan plan = read_plan();
    ReadAhead ref_reader(*in.ref, plan.threads), dist_reader(*in.dist, plan.threads);  // joined on every return
    const unsigned limit = o.frame_cnt ? o.frame_cnt : UINT_MAX;
    unsigned given = 0;  // frames handed to both readers
    // Hand both readers empty pictures up to plan.depth frames past frame i.
    auto top_up = [&](unsigned i) {
        for (; given < limit && given - i < plan.depth; given++) {
            for (ReadAhead *r : {&ref_reader, &dist_reader}) {
                VmafPicture pic{};
                if (int err = source.fetch(vmaf, &pic)) {
                    error("could not get a picture: %s", std::strerror(-err));
                    return err;
                }
                r->give(pic);
            }
        }
        return 0;
    };
    auto take = [](ReadAhead &r, PictureHandle *p) {
        std::string msg;
        const int rc = r.take(&p->pic, &msg);
        if (rc > 0) p->held = true;
        if (rc < 0) error("%s", msg.c_str());
        return rc;
    };

    Progress progress(show_progress);
    unsigned i = 0;
    for (; i < limit; i++) {
        if (top_up(i)) return kExitInput;
        PictureHandle ref, dist;
        const int r1 = take(ref_reader, &ref);
        if (r1 < 0) return kExitInput;
        const int r2 = take(dist_reader, &dist);
        if (r2 < 0) return kExitInput;
        if (!r1 || !r2) {
            if (r1 != r2) {
                progress.finish();
                std::fprintf(stderr, "vmaf: warning: %s ended after %u frames, before %s\n",
                             (r1 ? o.dist_path : o.ref_path).c_str(), i,
                             (r1 ? o.ref_path : o.dist_path).c_str());
            }
            break;
        }
        if (int err = read_pictures(vmaf, ref, dist, i)) {
            progress.finish();
            error("scoring frame %u failed: %s", i, std::strerror(-err));
            return kExitScore;
        }
        progress.frame(i + 1);
    }
    progress.finish();
    *n_frames = i;
    // An input read with --allow-truncated that ended before its end.
    for (const io::VideoReader *r : {in.ref.get(), in.dist.get()})
        if (const std::string why = r->short_end(); !why.empty())
            std::fprintf(stderr, "vmaf: warning: %s; frames 0 to %d were scored (--allow-truncated)\n", why.c_str(),
                         int(i) - 1);
    if (!i) {
        error("no frames to score: %s has none%s", in.ref->path().c_str(),
              o.frame_skip_ref || o.frame_skip_dist ? " after skipping" : "");
        return kExitInput;
    }
    if (int err = vmaf_read_pictures(vmaf, nullptr, nullptr, 0)) {
        error("scoring failed while flushing: %s", std::strerror(-err));
        return kExitScore;
    }
    return 0;
}

// The same for frames decoded on the GPU and imported into the context.
int score_frames_hw(VmafContext *vmaf, HwDecode &hw, const Options &o, bool show_progress, unsigned *n_frames)
{
    std::string err;
    if (hw.skip(0, o.frame_skip_ref, &err) || hw.skip(1, o.frame_skip_dist, &err)) {
        error("%s", err.c_str());
        return kExitInput;
    }
    Progress progress(show_progress);
    unsigned i = 0;
    for (; !o.frame_cnt || i < o.frame_cnt; i++) {
        int ended = -1;
        const int r = hw.next_pair(vmaf, i, &ended, &err);
        if (r < 0 || r > 1) {
            progress.finish();
            error("%s", err.c_str());
            return r;
        }
        if (!r) {
            if (ended != 2) {
                progress.finish();
                std::fprintf(stderr, "vmaf: warning: %s ended after %u frames, before %s\n",
                             (ended ? o.dist_path : o.ref_path).c_str(), i,
                             (ended ? o.ref_path : o.dist_path).c_str());
            }
            break;
        }
        progress.frame(i + 1);
    }
    progress.finish();
    *n_frames = i;
    if (!i) {
        error("no frames to score: %s has none%s", o.ref_path.c_str(),
              o.frame_skip_ref || o.frame_skip_dist ? " after skipping" : "");
        return kExitInput;
    }
    if (int e = vmaf_read_pictures(vmaf, nullptr, nullptr, 0)) {
        error("scoring failed while flushing: %s", std::strerror(-e));
        return kExitScore;
    }
    return 0;
}

// ---- results ---------------------------------------------------------------

std::string score_label(const ModelSpec &spec)
{
    return spec.name == "vmaf" ? "VMAF score" : "VMAF score (" + spec.name + ")";
}

// Print each model's mean score; this also computes the per-frame model scores
// the output file lists.
int report_scores(VmafContext *vmaf, const Models &models, unsigned n_frames, std::FILE *out)
{
    for (const LoadedModel &m : models.list) {
        double score;
        if (int err = vmaf_score_pooled(vmaf, m.model, VMAF_POOL_METHOD_MEAN, &score, 0, n_frames - 1)) {
            error("could not compute the score of model %s: %s", m.spec->label().c_str(),
                  std::strerror(-err));
            return kExitScore;
        }
        std::fprintf(out, "%s: %f\n", score_label(*m.spec).c_str(), score);
        if (!m.collection) continue;
        VmafModelCollectionScore s{};
        if (int err = vmaf_score_pooled_model_collection(vmaf, m.collection, VMAF_POOL_METHOD_MEAN,
                                                         &s, 0, n_frames - 1)) {
            error("could not compute the bootstrap score of model %s: %s", m.spec->label().c_str(),
                  std::strerror(-err));
            return kExitScore;
        }
        if (s.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP)
            std::fprintf(out, "%s bootstrap: %f, ci.p95: [%f, %f], stddev: %f\n",
                         score_label(*m.spec).c_str(), s.bootstrap.bagging_score,
                         s.bootstrap.ci.p95.lo, s.bootstrap.ci.p95.hi, s.bootstrap.stddev);
    }
    std::fflush(out);
    return 0;
}

// Standard output goes through a temporary file: reopening /dev/stdout would
// truncate a file the shell opened for appending.
int write_to_stdout(VmafContext *vmaf, VmafOutputFormat fmt)
{
    std::string path;
    if (const int e = os::make_temp_file("vmaf-output-", &path)) {
        error("could not create a temporary file in %s: %s", path.c_str(), std::strerror(e));
        return kExitScore;
    }
    int err = vmaf_write_output(vmaf, path.c_str(), fmt);
    if (!err) {
        std::FILE *f = os::open_file(path, "rb");
        char buf[1 << 16];
        size_t n;
        while (f && (n = std::fread(buf, 1, sizeof buf, f)) > 0)
            if (std::fwrite(buf, 1, n, stdout) != n) err = -EIO;
        if (!f || std::ferror(f)) err = -EIO;
        if (f) std::fclose(f);
        if (std::fflush(stdout)) err = -EIO;
    }
    os::remove_file(path);
    if (err) {
        error("could not write the output to standard output: %s", std::strerror(-err));
        return kExitScore;
    }
    return 0;
}

int write_output_file(VmafContext *vmaf, const Options &o)
{
    if (o.output_path == "-") return write_to_stdout(vmaf, o.output_fmt);
    if (int err = vmaf_write_output(vmaf, o.output_path.c_str(), o.output_fmt)) {
        error("could not write %s: %s", o.output_path.c_str(), std::strerror(-err));
        return kExitScore;
    }
    return 0;
}

// The pictures the readers fill. A pool smaller than what the readers and the
// library hold, and only this thread's next frame would free, deadlocks: the
// 2 * depth pictures at the readers, the current pair, the reference
// history motion keeps on the CPU (two), and with device pictures the frames
// queued on the GPU (each holds its pair until the GPU has copied it; fetching
// collects them). Pictures the frame threads hold come back without this
// thread, so a smaller pool only makes it wait; host pools keep room for two
// per queued or running frame, so the threads never wait for pictures
// (adr/0028-cli-read-ahead.md).
int preallocate(VmafContext *vmaf, const Options &o, const io::VideoFormat &f, PictureSource *source)
{
    const unsigned readers = 2 * read_plan().depth;
#if VMAF_CLI_HAVE_VULKAN
    if (vulkan_attached() && device_pictures_wanted()) {
        VmafVulkanPictureConfiguration pc{};
        pc.pic_params.w = f.w;
        pc.pic_params.h = f.h;
        pc.pic_params.bpc = f.bpc;
        pc.pic_params.pix_fmt = f.pix_fmt;
        pc.pic_cnt = readers + 4 + 2 * kVulkanFramesInFlight;
        pc.pic_prealloc_method = VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE;
        if (int err = vmaf_vulkan_preallocate_pictures(vmaf, pc)) {
            error("could not allocate %u device pictures of %s: %s", pc.pic_cnt, describe(f).c_str(),
                  std::strerror(-err));
            return kExitSetup;
        }
        source->device = true;
        return 0;
    }
#endif
    const unsigned count = readers + (o.threads ? (o.threads + 1) * 2 + 1 : 4);
    VmafPictureConfiguration pic_cfg{};
    pic_cfg.pic_params.w = f.w;
    pic_cfg.pic_params.h = f.h;
    pic_cfg.pic_params.bpc = f.bpc;
    pic_cfg.pic_params.pix_fmt = f.pix_fmt;
    pic_cfg.pic_cnt = count;
    if (int err = vmaf_preallocate_pictures(vmaf, pic_cfg)) {
        error("could not allocate %u pictures of %s: %s", pic_cfg.pic_cnt, describe(f).c_str(),
              std::strerror(-err));
        return kExitSetup;
    }
    return 0;
}

// ---- main ------------------------------------------------------------------

// VMAF_CLI_TIMING=1: each phase's wall time on stderr when it ends (where a
// run's time goes; docs/cli.md).
class PhaseTimer {
public:
    PhaseTimer()
    {
        const char *v = std::getenv("VMAF_CLI_TIMING");
        on_ = v && std::strcmp(v, "1") == 0;
    }
    void end(const char *phase, unsigned frames = 0)
    {
        if (!on_) return;
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - last_).count();
        last_ = now;
        if (frames)
            std::fprintf(stderr, "vmaf: timing: %-10s %8.3f s (%u frames, %.1f fps)\n", phase, s, frames,
                         s > 0 ? frames / s : 0.0);
        else
            std::fprintf(stderr, "vmaf: timing: %-10s %8.3f s\n", phase, s);
    }

private:
    bool on_ = false;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

int run(const Options &o, PhaseTimer &timer)
{
    const bool tty = os::is_terminal(stderr);
    const bool chatty = tty && !o.quiet;
    // Frames decoded on the GPU: FFmpeg's device, adopted by the library. When
    // either input cannot be, both are decoded on the CPU (a context takes host
    // pictures or imports, never both), with one notice line saying why.
    std::unique_ptr<HwDecode> hw;  // outlives the context, which uses its device
    auto fall_back = [&](const std::string &why) {
        std::fprintf(stderr, "vmaf: notice: --hwdec vulkan: %s; decoding on the CPU\n", why.c_str());
        hw.reset();
    };
    if (o.hwdec_vulkan) {
        if (!have_hwdec()) {
            // Vulkan decoding needs FFmpeg 6.1 (libavcodec 60.31) or later.
            const std::string v = io::libav_versions();
            error("--hwdec vulkan is not available in this build (%s): it needs FFmpeg's libraries at 6.1 or "
                  "later with Vulkan decoding; decode on the CPU (leave out --hwdec) or see docs/cli.md",
                  v.empty() ? "built without FFmpeg's libraries" : ("built against " + v).c_str());
            return kExitUsage;
        }
        std::string why;
        const int r = hwdec_open(o, &hw, &why);
        if (r == kExitInput) {
            error("%s", why.c_str());
            return kExitInput;
        }
        if (r) fall_back(why);
    }

    Inputs in;
    if (!hw)
        if (int e = open_inputs(o, &in)) return e;
    timer.end("inputs");

    VmafConfiguration cfg{};
    cfg.log_level = o.quiet ? VMAF_LOG_LEVEL_WARNING : VMAF_LOG_LEVEL_INFO;
    cfg.n_threads = o.threads;
    cfg.n_subsample = o.subsample;
    cfg.cpumask = o.cpumask;
    cfg.gpumask = o.gpumask;
    // --backend (or --hwdec, whose decoder brings the device) is this tool's
    // choice, made by the library's chooser; without either the library
    // chooses as for any client (VMAF_BACKEND). The driver's start-up goes on
    // while the models load and the readers read ahead (once the inputs
    // opened: a missing file is the only error then).
    const bool chosen = o.backend_given || o.hwdec_vulkan;
    prepare_context(cfg, chosen, hw ? Backend::Cpu : o.backend, o.vulkan_device);

    Models models;  // outlives the context, which may refer to the models
    if (int e = load_models(o, &models)) return e;
    timer.end("models");

    ContextHandle ctx;
    if (int e = make_context(o, models, &ctx)) return e;
    std::string why;
    if (hw && hw->attach(ctx.v, &why)) {
        fall_back(why);
        if (int e = open_inputs(o, &in)) return e;
        // The frames come from the CPU now: a new context, on the Vulkan backend.
        vmaf_close(ctx.v);
        ctx.v = nullptr;
        prepare_context(cfg, true, o.backend, o.vulkan_device);
        if (int e = make_context(o, models, &ctx)) return e;
    }
    if (chatty) {
        const char *env = std::getenv("VMAF_BACKEND");
        const bool from_env = !chosen && env && *env && std::strcmp(env, "cpu") != 0;
        std::fprintf(stderr, "VMAF version %s, backend %s\n", vmaf_version(),
                     hw ? hw->description().c_str()
                        : from_env ? (std::string("VMAF_BACKEND=") + env).c_str() : backend_description().c_str());
    }
    timer.end("backend");

    PictureSource source;
    if (!hw)
        if (int e = preallocate(ctx.v, o, in.format, &source)) return e;
    timer.end("pictures");

    unsigned n_frames = 0;
    if (int e = hw ? score_frames_hw(ctx.v, *hw, o, chatty, &n_frames) : score_frames(ctx.v, in, o, source, chatty, &n_frames))
        return e;
    timer.end("frames", n_frames);

    // Scores go to stdout unless the output file does.
    std::FILE *score_out = o.output_path == "-" ? stderr : stdout;
    if (int e = report_scores(ctx.v, models, n_frames, score_out)) return e;
    if (!o.output_path.empty())
        if (int e = write_output_file(ctx.v, o)) return e;
    timer.end("output");
    // The context (its engine, pictures and GPU memory) timed apart from the
    // readers and models that go after it.
    vmaf_close(ctx.v);
    ctx.v = nullptr;
    timer.end("context");
    return kExitOk;
}

}  // namespace

}  // namespace vmaf::cli

int main(int argc, char **argv)
{
    using namespace vmaf::cli;
    vmaf::io::Utf8Args utf8_args(argc, argv);  // paths in any language on Windows too
    argc = utf8_args.argc();
    argv = utf8_args.argv();
    Options o;
    std::string err;
    if (parse_options(argc, argv, &o, &err)) {
        std::fprintf(stderr, "vmaf: %s\nTry 'vmaf --help' for the options.\n", err.c_str());
        return kExitUsage;
    }
    if (o.show_help) {
        std::fputs(usage_text(argv[0]).c_str(), stdout);
        return kExitOk;
    }
    if (o.show_version) {
        std::printf("%s\n", vmaf_version());
        return kExitOk;
    }
    PhaseTimer timer;
    const int rc = run(o, timer);
    timer.end("close");  // the readers and models (on an error: also the context)
    release_backend();
    timer.end("release");
    return rc;
}
