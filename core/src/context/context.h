// SPDX-License-Identifier: BSD-2-Clause-Patent
// VmafContext: registered features, the frame scheduler (thread pool or the
// caller's thread, and the GPU through one seam, context/gpu_frames.h), the
// collector.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "context/collector.h"
#include "context/gpu_frames.h"
#include "feature/extractor.h"
#include "libvmaf/libvmaf.h"
#include "picture/pool.h"
#include "util/thread_pool.h"

namespace vmaf {

struct RegisteredFeature {
    const ExtractorInfo *info;
    FeatureOptions opts;
    std::string suffix;  // output-name suffix of the options ("_egl_1")
    unsigned flags;
    bool on_gpu = false;
    // The instance temporal extraction and flush run on (also the only one
    // without a thread pool).
    std::unique_ptr<Extractor> main;
    std::unique_ptr<CollectorSink> sink;
};

class Context {
public:
    explicit Context(const VmafConfiguration &cfg);
    ~Context();

    int use_feature(const ExtractorInfo *info, const Dict &opts);
    int read_pictures(VmafPicture *ref, VmafPicture *dist, unsigned index);
    int flush();
    // The GPU (context/gpu_frames.h): the caller's Vulkan state
    // (vmaf_vulkan_import_state), or the process's shared device chosen by
    // VMAF_BACKEND (context/backend_select.h), which a state the caller imports
    // later replaces.
    int import_vulkan_state(vk::State *state) { return gpu_->import_state(state, started_); }
    int use_shared_vulkan_state(vk::State *state);
    bool vulkan_from_environment() const { return gpu_->shared(); }

    int preallocate_pictures(const VmafPictureConfiguration &cfg);
    int fetch_preallocated_picture(VmafPicture *pic, int timeout_ms = -1);

    // The Vulkan zero-copy paths (<libvmaf/libvmaf_vulkan.h>): picture pools in
    // device memory, imported frames.
    int vulkan_preallocate_pictures(const VmafVulkanPictureConfiguration &cfg)
    {
        return gpu_->preallocate(cfg, started_);
    }
    int vulkan_fetch_picture(VmafPicture *pic);
    // Hand in one side (0 reference, 1 distorted) of frame `index`.
    int vulkan_import(unsigned side, const GpuImport &src, unsigned index);
    int vulkan_read_imported(unsigned index);
    int vulkan_wait_compute() { return gpu_->wait_compute(flushed_); }
    vk::State *vulkan_state() const { return gpu_->state(); }
    // The GPU engine once started (bench and tests: GPU timing), else null.
    const vk::Engine *vulkan_engine() const { return gpu_->engine(); }

    FeatureCollector &collector() { return collector_; }
    const VmafConfiguration &config() const { return cfg_; }
    bool flushed() const { return flushed_; }
    // Frames handed in so far (libvmaf's pic_cnt).
    unsigned picture_count() const { return pic_cnt_; }
    // Luma size of the pictures, once the first one was read (else 0x0).
    unsigned width() const { return fmt_ ? fmt_->w : 0; }
    unsigned height() const { return fmt_ ? fmt_->h : 0; }
    // Frames per second from the first picture to the flush (wall clock); NaN
    // before the flush.
    double frames_per_second() const;
    bool is_subsampled_out(unsigned index) const
    {
        return cfg_.n_subsample > 1 && index % cfg_.n_subsample;
    }

private:
    // Where this context's pictures live, fixed by the first frame.
    enum class Backing { Unknown, Host, Device, Imported };

    // gpu_frames: the pictures arrive on the GPU (imports, device pictures), so
    // the engine runs even without GPU features and hands the CPU features host
    // copies.
    int start(const FrameFormat &fmt, bool gpu_frames = false);
    // The context's checks of an imported side of frame `index` (GpuFrames::import).
    int admit_import(unsigned side, const FrameFormat &fmt, unsigned index);
    // The CPU features' part of one frame: temporal ones here in call order,
    // the others on the thread pool (or here); keeps the reference history.
    // Takes over the caller's references to both pictures.
    int run_cpu_frame(VmafPicture *ref, VmafPicture *dist, unsigned index);
    int check_backing(const VmafPicture &ref, const VmafPicture &dist, unsigned index);
    // Run the non-temporal CPU features on one frame, on a worker's own
    // instances, or on the main instances when `instances` is null.
    int extract_frame(std::vector<std::unique_ptr<Extractor>> *instances,
                      const VmafPicture &ref, const VmafPicture &dist,
                      const RefHistory &history, unsigned index);
    void record_error(int err);
    // A picture of a host pool. On the thread that reads pictures, frames the
    // GPU reads in place (and so holds pictures of) are collected rather than
    // waited for, as only that thread can release them.
    int fetch_host(PicturePool &pool, VmafPicture *pic, int timeout_ms);

    // First, so it goes last: the shared device outlives everything made on it.
    std::unique_ptr<GpuFrames> gpu_;
    VmafConfiguration cfg_;
    FeatureCollector collector_;
    std::vector<std::unique_ptr<RegisteredFeature>> features_;
    std::optional<FrameFormat> fmt_;
    std::unique_ptr<ThreadPool> pool_;
    // Per-worker extractor instances (worker x feature), created on the worker.
    std::vector<std::vector<std::unique_ptr<Extractor>>> worker_instances_;
    VmafPicture prev_ref_{}, prev_prev_ref_{};
    std::unique_ptr<PicturePool> picture_pool_;
    Backing backing_ = Backing::Unknown;
    std::mutex error_mutex_;
    int async_error_ = 0;
    unsigned pic_cnt_ = 0;
    std::chrono::steady_clock::time_point t_start_{}, t_flush_{};
    bool started_ = false;
    bool flushed_ = false;
    std::atomic<std::thread::id> reader_{};  // the thread of the last vmaf_read_pictures
};

// Used by the Vulkan API shim (vmaf_vulkan_import_state).
int context_import_vulkan_state(VmafContext *ctx, vk::State *state);

}  // namespace vmaf

// The opaque handle of the C API.
struct VmafContext {
    explicit VmafContext(const VmafConfiguration &cfg) : ctx(cfg) {}
    vmaf::Context ctx;
};
