// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "context/context.h"

#include <cerrno>
#include <cmath>

#include "feature/registry.h"
#include "picture/picture.h"
#include "util/log.h"

namespace vmaf {

// The ranks (CollectorSink) of the features that do not run first on a frame
// start here.
constexpr unsigned kLaterRank = 1u << 16;

Context::Context(const VmafConfiguration &cfg)
    : gpu_(GpuFrames::create(cfg)), cfg_(cfg)
{
    log_set_level(cfg.log_level);
    hold_spares();  // released pictures' storage is kept for the next while a context lives
}

Context::~Context()
{
    // Frames still queued finish before the pool goes; their errors no longer matter.
    if (pool_) pool_->wait();
    pool_.reset();
    gpu_->stop_engine();  // before the pictures it may hold
    if (prev_ref_.ref) picture_unref(&prev_ref_);
    if (prev_prev_ref_.ref) picture_unref(&prev_prev_ref_);
    gpu_->close();  // device picture pools, imports never read: after every user
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
    f->sink = std::make_unique<CollectorSink>(collector_, info->provided, f->suffix, rank, info->suffixed_aggregates);
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
    // The features the device runs go on the GPU; frames on the GPU come back
    // to the others as host copies.
    const auto host_frame = [this](VmafPicture *ref, VmafPicture *dist, unsigned index) {
        return run_cpu_frame(ref, dist, index);
    };
    if (int err = gpu_->start(*fmt_, features_, gpu_frames, host_frame)) return err;
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

    bool taken = false;
    if (int err = gpu_->submit(*ref, *dist, index, &taken)) return err;
    if (taken) {
        // The CPU features run from the host copies when the frame is
        // collected; the engine holds its own references to the pictures.
        picture_unref(ref);
        picture_unref(dist);
        return 0;
    }
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
    const bool ref_device = gpu_->is_device_picture(ref);
    const bool dist_device = gpu_->is_device_picture(dist);
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
    // First: the engine's last frames may still feed CPU features (imports).
    if (int err = gpu_->flush()) record_error(err);
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

int Context::use_shared_vulkan_state(vk::State *state)
{
    return gpu_->use_shared_state(state, started_);
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
    // Other threads never touch the engine: they wait for the reading thread.
    if (reader_.load() == std::this_thread::get_id()) {
        for (;;) {
            const int err = pool.fetch(pic, 0);
            if (err != -EBUSY) return err;
            bool pending = false;
            if (int e = gpu_->collect_oldest(&pending)) return e;
            if (!pending) break;
        }
    }
    return pool.fetch(pic, timeout_ms);
}

int Context::vulkan_fetch_picture(VmafPicture *pic)
{
    if (!pic) return -EINVAL;
    if (PicturePool *host = gpu_->host_pool()) return fetch_host(*host, pic, -1);
    return gpu_->fetch(pic, pool_ != nullptr);
}

int Context::vulkan_import(unsigned side, const GpuImport &src, unsigned index)
{
    // The picture is made first (its errors come first), then admitted.
    return gpu_->import(side, src, index, [&](const FrameFormat &fmt) { return admit_import(side, fmt, index); });
}

int Context::admit_import(unsigned side, const FrameFormat &fmt, unsigned index)
{
    constexpr const char *what = "Vulkan import";
    if (flushed_) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: the context was already flushed\n", what);
        return -EINVAL;
    }
    if (backing_ == Backing::Host || backing_ == Backing::Device) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: this context reads pictures with vmaf_read_pictures; it cannot import\n",
            what);
        return -EINVAL;
    }
    {
        std::lock_guard lock(error_mutex_);
        if (async_error_) return async_error_;
    }
    if (int err = gpu_->check_import(side, index)) return err;
    if (!started_) {
        if (features_.empty()) {
            log(VMAF_LOG_LEVEL_ERROR, "%s: no feature or model registered\n", what);
            return -EINVAL;
        }
        // Features without a GPU twin get host copies of the frames (start()).
        t_start_ = std::chrono::steady_clock::now();
        if (int err = start(fmt, true)) {
            record_error(err);  // and every later call
            return err;
        }
    } else if (fmt.pix_fmt != fmt_->pix_fmt || fmt.bpc != fmt_->bpc || fmt.w != fmt_->w || fmt.h != fmt_->h) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: frame %u is %ux%u %u-bit pix_fmt %d; the first import was %ux%u %u-bit "
                                  "pix_fmt %d\n", what, index, fmt.w, fmt.h, fmt.bpc, fmt.pix_fmt,
            fmt_->w, fmt_->h, fmt_->bpc, fmt_->pix_fmt);
        return -EINVAL;
    }
    backing_ = Backing::Imported;
    return 0;
}

int Context::vulkan_read_imported(unsigned index)
{
    if (int err = gpu_->read_imported(index, flushed_)) return err;
    pic_cnt_++;
    return 0;
}

int context_import_vulkan_state(VmafContext *ctx, vk::State *state)
{
    if (!ctx || !state) return -EINVAL;
    return ctx->ctx.import_vulkan_state(state);
}

}  // namespace vmaf
