// SPDX-License-Identifier: BSD-2-Clause-Patent
// The frame engine's uploads: host pictures read in place or copied into
// staging (on the transfer lane where there is one), and device pictures, into
// the planes of FrameBuffers.
#include "gpu/engine.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "picture/picture.h"
#include "util/env.h"
#include "util/log.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
#include "vulkan/device_picture.h"
#include "vulkan/host_import.h"

namespace vmaf::vk {

int Engine::check_picture(const VmafPicture &pic) const
{
    if (const DevicePicture *d = device_picture(pic); d && d->state != &st_) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: a device picture from another Vulkan state\n");
        return -EINVAL;
    }
    bool ok = pic.pix_fmt == fmt_.pix_fmt && pic.bpc == fmt_.bpc;
    for (unsigned p = 0; ok && p < frame_.n_planes; p++)
        ok = pic.data[p] && pic.w[p] == frame_.ref[p].w && pic.h[p] == frame_.ref[p].h &&
             pic.stride[p] >= ptrdiff_t(pic.w[p] * frame_.bytes_per_sample);
    if (ok) return 0;
    log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: a picture does not match the %ux%u %u-bit format it started with\n",
        fmt_.w, fmt_.h, fmt_.bpc);
    return -EINVAL;
}

unsigned Engine::upload_threads(const FrameFormat &fmt)
{
    // One thread copies a few GB/s into staging memory: a 1080p pair (6 MB) takes
    // about a millisecond. Large frames are split over up to kMaxUploadThreads
    // threads; small ones are not worth waking threads for.
    constexpr unsigned kMaxUploadThreads = 6;
    constexpr uint64_t kBytesPerThread = 1u << 20;
    if (const uint64_t n = env_number("VMAF_VULKAN_UPLOAD_THREADS", 1, 64, 0)) return unsigned(n);
    const uint64_t bytes = 2 * picture_storage_size(fmt.pix_fmt, fmt.bpc, fmt.w, fmt.h);
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    return unsigned(std::clamp<uint64_t>(bytes / kBytesPerThread, 1, std::min(kMaxUploadThreads, hw)));
}

void Engine::upload(const VmafPicture &ref, const VmafPicture &dist, const bool copy[2], unsigned slot)
{
    std::byte *base = slots_[slot].staging.data();
    const PlaneRegion *regions[2] = {frame_.ref, frame_.dist};
    const VmafPicture *pics[2] = {&ref, &dist};
    // Part `part` of `parts`: the same band of rows of every plane of both pictures.
    auto copy_part = [&](unsigned part, unsigned parts) {
        for (unsigned k = 0; k < 2; k++) {
            if (!copy[k]) continue;
            for (unsigned p = 0; p < frame_.n_planes; p++) {
                const PlaneRegion &r = regions[k][p];
                const unsigned y0 = unsigned(uint64_t(r.h) * part / parts);
                const unsigned y1 = unsigned(uint64_t(r.h) * (part + 1) / parts);
                if (y0 == y1) continue;
                const ptrdiff_t sstride = pics[k]->stride[p];
                const auto *src = static_cast<const std::byte *>(pics[k]->data[p]) + ptrdiff_t(y0) * sstride;
                std::byte *dst = base + r.offset + size_t(y0) * r.stride;
                const size_t row = size_t(r.w) * frame_.bytes_per_sample;
                if (sstride == ptrdiff_t(r.stride)) {
                    std::memcpy(dst, src, size_t(r.stride) * (y1 - y0 - 1) + row);  // one run, padding and all
                    continue;
                }
                for (unsigned y = y0; y < y1; y++, src += sstride, dst += r.stride) std::memcpy(dst, src, row);
            }
        }
    };
    if (!upload_pool_) {
        copy_part(0, 1);
        return;
    }
    const unsigned parts = upload_pool_->size() + 1;  // the workers and this thread
    for (unsigned part = 1; part < parts; part++)
        upload_pool_->enqueue([&copy_part, part, parts](unsigned) { copy_part(part, parts); });
    copy_part(0, parts);
    upload_pool_->wait();
}

void Engine::record_device_copies(VkCommandBuffer cmd, const VmafPicture *const pics[2])
{
    for (unsigned k = 0; k < 2; k++) {
        const DevicePicture &d = *device_picture(*pics[k]);
        record_plane_copies(cmd, d.buffer, d.plane_offset, *pics[k], k, planes_.get());
    }
}

void Engine::record_plane_copies(VkCommandBuffer cmd, VkBuffer src, const VkDeviceSize offset[3],
                                 const VmafPicture &pic, unsigned k, VkBuffer dst)
{
    const PlaneRegion *regions = k ? frame_.dist : frame_.ref;
    for (unsigned p = 0; p < frame_.n_planes; p++) {
        const PlaneRegion &r = regions[p];
        const VkDeviceSize row = VkDeviceSize(r.w) * frame_.bytes_per_sample;
        const VkDeviceSize src_stride = VkDeviceSize(pic.stride[p]);
        std::vector<VkBufferCopy> copies;
        if (src_stride == r.stride) {
            copies.push_back({offset[p], r.offset, VkDeviceSize(r.stride) * (r.h - 1) + row});
        } else {
            for (unsigned y = 0; y < r.h; y++)
                copies.push_back({offset[p] + y * src_stride, r.offset + VkDeviceSize(y) * r.stride, row});
        }
        st_.fn().vkCmdCopyBuffer(cmd, src, dst, uint32_t(copies.size()), copies.data());
    }
}

void Engine::record_host_copies(VkCommandBuffer cmd, unsigned slot, const HostLoad &h, VkBuffer dst)
{
    const VkBuffer staging = slots_[slot].staging.get();
    if (h.staged[0] && h.staged[1]) {
        const VkBufferCopy up{0, 0, frame_.planes_size};
        st_.fn().vkCmdCopyBuffer(cmd, staging, dst, 1, &up);
        return;
    }
    for (unsigned k = 0; k < 2; k++) {
        if (!h.staged[k]) {
            record_plane_copies(cmd, h.buffer[k], h.offset[k], *h.pics[k], k, dst);
            continue;
        }
        // This picture's planes alone, staged where the planes go.
        const PlaneRegion *r = k ? frame_.dist : frame_.ref;
        const PlaneRegion &last = r[frame_.n_planes - 1];
        const VkDeviceSize end =
            last.offset + VkDeviceSize(last.stride) * (last.h - 1) + VkDeviceSize(last.w) * frame_.bytes_per_sample;
        const VkBufferCopy up{r[0].offset, r[0].offset, end - r[0].offset};
        st_.fn().vkCmdCopyBuffer(cmd, staging, dst, 1, &up);
    }
}

void Engine::record_landing_handover(VkCommandBuffer cmd, unsigned slot, bool release)
{
    if (st_.transfer_family() == st_.queue_family()) return;  // the semaphore alone orders it
    VkBufferMemoryBarrier b = make<VkBufferMemoryBarrier>(VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER);
    b.srcAccessMask = release ? VK_ACCESS_TRANSFER_WRITE_BIT : 0;
    b.dstAccessMask = release ? 0 : VK_ACCESS_TRANSFER_READ_BIT;
    b.srcQueueFamilyIndex = st_.transfer_family();
    b.dstQueueFamilyIndex = st_.queue_family();
    b.buffer = slots_[slot].landing.get();
    b.offset = 0;
    b.size = VK_WHOLE_SIZE;
    // The acquire's first scope is the stage the frame's semaphore wait blocks
    // (submit_lane's `wait`), which chains it to the lane's copies.
    st_.fn().vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                  release ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT : VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                                  nullptr, 1, &b, 0, nullptr);
}

int Engine::submit_lane(unsigned slot, const HostLoad &h, SemaphoreOp *wait)
{
    Slot &s = slots_[slot];
    if (!lane_ring_)
        if (int err = FrameRing::create(st_, unsigned(slots_.size()), &lane_ring_, true)) return err;
    // The landing buffer's previous frame is done: this slot's frame was
    // collected before the slot came round again (begin_frame). Its contents
    // are not kept across frames, so no ownership goes back to the lane.
    if (!s.landing)
        if (int err = st_.allocator().create_buffer(frame_.planes_size,
                                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                    MemoryUse::Device, &s.landing))
            return err;
    VkCommandBuffer cmd;
    if (int err = lane_ring_->begin(slot, &cmd)) return err;
    record_host_copies(cmd, slot, h, s.landing.get());
    record_landing_handover(cmd, slot, true);
    if (int err = lane_ring_->submit(slot)) return err;
    *wait = lane_ring_->done(slot, VK_PIPELINE_STAGE_TRANSFER_BIT);
    uploads_.lane_frames++;
    return 0;
}

HostUploadStats Engine::host_uploads() const
{
    HostUploadStats u = uploads_;
    if (host_imports_) {
        u.imports = host_imports_->imports();
        u.live_imports = host_imports_->live();
    }
    return u;
}

}  // namespace vmaf::vk
