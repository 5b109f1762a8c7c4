// The .y4m and raw .yuv readers (core/src/io/video_reader.cpp) on fuzzed files.
//
// Input: one control byte, then the file.
//   control bit 0     0: YUV4MPEG2 (open_y4m), 1: raw planar (open_raw)
//   raw only          width, height (1 byte each, 0 included), pixel format
//                     and bit depth (1 byte each, out-of-range values included)
//   then              picture depth step (1 byte: read into a 0..2 steps deeper
//                     picture), frames to skip (1 byte), then the file content.
// Pictures are allocated only up to 1 << 20 luma samples: a header may
// legitimately ask for a 65536x65536 frame, which is no bug to refuse.
#include <memory>
#include <string>

#include "fuzz_common.h"
#include "io/video_reader.h"
#include "libvmaf/picture.h"

namespace {

constexpr unsigned kDepths[] = {8, 10, 12, 16};

unsigned depth_index(unsigned bpc)
{
    for (unsigned i = 0; i < 4; i++)
        if (kDepths[i] == bpc) return i;
    return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzz::MemFile file;
    fuzz::Input in(data, size);
    const bool raw = in.u8() & 1;
    unsigned w = 0, h = 0, bpc = 0;
    VmafPixelFormat fmt = VMAF_PIX_FMT_UNKNOWN;
    if (raw) {
        w = in.u8();
        h = in.u8();
        fmt = VmafPixelFormat(in.u8() % 6);
        const uint8_t b = in.u8();
        bpc = b < 4 ? kDepths[b] : b;  // mostly valid depths, any other byte as is
    }
    const unsigned deeper = in.u8() % 3;
    const unsigned skip = in.u8() % 4;
    const char *path = file.write(in.rest());

    std::unique_ptr<vmaf::io::VideoReader> r;
    std::string err;
    const int e = raw ? vmaf::io::VideoReader::open_raw(path, w, h, fmt, bpc, &r, &err)
                      : vmaf::io::VideoReader::open_y4m(path, &r, &err);
    if (e) {
        if (r) fuzz::fail("open failed but returned a reader");
        if (err.empty()) fuzz::fail("open failed without a message");
        return 0;
    }
    if (!r) fuzz::fail("open succeeded without a reader");
    const vmaf::FrameFormat f = r->format();
    (void)r->frame_count_hint();

    if (skip) {
        const int s = r->skip(skip, &err);
        if (s < 0 && err.empty()) fuzz::fail("skip failed without a message");
        if (s <= 0) return 0;
    }
    if (size_t(f.w) * f.h > (1u << 20)) return 0;
    const unsigned pic_bpc = kDepths[std::min(3u, depth_index(f.bpc) + deeper)];
    for (int frame = 0; frame < 4; frame++) {
        VmafPicture pic{};
        if (vmaf_picture_alloc(&pic, f.pix_fmt, pic_bpc, f.w, f.h)) fuzz::fail("picture allocation failed");
        err.clear();
        const int got = r->read(&pic, &err);
        vmaf_picture_unref(&pic);
        if (got < 0 && err.empty()) fuzz::fail("read failed without a message");
        if (got <= 0) break;
    }
    return 0;
}
