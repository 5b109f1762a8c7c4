// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/device_picture.h"

#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "picture/picture.h"
#include "util/log.h"
#include "vulkan/state.h"
#include "vulkan/memory.h"

namespace vmaf::vk {

struct DevicePicturePool::Shared {
    VmafPixelFormat fmt;
    unsigned bpc, w, h;
    std::mutex mutex;
    std::condition_variable freed;
    std::vector<Buffer> buffers;
    std::vector<DevicePicture> tags;  // one per buffer
    std::vector<size_t> free_list;    // indices
};

const DevicePicture *device_picture(const VmafPicture &pic)
{
    const auto *t = static_cast<const DevicePicture *>(pic.priv);
    return t && t->magic == DevicePicture::kMagic ? t : nullptr;
}

int DevicePicturePool::create(State &st, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                              unsigned count, std::unique_ptr<DevicePicturePool> *out)
{
    const size_t size = picture_storage_size(fmt, bpc, w, h);
    if (!size || !count || count > 1024) return -EINVAL;
    auto s = std::make_shared<Shared>();
    s->fmt = fmt;
    s->bpc = bpc;
    s->w = w;
    s->h = h;
    s->buffers.resize(count);
    s->tags.resize(count);
    for (unsigned i = 0; i < count; i++) {
        Buffer &b = s->buffers[i];
        if (int err = st.allocator().create_buffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Shared, &b,
                                                   kPictureAlign))
            return err;
        if (!b.coherent()) {
            // Host writes would need a flush nobody calls: pictures are plain memory
            // to their writers.
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan: %s has no coherent host-visible memory for device pictures\n",
                st.info().name.c_str());
            return -ENOTSUP;
        }
        VmafPicture probe{};
        picture_wrap(&probe, fmt, bpc, w, h, b.data(), nullptr);
        DevicePicture &t = s->tags[i];
        t.state = &st;
        t.buffer = b.get();
        for (unsigned p = 0; p < 3; p++)
            t.plane_offset[p] = probe.data[p] ? VkDeviceSize(static_cast<std::byte *>(probe.data[p]) - b.data()) : 0;
        picture_unref(&probe);
        s->free_list.push_back(i);
    }
    out->reset(new DevicePicturePool(std::move(s)));
    return 0;
}

DevicePicturePool::~DevicePicturePool() = default;

int DevicePicturePool::try_fetch(VmafPicture *pic) { return take(pic, false); }
int DevicePicturePool::fetch(VmafPicture *pic) { return take(pic, true); }

int DevicePicturePool::take(VmafPicture *pic, bool wait)
{
    if (!pic) return -EINVAL;
    std::unique_lock lock(shared_->mutex);
    if (wait)
        shared_->freed.wait(lock, [&] { return !shared_->free_list.empty(); });
    else if (shared_->free_list.empty())
        return -EAGAIN;
    const size_t i = shared_->free_list.back();
    shared_->free_list.pop_back();
    lock.unlock();

    std::shared_ptr<Shared> keep = shared_;
    const int err = picture_wrap(pic, shared_->fmt, shared_->bpc, shared_->w, shared_->h, shared_->buffers[i].data(),
                                 [keep, i](void *) {
                                     std::lock_guard l(keep->mutex);
                                     keep->free_list.push_back(i);
                                     keep->freed.notify_one();
                                 });
    if (err) {
        std::lock_guard l(shared_->mutex);
        shared_->free_list.push_back(i);
        return err;
    }
    pic->priv = &shared_->tags[i];
    return 0;
}

}  // namespace vmaf::vk
