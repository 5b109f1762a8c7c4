// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "picture/pool.h"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "picture/picture.h"

namespace vmaf {

struct PicturePool::Shared {
    VmafPixelFormat fmt;
    unsigned bpc, w, h;
    std::mutex mutex;
    std::condition_variable freed;
    std::vector<std::shared_ptr<HostStorage>> free_list;  // the storage lives while the pool
                                                          // or one of its pictures does
};

int PicturePool::create(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                        unsigned count, std::unique_ptr<PicturePool> *out)
{
    const size_t size = picture_storage_size(fmt, bpc, w, h);
    if (!size || !count || count > 1024) return -EINVAL;
    auto s = std::make_shared<Shared>();
    s->fmt = fmt;
    s->bpc = bpc;
    s->w = w;
    s->h = h;
    for (unsigned i = 0; i < count; i++) {
        std::shared_ptr<HostStorage> p = HostStorage::allocate(size);
        if (!p) return -ENOMEM;
        std::memset(p->base(), 0, p->size());  // as vmaf_picture_alloc's
        s->free_list.push_back(std::move(p));
    }
    out->reset(new PicturePool(std::move(s)));
    return 0;
}

PicturePool::~PicturePool() = default;

int PicturePool::fetch(VmafPicture *pic)
{
    return fetch(pic, -1);
}

int PicturePool::fetch(VmafPicture *pic, int timeout_ms)
{
    if (!pic) return -EINVAL;
    std::unique_lock lock(shared_->mutex);
    const auto free = [&] { return !shared_->free_list.empty(); };
    if (timeout_ms < 0)
        shared_->freed.wait(lock, free);
    else if (timeout_ms == 0 && !free())
        return -EBUSY;
    else if (!shared_->freed.wait_for(lock, std::chrono::milliseconds(timeout_ms), free))
        return -ETIMEDOUT;
    std::shared_ptr<HostStorage> storage = std::move(shared_->free_list.back());
    shared_->free_list.pop_back();
    lock.unlock();

    // The last reference to the picture hands its storage back to the shared
    // state, which outlives the pool while pictures are out.
    std::shared_ptr<Shared> keep = shared_;
    const int err = picture_wrap(pic, shared_->fmt, shared_->bpc, shared_->w, shared_->h, storage,
                                 [keep, storage](void *) {
                                     std::lock_guard l(keep->mutex);
                                     keep->free_list.push_back(storage);
                                     keep->freed.notify_one();
                                 });
    if (err) {
        std::lock_guard l(shared_->mutex);
        shared_->free_list.push_back(std::move(storage));
    }
    return err;
}

}  // namespace vmaf
