#include "picture/pool.h"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "picture/picture.h"

namespace vmaf {

struct PicturePool::Shared {
    VmafPixelFormat fmt;
    unsigned bpc, w, h;
    std::mutex mutex;
    std::condition_variable freed;
    std::vector<void *> free_list;
    std::vector<void *> all;

    ~Shared()
    {
        for (void *p : all) std::free(p);
    }
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
        void *p = std::aligned_alloc(kPictureAlign, size);
        if (!p) return -ENOMEM;
        s->all.push_back(p);
        s->free_list.push_back(p);
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
    void *storage = shared_->free_list.back();
    shared_->free_list.pop_back();
    lock.unlock();

    // Pictures keep the pool's storage alive through the shared state.
    std::shared_ptr<Shared> keep = shared_;
    const int err = picture_wrap(pic, shared_->fmt, shared_->bpc, shared_->w, shared_->h, storage,
                                 [keep](void *s) {
                                     std::lock_guard l(keep->mutex);
                                     keep->free_list.push_back(s);
                                     keep->freed.notify_one();
                                 });
    if (err) {
        std::lock_guard l(shared_->mutex);
        shared_->free_list.push_back(storage);
    }
    return err;
}

}  // namespace vmaf
