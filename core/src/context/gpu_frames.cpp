// SPDX-License-Identifier: BSD-2-Clause-Patent
// GpuFrames on Vulkan (ADR 0079): the context's state, engine and frame I/O.
#include "context/gpu_frames.h"

#include <cerrno>
#include <cstdio>
#include <string>

#include "context/collector.h"
#include "context/context.h"
#include "gpu/engine.h"
#include "picture/picture.h"
#include "util/env.h"
#include "util/log.h"
#include "vulkan/device_picture.h"
#include "vulkan/import.h"
#include "vulkan/shared_device.h"
#include "vulkan/state.h"
#include "vulkan/vaapi.h"

namespace vmaf {

namespace {

// The sink of the GPU engine's calls: never written, since every feature on the
// GPU writes into its registered feature's own sink (Engine::FeatureConfig::sink).
class NoSink final : public ScoreSink {
public:
    int append(const char *, unsigned, double) override { return -EINVAL; }
    int get(const char *, unsigned, double *) const override { return -EINVAL; }
    int set_aggregate(const char *, double) override { return -EINVAL; }
};

// The picture pool of vmaf_vulkan_preallocate_pictures (host, device or none)
// and the frame being imported.
struct FrameIo {
    bool configured = false;
    VmafVulkanPicturePreallocationMethod method = VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_NONE;
    VmafPixelFormat fmt = VMAF_PIX_FMT_UNKNOWN;
    unsigned bpc = 0, w = 0, h = 0;
    std::unique_ptr<PicturePool> host_pool;
    std::unique_ptr<vk::DevicePicturePool> device_pool;

    // The frame being imported: its index and the sides imported so far.
    bool importing = false;
    unsigned index = 0;
    std::unique_ptr<vk::ImportedPicture> side[2];

    // Drop a frame imported on one side only (at flush), saying so.
    void drop_unread()
    {
        if (!importing) return;
        log(VMAF_LOG_LEVEL_WARNING, "Vulkan: frame %u was imported on one side only; it is dropped\n", index);
        side[0].reset();
        side[1].reset();
        importing = false;
    }
};

class VulkanFrames final : public GpuFrames {
public:
    explicit VulkanFrames(const VmafConfiguration &cfg) : n_threads_(cfg.n_threads), gpumask_(cfg.gpumask) {}
    ~VulkanFrames() override
    {
        // Last, so the shared device outlives everything made on it.
        if (shared_) vk::shared_state_release(shared_);
    }

    int import_state(vk::State *state, bool started) override;
    int use_shared_state(vk::State *state, bool started) override;
    vk::State *state() const override { return state_; }
    bool shared() const override { return shared_ != nullptr; }
    const vk::Engine *engine() const override { return engine_.get(); }

    int start(const FrameFormat &fmt, std::vector<std::unique_ptr<RegisteredFeature>> &features, bool gpu_frames,
              HostFrame host_frame) override;
    bool is_device_picture(const VmafPicture &pic) const override { return vk::device_picture(pic) != nullptr; }
    int submit(const VmafPicture &ref, const VmafPicture &dist, unsigned index, bool *taken) override;
    int collect_oldest(bool *pending) override;
    int flush() override;
    void stop_engine() override;
    void close() override;

    int preallocate(const VmafVulkanPictureConfiguration &cfg, bool started) override;
    PicturePool *host_pool() override;
    int fetch(VmafPicture *pic, bool frame_threads) override;
    int import(unsigned side, const GpuImport &src, unsigned index, const AdmitImport &admit) override;
    int check_import(unsigned side, unsigned index) const override;
    int read_imported(unsigned index, bool flushed) override;
    int wait_compute(bool flushed) override;

private:
    // Makes the picture of an import on this context's state and lets the
    // context admit it.
    int make_import(const GpuImport &src, const AdmitImport &admit, std::unique_ptr<vk::ImportedPicture> *out);

    const unsigned n_threads_;
    const uint64_t gpumask_;
    vk::State *shared_ = nullptr;  // the reference to VMAF_BACKEND's device, dropped last
    vk::State *state_ = nullptr;
    NoSink sink_;
    std::unique_ptr<vk::Engine> engine_;
    std::unique_ptr<FrameIo> io_;
};

int VulkanFrames::import_state(vk::State *state, bool started)
{
    if (started) {
        log(VMAF_LOG_LEVEL_ERROR, "a Vulkan state must be imported before the first picture\n");
        return -EINVAL;
    }
    if (gpumask_) {
        log(VMAF_LOG_LEVEL_ERROR, "GPU use is disabled by VmafConfiguration.gpumask\n");
        return -EINVAL;
    }
    if (state_ && shared_ && state_ == shared_ && !io_) {
        // The caller's own state wins over the one VMAF_BACKEND chose.
        log(VMAF_LOG_LEVEL_DEBUG, "the imported Vulkan state replaces VMAF_BACKEND's device\n");
        state_->detach();
        state_ = nullptr;
        vk::shared_state_release(shared_);
        shared_ = nullptr;
    }
    if (state_) {
        log(VMAF_LOG_LEVEL_ERROR, "this context already imported a Vulkan state; a context takes one\n");
        return -EBUSY;
    }
    state_ = state;
    state->attach();
    return 0;
}

int VulkanFrames::use_shared_state(vk::State *state, bool started)
{
    if (started || state_) {
        vk::shared_state_release(state);
        return -EINVAL;
    }
    state_ = state;
    state->attach();
    shared_ = state;
    return 0;
}

int VulkanFrames::start(const FrameFormat &fmt, std::vector<std::unique_ptr<RegisteredFeature>> &features,
                        bool gpu_frames, HostFrame host_frame)
{
    if (!state_) return 0;
    vk::Engine::FeatureList gpu;
    for (auto &f : features) {
        if (vk::Engine::supports(*state_, fmt, *f->info, f->opts)) {
            f->on_gpu = true;  // every configuration, each into its own sink
            gpu.push_back({f->info, f->opts, f->sink.get()});
        }
    }
    {
        // Where each feature runs, once per context.
        std::string on_gpu, on_cpu;
        for (const auto &f : features) {
            std::string &list = f->on_gpu ? on_gpu : on_cpu;
            list += (list.empty() ? "" : ", ") + std::string(f->info->name) + f->suffix;
        }
        log(VMAF_LOG_LEVEL_INFO, "Vulkan: features on the GPU: %s; on the CPU: %s\n",
            on_gpu.empty() ? "none" : on_gpu.c_str(), on_cpu.empty() ? "none" : on_cpu.c_str());
    }
    if (!gpu.empty() || gpu_frames) {
        if (int err = vk::Engine::create(state_, fmt, gpu, &engine_)) {
            log(VMAF_LOG_LEVEL_ERROR, "the Vulkan engine failed to start (%d)\n", err);
            return err;
        }
        // The context's sinks are thread-safe: heavy host finishing (SpEED's
        // fits) runs on as many threads as the caller asked for.
        if (n_threads_ > 1)
            if (int err = engine_->set_collect_workers(n_threads_)) return err;
    }
    if (gpu_frames && gpu.size() < features.size()) {
        // Features without a GPU twin get each frame back in host memory,
        // copied into host pictures they may keep (motion's history).
        std::string cpu;
        for (const auto &f : features)
            if (!f->on_gpu) cpu += (cpu.empty() ? "" : ", ") + std::string(f->info->name) + f->suffix;
        log(VMAF_LOG_LEVEL_INFO, "features without a GPU twin run on the CPU from host copies of the "
                                 "frames: %s\n", cpu.c_str());
        const int err = engine_->enable_host_frames(
            [host_frame = std::move(host_frame)](const VmafPicture &r, const VmafPicture &d, unsigned index) {
                VmafPicture pics[2]{};
                const VmafPicture *src[2] = {&r, &d};
                for (unsigned k = 0; k < 2; k++) {
                    if (int err = picture_copy_to_new(*src[k], &pics[k])) {
                        if (k) picture_unref(&pics[0]);
                        return err;
                    }
                }
                return host_frame(&pics[0], &pics[1], index);
            });
        if (err) return err;
    }
    return 0;
}

// VMAF_VULKAN_STATS=1: where a context's frames spent their time, one line
// when it closes (whatever the log level: the variable asked for it).
void say_stats(const vk::Engine &engine)
{
    const vk::HostTiming h = engine.host_timing();
    if (!h.frames || !env_switch("VMAF_VULKAN_STATS", false)) return;
    const vk::GpuTiming g = engine.gpu_timing();
    const double n = double(h.frames), span = h.span_ms();
    char gpu[64] = "no timestamps";
    if (g.frames) std::snprintf(gpu, sizeof gpu, "%.3f ms a frame", g.total_ms / double(g.frames));
    log_env(VMAF_LOG_LEVEL_INFO,
            "Vulkan stats: %llu frames in %.1f ms (%.1f fps); a frame: %.3f ms from call to call, %.3f ms of it in "
            "vmaf_read_pictures (waiting for the GPU and collecting scores %.3f, copying pictures %.3f), %.3f ms "
            "the caller's own; GPU %s\n",
            (unsigned long long)h.frames, span, span > 0 ? n * 1e3 / span : 0.0, span / n, h.call_ms / n,
            h.wait_ms / n, h.copy_ms / n, (span - h.call_ms) / n, gpu);
}

int VulkanFrames::submit(const VmafPicture &ref, const VmafPicture &dist, unsigned index, bool *taken)
{
    *taken = false;
    if (!engine_) return 0;
    if (int err = engine_->submit(ref, dist, index, sink_)) return err;
    // The CPU features run from the host copies when the frame is collected;
    // the engine holds its own references to the pictures.
    *taken = engine_->host_frames_enabled();
    return 0;
}

int VulkanFrames::collect_oldest(bool *pending)
{
    *pending = engine_ && engine_->pending();
    if (!*pending) return 0;
    bool collected = false;
    return engine_->collect_one(sink_, &collected);
}

int VulkanFrames::flush()
{
    if (io_) io_->drop_unread();
    // First: the engine's last frames may still feed CPU features (imports).
    return engine_ ? engine_->flush(sink_) : 0;
}

void VulkanFrames::stop_engine()
{
    if (state_ && state_->hung() && (engine_ || io_)) {
        // The GPU may still use the engine's buffers, pipelines and command
        // buffers and the device pictures: they are left allocated.
        log(VMAF_LOG_LEVEL_ERROR, "the GPU is hung: this context's GPU objects are not freed\n");
        if (engine_) engine_->stop_collect_workers();  // they write into this context's sinks
        (void)engine_.release();
        (void)io_.release();
    }
    if (engine_) {
        FeatureCollector scratch;
        CollectorSink sink(scratch, {}, "");
        engine_->flush(sink);
        say_stats(*engine_);
    }
    engine_.reset();
}

void VulkanFrames::close()
{
    io_.reset();  // device picture pools, imports never read: after every user
    if (state_) state_->detach();
}

int VulkanFrames::preallocate(const VmafVulkanPictureConfiguration &c, bool started)
{
    constexpr const char *what = "vmaf_vulkan_preallocate_pictures";
    const VmafPixelFormat fmt = c.pic_params.pix_fmt;
    const unsigned bpc = c.pic_params.bpc, w = c.pic_params.w, h = c.pic_params.h;
    const int method = int(c.pic_prealloc_method);
    unsigned count = c.pic_cnt;
    if (started) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: call it before the first picture\n", what);
        return -EINVAL;
    }
    if (io_ && io_->configured) return -EBUSY;
    if (!picture_storage_size(fmt, bpc, w, h)) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: unsupported pictures (%ux%u, %u-bit, pix_fmt %d)\n", what, w, h, bpc, fmt);
        return -EINVAL;
    }
    if (!count) count = 2 * (state_ ? state_->frames_in_flight() : vk::kDefaultFramesInFlight) + 2;
    auto io = std::make_unique<FrameIo>();
    switch (method) {
    case VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_NONE: break;
    case VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_HOST:
        if (int err = PicturePool::create(fmt, bpc, w, h, count, &io->host_pool)) return err;
        break;
    case VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE:
        if (!state_) {
            log(VMAF_LOG_LEVEL_ERROR, "%s: device pictures need a state: call vmaf_vulkan_import_state first\n",
                what);
            return -EINVAL;
        }
        if (int err = vk::DevicePicturePool::create(*state_, fmt, bpc, w, h, count, &io->device_pool)) return err;
        break;
    default:
        log(VMAF_LOG_LEVEL_ERROR, "%s: unknown method %d\n", what, method);
        return -EINVAL;
    }
    io->configured = true;
    io->method = VmafVulkanPicturePreallocationMethod(method);
    io->fmt = fmt;
    io->bpc = bpc;
    io->w = w;
    io->h = h;
    io_ = std::move(io);
    return 0;
}

PicturePool *VulkanFrames::host_pool()
{
    if (!io_ || !io_->configured || io_->method != VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_HOST) return nullptr;
    return io_->host_pool.get();
}

int VulkanFrames::fetch(VmafPicture *pic, bool frame_threads)
{
    if (!io_ || !io_->configured) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_picture_fetch: call vmaf_vulkan_preallocate_pictures first\n");
        return -EINVAL;
    }
    FrameIo &io = *io_;
    if (io.method != VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE)
        return picture_alloc(pic, io.fmt, io.bpc, io.w, io.h);
    for (;;) {
        const int err = io.device_pool->try_fetch(pic);
        if (err != -EAGAIN) return err;
        // Frames in flight hold pictures until collected: collect the oldest
        // rather than wait for what only this thread can release.
        if (!engine_ || !engine_->pending()) {
            // Only frame threads can still release a picture; without them
            // the caller holds every one, and waiting would never end.
            if (!frame_threads) {
                log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_picture_fetch: every picture of the pool is held by "
                                          "the caller (unref or read them, or preallocate more)\n");
                return -EBUSY;
            }
            return io.device_pool->fetch(pic);
        }
        bool collected = false;
        if (int e = engine_->collect_one(sink_, &collected)) return e;
    }
}

int VulkanFrames::import(unsigned side, const GpuImport &src, unsigned index, const AdmitImport &admit)
{
    std::unique_ptr<vk::ImportedPicture> pic;
    if (int err = make_import(src, admit, &pic)) return err;
    if (!io_) io_ = std::make_unique<FrameIo>();
    io_->side[side] = std::move(pic);
    io_->importing = true;
    io_->index = index;
    return 0;
}

int VulkanFrames::make_import(const GpuImport &src, const AdmitImport &admit, std::unique_ptr<vk::ImportedPicture> *out)
{
    const char *what = src.kind == GpuImport::Kind::Image      ? "vmaf_vulkan_import_image"
                       : src.kind == GpuImport::Kind::External ? "vmaf_vulkan_import_external"
                                                               : "vmaf_vulkan_import_va_surface";
    if (src.kind == GpuImport::Kind::VaSurface && !vk::vaapi_built()) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: this libvmaf was built without VA-API (meson option vaapi)\n", what);
        return -ENOSYS;
    }
    if (!state_) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: the context has no Vulkan state (vmaf_vulkan_import_state)\n", what);
        return -EINVAL;
    }
    auto pic = std::make_unique<vk::ImportedPicture>();
    switch (src.kind) {
    case GpuImport::Kind::Image:
        if (int err = vk::import_image(*state_, *src.image, pic.get())) return err;
        break;
    case GpuImport::Kind::External:
        if (int err = vk::import_external(*state_, *src.external, pic.get())) return err;
        break;
    case GpuImport::Kind::VaSurface: {
        vk::VaExport exported;  // closes the fds once the picture is kept or dropped
        if (int err = vk::export_va_surface(src.va_display, src.va_surface, &exported)) return err;
        if (int err = vk::import_external(*state_, exported.picture, pic.get())) return err;
        if (int err = admit(pic->fmt)) return err;
        *out = std::move(pic);
        return 0;
    }
    }
    if (int err = admit(pic->fmt)) return err;
    *out = std::move(pic);
    return 0;
}

int VulkanFrames::check_import(unsigned side, unsigned index) const
{
    constexpr const char *what = "Vulkan import";
    if (!io_) return 0;
    if (io_->importing && io_->index != index) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: frame %u is imported on one side; read it before importing frame %u\n", what,
            io_->index, index);
        return -EINVAL;
    }
    if (io_->importing && io_->side[side]) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: frame %u: the %s picture was already imported\n", what, index,
            side ? "distorted" : "reference");
        return -EINVAL;
    }
    return 0;
}

int VulkanFrames::read_imported(unsigned index, bool flushed)
{
    constexpr const char *what = "vmaf_vulkan_read_imported_pictures";
    if (flushed) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: the context was already flushed\n", what);
        return -EINVAL;
    }
    FrameIo *io = io_.get();
    if (!io || !io->importing || io->index != index) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: frame %u was not imported\n", what, index);
        return -EINVAL;
    }
    for (unsigned k = 0; k < 2; k++) {
        if (io->side[k]) continue;
        log(VMAF_LOG_LEVEL_ERROR, "%s: frame %u has no %s picture yet\n", what, index, k ? "distorted" : "reference");
        return -EINVAL;
    }
    io->importing = false;
    if (!engine_) return -EINVAL;  // start() made it for the imports
    return engine_->submit_imported(std::move(io->side[0]), std::move(io->side[1]), index, sink_);
}

int VulkanFrames::wait_compute(bool flushed)
{
    if (!engine_ || flushed) return 0;
    return engine_->wait_idle(sink_);
}

}  // namespace

std::unique_ptr<GpuFrames> GpuFrames::create(const VmafConfiguration &cfg)
{
    return std::make_unique<VulkanFrames>(cfg);
}

}  // namespace vmaf
