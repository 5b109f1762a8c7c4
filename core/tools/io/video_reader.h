// SPDX-License-Identifier: BSD-2-Clause-Patent
// Readers for .y4m and raw planar .yuv files (CLI, benchmarks and tests; the
// library core never reads files).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

#include "libvmaf/picture.h"

namespace vmaf::io {

// A video's frames in the public picture's terms: pixel format, bits per
// component (8 to 16) and the luma plane's size. The plane geometry of each
// format (chroma subsampling, plane count, sample size) is the readers' own.
struct VideoFormat {
    VmafPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w, h;
};

class VideoReader {
public:
    virtual ~VideoReader();

    // Open a YUV4MPEG2 file: 4:2:0, 4:2:2, 4:4:4 and mono at 8 to 16 bits.
    static int open_y4m(const std::string &path, std::unique_ptr<VideoReader> *out,
                        std::string *err);
    // Open a headerless planar file of the given geometry.
    static int open_raw(const std::string &path, unsigned w, unsigned h,
                        VmafPixelFormat fmt, unsigned bpc,
                        std::unique_ptr<VideoReader> *out, std::string *err);
    // Choose by extension: ".y4m" is YUV4MPEG2, anything else needs raw geometry
    // (w, h nonzero), otherwise it fails with a message.
    static int open(const std::string &path, unsigned w, unsigned h,
                    VmafPixelFormat fmt, unsigned bpc,
                    std::unique_ptr<VideoReader> *out, std::string *err);

    const VideoFormat &format() const { return fmt_; }
    const std::string &path() const { return path_; }
    // Frame count when the file size tells it (0 when unknown).
    unsigned frame_count_hint() const { return frame_hint_; }
    // Frames per second as num/den (both 0 when the file does not say).
    unsigned rate_num() const { return rate_num_; }
    unsigned rate_den() const { return rate_den_; }
    // After the last frame: why the video ended before its end (a compressed
    // stream cut short, read with allow_truncated), or "" when it ended whole.
    virtual std::string short_end() const { return {}; }

    // Read the next frame into `pic` (allocated with format(), or with a
    // greater bit depth: the samples are then shifted up to it). Returns 1 on a
    // frame, 0 at a clean end of file, negative errno on a truncated or corrupt
    // frame (message in *err).
    virtual int read(VmafPicture *pic, std::string *err);
    // Read through a host buffer of `bytes` (0: straight into the picture), then
    // copy: for pictures in memory the CPU writes slowly from the kernel, such as
    // write-combined GPU memory, where a copy from a cached buffer is faster.
    void set_bounce(size_t bytes) { bounce_.assign(bytes, 0); }
    size_t bounce_size() const { return bounce_.size(); }
    // Skip n frames; same return convention as read().
    virtual int skip(unsigned n, std::string *err);

    // Reading several frames at once, on several threads: locate() the frames
    // one after another, then fill() each from any thread. Only readers of
    // regular .y4m and .yuv files are positional; the others only read().
    struct FrameSpan {
        off_t offset;    // of the frame's first sample in the file
        unsigned index;  // frames before it (after skip()), for messages
    };
    bool positional() const { return positional_; }
    // The next frame's place, moving past it without reading its samples: 1 on
    // a frame, 0 at the end, negative errno on a corrupt frame header (message
    // in *err). A frame cut short is found by fill(). Not with read().
    int locate(FrameSpan *span, std::string *err);
    // Read a located frame into `pic` as read() would, through `bounce` when it
    // is not empty (see set_bounce()): 1, or negative errno (a frame cut short,
    // a read error). Safe from several threads at once, with locate() too.
    int fill(const FrameSpan &span, VmafPicture *pic, std::vector<uint8_t> *bounce,
             std::string *err) const;

protected:
    VideoReader() = default;
    std::string path_;
    VideoFormat fmt_{};
    unsigned frame_hint_ = 0;
    unsigned rate_num_ = 0, rate_den_ = 0;

private:
    int read_frame_header(std::string *err);
    template <typename Source>
    int fill_planes(VmafPicture *pic, unsigned index, bool may_end, std::vector<uint8_t> *bounce,
                    std::string *err, Source &&src) const;
    std::FILE *f_ = nullptr;
    bool y4m_ = false;
    size_t frame_bytes_ = 0;
    unsigned frames_read_ = 0;
    std::vector<uint8_t> bounce_;
    bool positional_ = false;  // a regular file: locate() and fill() work
    off_t file_size_ = 0;
};

// Whether this build reads other files through FFmpeg's libraries.
bool have_libav();
// Open any file FFmpeg demuxes and decodes (first video stream, decoded on the
// CPU); -ENOSYS in a build without them. Planar YUV and grey frames of 8 to
// 16 bits are read as they are; other pixel formats fail with a message
// saying how to convert them.
// Frames come in presentation order, each one frame after the one before it
// by its timestamps; a frame missing, a timestamp going back, or a stream
// that ends before the length its container gives is an error (-EIO), unless
// `allow_truncated`: then the video ends before the first frame not there, and
// short_end() says so. The name is always a file name (never an FFmpeg
// protocol such as "http:" or "file:").
int open_libav(const std::string &path, std::unique_ptr<VideoReader> *out, std::string *err,
               bool allow_truncated = false);
// "libavformat 59.27.100, libavcodec 59.37.100" of the build, or "".
std::string libav_versions();

// Parse "420", "422", "444", "400" into a pixel format (UNKNOWN on failure).
VmafPixelFormat parse_pix_fmt(const std::string &s);
const char *pix_fmt_name(VmafPixelFormat fmt);

}  // namespace vmaf::io
