#include "read_ahead.h"

#include "libvmaf/libvmaf.h"

namespace vmaf::cli {

ReadAhead::ReadAhead(io::VideoReader &reader) : reader_(reader)
{
    thread_ = std::thread([this] { run(); });
}

ReadAhead::~ReadAhead()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
    for (VmafPicture &p : todo_) vmaf_picture_unref(&p);
    for (Item &it : done_) vmaf_picture_unref(&it.pic);
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
    // ended_ with nothing done: the end was taken already, nothing more comes.
    cv_.wait(lock, [&] { return !done_.empty() || ended_; });
    if (done_.empty()) return 0;
    Item it = std::move(done_.front());
    done_.pop_front();
    if (it.rc <= 0) {
        // Nothing after the end or an error: return what is still queued.
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
    for (;;) {
        VmafPicture pic;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stop_ || (!todo_.empty() && !ended_); });
            if (stop_) return;
            pic = todo_.front();
            todo_.pop_front();
        }
        Item it{pic, 0, {}};
        it.rc = reader_.read(&it.pic, &it.err);
        {
            std::lock_guard lock(mutex_);
            if (it.rc <= 0) ended_ = true;
            done_.push_back(std::move(it));
        }
        cv_.notify_all();
    }
}

}  // namespace vmaf::cli
