// SPDX-License-Identifier: BSD-2-Clause-Patent
// The Context's Vulkan picture paths: device picture pools and imported frames.
#include "context/vulkan_io.h"

#include <cerrno>
#include <string>

#include "context/context.h"
#include "picture/picture.h"
#include "util/log.h"
#include "vulkan/state.h"
#include "gpu/engine.h"

namespace vmaf {

void vk::FrameIo::drop_unread()
{
    if (!importing) return;
    log(VMAF_LOG_LEVEL_WARNING, "Vulkan: frame %u was imported on one side only; it is dropped\n", index);
    side[0].reset();
    side[1].reset();
    importing = false;
}

int Context::vulkan_preallocate_pictures(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned count,
                                         int method)
{
    constexpr const char *what = "vmaf_vulkan_preallocate_pictures";
    if (started_) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: call it before the first picture\n", what);
        return -EINVAL;
    }
    if (vk_frame_io_ && vk_frame_io_->configured) return -EBUSY;
    if (!picture_storage_size(fmt, bpc, w, h)) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: unsupported pictures (%ux%u, %u-bit, pix_fmt %d)\n", what, w, h, bpc, fmt);
        return -EINVAL;
    }
    if (!count) count = 2 * (vk_state_ ? vk_state_->frames_in_flight() : vk::kDefaultFramesInFlight) + 2;
    auto io = std::make_unique<vk::FrameIo>();
    switch (method) {
    case VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_NONE: break;
    case VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_HOST:
        if (int err = PicturePool::create(fmt, bpc, w, h, count, &io->host_pool)) return err;
        break;
    case VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE:
        if (!vk_state_) {
            log(VMAF_LOG_LEVEL_ERROR, "%s: device pictures need a state: call vmaf_vulkan_import_state first\n",
                what);
            return -EINVAL;
        }
        if (int err = vk::DevicePicturePool::create(*vk_state_, fmt, bpc, w, h, count, &io->device_pool)) return err;
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
    vk_frame_io_.reset(io.release());
    return 0;
}

int Context::vulkan_fetch_picture(VmafPicture *pic)
{
    if (!pic) return -EINVAL;
    if (!vk_frame_io_ || !vk_frame_io_->configured) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_picture_fetch: call vmaf_vulkan_preallocate_pictures first\n");
        return -EINVAL;
    }
    vk::FrameIo &io = *vk_frame_io_;
    switch (io.method) {
    case VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_HOST: return fetch_host(*io.host_pool, pic, -1);
    case VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE:
        for (;;) {
            const int err = io.device_pool->try_fetch(pic);
            if (err != -EAGAIN) return err;
            // Frames in flight hold pictures until collected: collect the oldest
            // rather than wait for what only this thread can release.
            if (!vk_engine_ || !vk_engine_->pending()) {
                // Only frame threads can still release a picture; without them
                // the caller holds every one, and waiting would never end.
                if (!pool_) {
                    log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_picture_fetch: every picture of the pool is held by "
                                              "the caller (unref or read them, or preallocate more)\n");
                    return -EBUSY;
                }
                return io.device_pool->fetch(pic);
            }
            bool collected = false;
            if (int e = vk_engine_->collect_one(*gpu_sink_, &collected)) return e;
        }
    default: return picture_alloc(pic, io.fmt, io.bpc, io.w, io.h);
    }
}

int Context::vulkan_import(unsigned side, std::unique_ptr<vk::ImportedPicture> pic, unsigned index)
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
    if (!vk_frame_io_) vk_frame_io_.reset(new vk::FrameIo);
    vk::FrameIo &io = *vk_frame_io_;
    if (io.importing && io.index != index) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: frame %u is imported on one side; read it before importing frame %u\n", what,
            io.index, index);
        return -EINVAL;
    }
    if (io.importing && io.side[side]) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: frame %u: the %s picture was already imported\n", what, index,
            side ? "distorted" : "reference");
        return -EINVAL;
    }
    if (!started_) {
        if (features_.empty()) {
            log(VMAF_LOG_LEVEL_ERROR, "%s: no feature or model registered\n", what);
            return -EINVAL;
        }
        // Features without a GPU twin get host copies of the frames (start()).
        t_start_ = std::chrono::steady_clock::now();
        if (int err = start(pic->fmt, true)) {
            record_error(err);  // and every later call
            return err;
        }
    } else if (pic->fmt.pix_fmt != fmt_->pix_fmt || pic->fmt.bpc != fmt_->bpc || pic->fmt.w != fmt_->w ||
               pic->fmt.h != fmt_->h) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: frame %u is %ux%u %u-bit pix_fmt %d; the first import was %ux%u %u-bit "
                                  "pix_fmt %d\n", what, index, pic->fmt.w, pic->fmt.h, pic->fmt.bpc, pic->fmt.pix_fmt,
            fmt_->w, fmt_->h, fmt_->bpc, fmt_->pix_fmt);
        return -EINVAL;
    }
    backing_ = Backing::Imported;
    io.side[side] = std::move(pic);
    io.importing = true;
    io.index = index;
    return 0;
}

int Context::vulkan_read_imported(unsigned index)
{
    constexpr const char *what = "vmaf_vulkan_read_imported_pictures";
    if (flushed_) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: the context was already flushed\n", what);
        return -EINVAL;
    }
    vk::FrameIo *io = vk_frame_io_.get();
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
    if (!vk_engine_) return -EINVAL;  // start() made it for the imports
    if (int err = vk_engine_->submit_imported(std::move(io->side[0]), std::move(io->side[1]), index, *gpu_sink_))
        return err;
    pic_cnt_++;
    return 0;
}

int Context::vulkan_wait_compute()
{
    if (!vk_engine_ || flushed_) return 0;
    return vk_engine_->wait_idle(*gpu_sink_);
}

}  // namespace vmaf
