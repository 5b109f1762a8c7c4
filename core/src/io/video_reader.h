// Readers for .y4m and raw planar .yuv files (CLI, benchmarks and tests; the
// library core never reads files).
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "feature/extractor.h"
#include "libvmaf/picture.h"

namespace vmaf::io {

class VideoReader {
public:
    ~VideoReader();

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

    const FrameFormat &format() const { return fmt_; }
    const std::string &path() const { return path_; }
    // Frame count when the file size tells it (0 when unknown).
    unsigned frame_count_hint() const { return frame_hint_; }

    // Read the next frame into `pic` (which must be allocated with format()).
    // Returns 1 on a frame, 0 at a clean end of file, negative errno on a
    // truncated or corrupt frame (message in *err).
    int read(VmafPicture *pic, std::string *err);
    // Skip n frames; same return convention as read().
    int skip(unsigned n, std::string *err);

private:
    VideoReader() = default;
    int read_frame_header(std::string *err);
    std::FILE *f_ = nullptr;
    std::string path_;
    FrameFormat fmt_{};
    bool y4m_ = false;
    size_t frame_bytes_ = 0;
    unsigned frame_hint_ = 0;
    unsigned frames_read_ = 0;
};

// Parse "420", "422", "444", "400" into a pixel format (UNKNOWN on failure).
VmafPixelFormat parse_pix_fmt(const std::string &s);
const char *pix_fmt_name(VmafPixelFormat fmt);

}  // namespace vmaf::io
