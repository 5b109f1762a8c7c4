// Reading frames ahead on a thread: the vmaf tool's file reading overlaps the
// library's scoring (adr/0028-cli-read-ahead.md).
//
// The caller's thread makes every library call: it takes empty pictures from
// the context's pool and hands them to the reader, which fills them in file
// order on its own thread and hands them back. Pictures handed over and not yet
// taken back are at most the depth the caller keeps (give() as many as it wants
// in flight); the pool must hold them besides what the library keeps.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "io/video_reader.h"
#include "libvmaf/picture.h"

namespace vmaf::cli {

class ReadAhead {
public:
    // `reader` outlives this object.
    explicit ReadAhead(io::VideoReader &reader);
    // Stops the thread after the frame it reads, joins it and unreferences every
    // picture still held here.
    ~ReadAhead();
    ReadAhead(const ReadAhead &) = delete;
    ReadAhead &operator=(const ReadAhead &) = delete;

    // Queue an empty picture (its reference passes here) for the next frame.
    void give(const VmafPicture &pic);
    // The oldest given picture once read: 1 with a frame (its reference passes to
    // the caller), 0 at the end of the file, negative errno with *err as
    // VideoReader::read() says. After 0 or an error, nothing more is read; the
    // later given pictures are unreferenced here.
    int take(VmafPicture *pic, std::string *err);

private:
    struct Item {
        VmafPicture pic;
        int rc;
        std::string err;
    };
    void run();

    io::VideoReader &reader_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<VmafPicture> todo_;  // empty, in frame order
    std::deque<Item> done_;         // read, in frame order
    bool stop_ = false;
    bool ended_ = false;  // the reader saw the end or an error
    std::thread thread_;
};

}  // namespace vmaf::cli
