// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "read_ahead.h"

#include "libvmaf/libvmaf.h"

namespace vmaf::cli {

ReadAhead::ReadAhead(io::VideoReader &reader, unsigned threads)
    : reader_(reader), positional_(reader.positional() && threads > 1)
{
    if (!positional_) threads = 1;
    for (unsigned i = 0; i < threads; i++) threads_.emplace_back([this] { run(); });
}

ReadAhead::~ReadAhead()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    cv_.notify_all();
    for (std::thread &t : threads_) t.join();
    for (VmafPicture &p : todo_) vmaf_picture_unref(&p);
    for (auto &[seq, it] : done_) vmaf_picture_unref(&it.pic);
}

void ReadAhead::give(const VmafPicture &pic)
{
    {
        std::lock_guard lock(mutex_);
        todo_.push_back(pic);
    }
    cv_.notify_all();
}

int ReadAhead::take(VmafPicture *pic, std::string *err)
{
    std::unique_lock lock(mutex_);
    // Past the end: it was taken already, nothing more comes.
    if (next_ > end_) return 0;
    cv_.wait(lock, [&] { return done_.count(next_) != 0; });
    auto node = done_.extract(next_);
    Item &it = node.mapped();
    next_++;
    if (it.rc <= 0) {
        // Nothing after the end or an error: return what is still queued.
        // Frames read after it stay in done_ until the destructor.
        vmaf_picture_unref(&it.pic);
        for (VmafPicture &p : todo_) vmaf_picture_unref(&p);
        todo_.clear();
        if (it.rc < 0) *err = std::move(it.err);
        return it.rc;
    }
    *pic = it.pic;
    return 1;
}

void ReadAhead::run()
{
    std::vector<uint8_t> bounce(positional_ ? reader_.bounce_size() : 0);
    for (;;) {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return stop_ || (!todo_.empty() && started_ < end_); });
        if (stop_) return;
        const unsigned seq = started_++;
        Item it{todo_.front(), 0, {}};
        todo_.pop_front();
        if (positional_) {
            // One thread at a time moves through the file, in order; the
            // samples are read beside the other threads.
            io::VideoReader::FrameSpan span{};
            it.rc = reader_.locate(&span, &it.err);
            if (it.rc > 0) {
                lock.unlock();
                it.rc = reader_.fill(span, &it.pic, &bounce, &it.err);
                lock.lock();
            }
        } else {
            // The only thread: the frames come in order anyway.
            lock.unlock();
            it.rc = reader_.read(&it.pic, &it.err);
            lock.lock();
        }
        if (it.rc <= 0 && seq < end_) end_ = seq;
        done_.emplace(seq, std::move(it));
        lock.unlock();
        cv_.notify_all();
    }
}

}  // namespace vmaf::cli
