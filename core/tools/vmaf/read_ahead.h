// SPDX-License-Identifier: BSD-2-Clause-Patent
// Reading frames ahead on threads: the vmaf tool's file reading overlaps the
// library's scoring (adr/0028-cli-read-ahead.md, adr/0045-cli-parallel-reads.md).
//
// The caller's thread makes every library call: it takes empty pictures from
// the context's pool and hands them to the readers, which fill them on their
// own threads and hand them back in file order. Pictures handed over and not
// yet taken back are at most the depth the caller keeps (give() as many as it
// wants in flight); the pool must hold them besides what the library keeps.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/video_reader.h"
#include "libvmaf/picture.h"

namespace vmaf::cli {

class ReadAhead {
public:
    // `reader` outlives this object. With `threads` > 1 and a positional
    // reader, that many frames are read at once: each thread locates the next
    // frame (one at a time) and reads its samples beside the others.
    ReadAhead(io::VideoReader &reader, unsigned threads);
    // Stops the threads after the frames they read, joins them and
    // unreferences every picture still held here.
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
    const bool positional_;  // several threads, each locating then filling a frame
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<VmafPicture> todo_;  // empty, in frame order
    std::map<unsigned, Item> done_; // read, by the order they were taken from todo_
    unsigned started_ = 0;          // pictures taken from todo_
    unsigned next_ = 0;             // the next one take() returns
    unsigned end_ = ~0u;            // the first with an end or error
    bool stop_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace vmaf::cli
