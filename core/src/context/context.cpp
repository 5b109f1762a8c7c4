// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "context/context.h"

#include <cerrno>
#include <cmath>

#include "feature/registry.h"
#include "picture/picture.h"
#include "util/log.h"

#if VMAF_HAVE_VULKAN
#include "vulkan/state.h"
#include "context/vulkan_io.h"
#include "vulkan/device_picture.h"
#include "gpu/engine.h"
#endif

namespace vmaf {

void vk::EngineDeleter::operator()(vk::Engine *e) const
{
#if VMAF_HAVE_VULKAN
    delete e;
#else
    (void)e;
#endif
}

void vk::FrameIoDeleter::operator()(vk::FrameIo *io) const
{
#if VMAF_HAVE_VULKAN
    delete io;
#else
    (void)io;
#endif
}

// The ranks (CollectorSink) of the features that do not run first on a frame
// start here.
constexpr unsigned kLaterRank = 1u << 16;

// The sink of the GPU engine's calls: never written, since every feature on the
// GPU writes into its registered feature's own sink (Engine::FeatureConfig::sink).
class NoSink final : public ScoreSink {
public:
    int append(const char *, unsigned, double) override { return -EINVAL; }
    int get(const char *, unsigned, double *) const override { return -EINVAL; }
    int set_aggregate(const char *, double) override { return -EINVAL; }
};

Context::Context(const VmafConfiguration &cfg)
    : cfg_(cfg), gpu_sink_(std::make_unique<NoSink>())
{
    log_set_level(cfg.log_level);
    hold_spares();  // released pictures' storage is kept for the next while a context lives
}

Context::~Context()
{
    // Frames still queued finish before the pool goes; their errors no longer matter.
    if (pool_) pool_->wait();
    pool_.reset();
#if VMAF_HAVE_VULKAN
    if (vk_state_ && vk_state_->hung() && (vk_engine_ || vk_frame_io_)) {
        // The GPU may still use the engine's buffers, pipelines and command
        // buffers and the device pictures: they are left allocated.
        log(VMAF_LOG_LEVEL_ERROR, "the GPU is hung: this context's GPU objects are not freed\n");
        if (vk_engine_) vk_engine_->stop_collect_workers();  // they write into this context's sinks
        (void)vk_engine_.release();
        (void)vk_frame_io_.release();
    }
    if (vk_engine_) {
        FeatureCollector scratch;
        CollectorSink sink(scratch, {}, "");
        vk_engine_->flush(sink);
    }
    vk_engine_.reset();
#endif
    if (prev_ref_.ref) picture_unref(&prev_ref_);
    if (prev_prev_ref_.ref) picture_unref(&prev_prev_ref_);
    vk_frame_io_.reset();  // device picture pools, imports never read: after every user
#if VMAF_HAVE_VULKAN
    if (vk_state_) vk_state_->detach();
#endif
    drop_spares();  // the last context's end frees the kept storage
}

int Context::use_feature(const ExtractorInfo *info, const Dict &opts)
{
    if (started_) {
        log(VMAF_LOG_LEVEL_ERROR, "features must be registered before the first picture\n");
        return -EINVAL;
    }
    auto f = std::make_unique<RegisteredFeature>();
    f->info = info;
    std::string err;
    if (int e = FeatureOptions::parse(info->options, opts, &f->opts, &err)) {
        log(VMAF_LOG_LEVEL_ERROR, "feature %s: %s\n", info->name, err.c_str());
        return e;
    }
    // The same extractor with the same options is registered once.
    for (const auto &g : features_)
        if (g->info == info && g->opts.canonical() == f->opts.canonical()) return 0;
    f->suffix = f->opts.name_suffix();
    f->flags = info->flags | (info->option_flags ? info->option_flags(f->opts) : 0u);
    f->main = info->create(f->opts);
    if (!f->main) {
        log(VMAF_LOG_LEVEL_ERROR, "feature %s is not available in this build\n", info->name);
        return -ENOSYS;
    }
    // Its names are listed as a run on one thread writes them first: within a
    // frame, the temporal features before the others (run_cpu_frame), each in
    // registration order, whichever backend or instance computes them.
    const unsigned rank = unsigned(features_.size()) + ((f->flags & kExtractorTemporal) ? 0u : kLaterRank);
    f->sink = std::make_unique<CollectorSink>(collector_, info->provided, f->suffix, rank);
    features_.push_back(std::move(f));
    return 0;
}

void Context::record_error(int err)
{
    std::lock_guard lock(error_mutex_);
    if (!async_error_) async_error_ = err;
}

int Context::start(const FrameFormat &fmt, bool gpu_frames)
{
    fmt_ = fmt;
    for (auto &f : features_) {
        if (int err = f->main->init(*fmt_)) {
            log(VMAF_LOG_LEVEL_ERROR, "feature %s cannot run on %ux%u %u-bit pictures\n",
                f->info->name, fmt_->w, fmt_->h, fmt_->bpc);
            return err;
        }
    }
#if VMAF_HAVE_VULKAN
    if (vk_state_) {
        vk::Engine::FeatureList gpu;
        for (auto &f : features_) {
            if (vk::Engine::supports(*vk_state_, *fmt_, *f->info, f->opts)) {
                f->on_gpu = true;  // every configuration, each into its own sink
                gpu.push_back({f->info, f->opts, f->sink.get()});
            }
        }
        {
            // Where each feature runs, once per context.
            std::string on_gpu, on_cpu;
            for (const auto &f : features_) {
                std::string &list = f->on_gpu ? on_gpu : on_cpu;
                list += (list.empty() ? "" : ", ") + std::string(f->info->name) + f->suffix;
            }
            log(VMAF_LOG_LEVEL_INFO, "Vulkan: features on the GPU: %s; on the CPU: %s\n",
                on_gpu.empty() ? "none" : on_gpu.c_str(), on_cpu.empty() ? "none" : on_cpu.c_str());
        }
        if (!gpu.empty() || gpu_frames) {
            if (int err = vk::Engine::create(vk_state_, *fmt_, gpu, &vk_engine_)) {
                log(VMAF_LOG_LEVEL_ERROR, "the Vulkan engine failed to start (%d)\n", err);
                return err;
            }
            // The context's sinks are thread-safe: heavy host finishing (SpEED's
            // fits) runs on as many threads as the caller asked for.
            if (cfg_.n_threads > 1)
                if (int err = vk_engine_->set_collect_workers(cfg_.n_threads)) return err;
        }
        if (gpu_frames && gpu.size() < features_.size()) {
            // Features without a GPU twin get each frame back in host memory,
            // copied into host pictures they may keep (motion's history).
            std::string cpu;
            for (const auto &f : features_)
                if (!f->on_gpu) cpu += (cpu.empty() ? "" : ", ") + std::string(f->info->name) + f->suffix;
            log(VMAF_LOG_LEVEL_INFO, "features without a GPU twin run on the CPU from host copies of the "
                                     "frames: %s\n", cpu.c_str());
            const int err = vk_engine_->enable_host_frames(
                [this](const VmafPicture &r, const VmafPicture &d, unsigned index) {
                    VmafPicture pics[2]{};
                    const VmafPicture *src[2] = {&r, &d};
                    for (unsigned k = 0; k < 2; k++) {
                        if (int err = picture_copy_to_new(*src[k], &pics[k])) {
                            if (k) picture_unref(&pics[0]);
                            return err;
                        }
                    }
                    return run_cpu_frame(&pics[0], &pics[1], index);
                });
            if (err) return err;
        }
    }
#endif
    const unsigned n_threads = cfg_.n_threads > 1 ? cfg_.n_threads : 0;
    if (n_threads) {
        worker_instances_.resize(n_threads);
        pool_ = std::make_unique<ThreadPool>(n_threads, size_t(n_threads) * 2);
    }
    started_ = true;
    return 0;
}

int Context::extract_frame(std::vector<std::unique_ptr<Extractor>> *instances,
                           const VmafPicture &ref, const VmafPicture &dist,
                           const RefHistory &history, unsigned index)
{
    const CallScope call(index);
    if (instances && instances->size() != features_.size()) instances->resize(features_.size());
    for (size_t i = 0; i < features_.size(); i++) {
        RegisteredFeature &f = *features_[i];
        if (f.on_gpu || (f.flags & kExtractorTemporal)) continue;
        if (!(f.flags & kExtractorPrevRef) && is_subsampled_out(index)) continue;
        Extractor *e = f.main.get();
        if (instances) {
            auto &inst = (*instances)[i];
            if (!inst) {
                inst = f.info->create(f.opts);
                if (!inst) return -ENOMEM;
                if (int err = inst->init(*fmt_)) return err;
            }
            e = inst.get();
        }
        if (f.flags & kExtractorPrevRef) e->set_history(history);
        if (int err = e->extract(ref, dist, index, *f.sink)) {
            log(VMAF_LOG_LEVEL_ERROR, "feature %s failed on frame %u (%d)\n", f.info->name, index, err);
            return err;
        }
    }
    return 0;
}

int Context::read_pictures(VmafPicture *ref, VmafPicture *dist, unsigned index)
{
    if (flushed_) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_read_pictures: the context was already flushed\n");
        return -EINVAL;
    }
    if (!ref != !dist) return -EINVAL;
    if (!ref) return flush();
    reader_.store(std::this_thread::get_id());
    {
        std::lock_guard lock(error_mutex_);
        if (async_error_) return async_error_;
    }
    if (!ref->ref || !dist->ref) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_read_pictures: pictures must come from vmaf_picture_alloc "
                                  "or a preallocated pool\n");
        return -EINVAL;
    }
    if (!picture_same_format(*ref, *dist)) {
        log(VMAF_LOG_LEVEL_ERROR, "reference and distorted pictures differ: %ux%u %u-bit fmt %d vs "
                                  "%ux%u %u-bit fmt %d\n", ref->w[0], ref->h[0], ref->bpc, ref->pix_fmt,
            dist->w[0], dist->h[0], dist->bpc, dist->pix_fmt);
        return -EINVAL;
    }
    if (fmt_ && (ref->pix_fmt != fmt_->pix_fmt || ref->bpc != fmt_->bpc || ref->w[0] != fmt_->w ||
                 ref->h[0] != fmt_->h)) {
        log(VMAF_LOG_LEVEL_ERROR, "picture %u is %ux%u %u-bit; earlier pictures were %ux%u %u-bit\n",
            index, ref->w[0], ref->h[0], ref->bpc, fmt_->w, fmt_->h, fmt_->bpc);
        return -EINVAL;
    }
    if (features_.empty()) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_read_pictures: no feature or model registered\n");
        return -EINVAL;
    }
    if (int err = check_backing(*ref, *dist, index)) return err;
    if (!started_) {
        t_start_ = std::chrono::steady_clock::now();
        // Device pictures live in write-combined memory, which the CPU reads
        // very slowly: features without a GPU twin get host copies of them made
        // by the GPU, as imported frames do.
        if (int err = start(FrameFormat{ref->pix_fmt, ref->bpc, ref->w[0], ref->h[0]},
                            backing_ == Backing::Device)) {
            record_error(err);  // and every later call
            return err;
        }
    }
    pic_cnt_++;

#if VMAF_HAVE_VULKAN
    if (vk_engine_) {
        if (int err = vk_engine_->submit(*ref, *dist, index, *gpu_sink_)) return err;
        if (vk_engine_->host_frames_enabled()) {
            // The CPU features run from the host copies when the frame is
            // collected; the engine holds its own references to the pictures.
            picture_unref(ref);
            picture_unref(dist);
            return 0;
        }
    }
#endif
    return run_cpu_frame(ref, dist, index);
}

int Context::run_cpu_frame(VmafPicture *ref, VmafPicture *dist, unsigned index)
{
    RefHistory history{prev_ref_.ref ? &prev_ref_ : nullptr,
                       prev_prev_ref_.ref ? &prev_prev_ref_ : nullptr};

    // Temporal extractors run here, in call order, on their single instance.
    const CallScope call(index);
    for (auto &f : features_) {
        if (f->on_gpu || !(f->flags & kExtractorTemporal)) continue;
        if (f->flags & kExtractorPrevRef) f->main->set_history(history);
        if (int err = f->main->extract(*ref, *dist, index, *f->sink)) return err;
    }

    bool any = false;
    for (const auto &f : features_) any |= !f->on_gpu && !(f->flags & kExtractorTemporal);
    if (!any) {
        // Nothing for the pool.
    } else if (pool_) {
        // The job holds its own references; ours are released below.
        VmafPicture r, d, p{}, pp{};
        picture_ref(&r, ref);
        picture_ref(&d, dist);
        if (history.prev) picture_ref(&p, history.prev);
        if (history.prev_prev) picture_ref(&pp, history.prev_prev);
        pool_->enqueue([this, r, d, p, pp, index](unsigned worker) mutable {
            const RefHistory h{p.ref ? &p : nullptr, pp.ref ? &pp : nullptr};
            if (int err = extract_frame(&worker_instances_[worker], r, d, h, index))
                record_error(err);
            picture_unref(&r);
            picture_unref(&d);
            if (p.ref) picture_unref(&p);
            if (pp.ref) picture_unref(&pp);
        });
    } else {
        if (int err = extract_frame(nullptr, *ref, *dist, history, index)) return err;
    }

    // Keep the previous reference pictures only for CPU features that need them:
    // they pin pool pictures (a GPU twin keeps its own history on the device).
    bool needs_history = false;
    for (const auto &f : features_) needs_history |= !f->on_gpu && (f->flags & kExtractorPrevRef) != 0;
    if (needs_history) {
        if (prev_prev_ref_.ref) picture_unref(&prev_prev_ref_);
        prev_prev_ref_ = prev_ref_;
        picture_ref(&prev_ref_, ref);
    }
    picture_unref(ref);
    picture_unref(dist);
    return 0;
}

// Host and device pictures never mix, and a context that imports takes no pictures.
int Context::check_backing(const VmafPicture &ref, const VmafPicture &dist, unsigned index)
{
#if VMAF_HAVE_VULKAN
    const bool ref_device = vk::device_picture(ref) != nullptr;
    const bool dist_device = vk::device_picture(dist) != nullptr;
#else
    (void)ref;
    (void)dist;
    const bool ref_device = false, dist_device = false;
#endif
    static constexpr const char *kNames[] = {"unknown", "host", "device", "imported"};
    const Backing b = ref_device ? Backing::Device : Backing::Host;
    if (ref_device != dist_device) {
        log(VMAF_LOG_LEVEL_ERROR, "picture %u: one picture is a Vulkan device picture, the other a host picture\n",
            index);
        return -EINVAL;
    }
    if (backing_ != Backing::Unknown && backing_ != b) {
        log(VMAF_LOG_LEVEL_ERROR, "picture %u: %s pictures after %s ones; a context takes one kind\n", index,
            kNames[int(b)], kNames[int(backing_)]);
        return -EINVAL;
    }
    backing_ = b;
    return 0;
}

int Context::flush()
{
    if (flushed_) return -EINVAL;
#if VMAF_HAVE_VULKAN
    if (vk_frame_io_) vk_frame_io_->drop_unread();
#endif
#if VMAF_HAVE_VULKAN
    // First: the engine's last frames may still feed CPU features (imports).
    if (vk_engine_)
        if (int err = vk_engine_->flush(*gpu_sink_)) record_error(err);
#endif
    if (pool_) pool_->wait();
    {
        std::lock_guard lock(error_mutex_);
        if (async_error_) return async_error_;
    }
    if (started_) {
        const CallScope call(OrderKey::kFlush);
        for (auto &f : features_) {
            if (f->on_gpu) continue;  // its GPU twin flushed with the engine; this instance saw no frame
            if (int err = f->main->flush(*f->sink)) return err;
        }
    }
    flushed_ = true;
    t_flush_ = std::chrono::steady_clock::now();
    return 0;
}

double Context::frames_per_second() const
{
    if (!flushed_ || !started_) return std::nan("");
    const double s = std::chrono::duration<double>(t_flush_ - t_start_).count();
    return s > 0 ? pic_cnt_ / s : std::nan("");
}

int Context::import_vulkan_state(vk::State *state)
{
#if VMAF_HAVE_VULKAN
    if (started_) {
        log(VMAF_LOG_LEVEL_ERROR, "a Vulkan state must be imported before the first picture\n");
        return -EINVAL;
    }
    if (cfg_.gpumask) {
        log(VMAF_LOG_LEVEL_ERROR, "GPU use is disabled by VmafConfiguration.gpumask\n");
        return -EINVAL;
    }
    if (vk_state_ && vk_shared_ && vk_state_ == vk_shared_.get() && !vk_frame_io_) {
        // The caller's own state wins over the one VMAF_BACKEND chose.
        log(VMAF_LOG_LEVEL_DEBUG, "the imported Vulkan state replaces VMAF_BACKEND's device\n");
        vk_state_->detach();
        vk_state_ = nullptr;
        vk_shared_.reset();
    }
    if (vk_state_) {
        log(VMAF_LOG_LEVEL_ERROR, "this context already imported a Vulkan state; a context takes one\n");
        return -EBUSY;
    }
    vk_state_ = state;
    state->attach();
    return 0;
#else
    (void)state;
    log(VMAF_LOG_LEVEL_ERROR, "this libvmaf was built without Vulkan\n");
    return -ENOSYS;
#endif
}

int Context::use_shared_vulkan_state(vk::State *state)
{
    std::unique_ptr<vk::State, vk::SharedStateRelease> ref(state);
    if (started_ || vk_state_) return -EINVAL;
#if VMAF_HAVE_VULKAN
    vk_state_ = state;
    state->attach();
    vk_shared_ = std::move(ref);
    return 0;
#else
    return -ENOSYS;
#endif
}

int Context::preallocate_pictures(const VmafPictureConfiguration &c)
{
    if (picture_pool_) return -EBUSY;
    return PicturePool::create(c.pic_params.pix_fmt, c.pic_params.bpc, c.pic_params.w,
                               c.pic_params.h, c.pic_cnt, &picture_pool_);
}

int Context::fetch_preallocated_picture(VmafPicture *pic, int timeout_ms)
{
    if (!picture_pool_) return -EINVAL;
    return fetch_host(*picture_pool_, pic, timeout_ms);
}

int Context::fetch_host(PicturePool &pool, VmafPicture *pic, int timeout_ms)
{
#if VMAF_HAVE_VULKAN
    // Other threads never touch the engine: they wait for the reading thread.
    if (reader_.load() == std::this_thread::get_id()) {
        for (;;) {
            const int err = pool.fetch(pic, 0);
            if (err != -EBUSY) return err;
            if (!vk_engine_ || !vk_engine_->pending()) break;
            bool collected = false;
            if (int e = vk_engine_->collect_one(*gpu_sink_, &collected)) return e;
        }
    }
#endif
    return pool.fetch(pic, timeout_ms);
}

int context_import_vulkan_state(VmafContext *ctx, vk::State *state)
{
    if (!ctx || !state) return -EINVAL;
    return ctx->ctx.import_vulkan_state(state);
}

}  // namespace vmaf
