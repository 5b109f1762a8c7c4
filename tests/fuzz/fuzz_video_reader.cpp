// SPDX-License-Identifier: BSD-2-Clause-Patent
// The .y4m and raw .yuv readers (core/tools/io/video_reader.cpp) on fuzzed files.
//
// Input: one control byte, then the file.
//   control bit 0     0: YUV4MPEG2 (open_y4m), 1: raw planar (open_raw)
//   raw only          width, height (1 byte each, 0 included), pixel format
//                     and bit depth (1 byte each, out-of-range values included)
//   then              picture depth step (1 byte: read into a 0..2 steps deeper
//                     picture), frames to skip (1 byte), then the file content.
// Pictures are allocated only up to 1 << 20 luma samples: a header may
// legitimately ask for a 65536x65536 frame, which is no bug to refuse.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "io/video_reader.h"
#include "picture/picture.h"
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
    const vmaf::io::VideoFormat f = r->format();
    (void)r->frame_count_hint();

    // A second reader of the same file reads it by locate() and fill(), the
    // vmaf tool's way with several threads: the same frames, the same ends.
    std::unique_ptr<vmaf::io::VideoReader> r2;
    if ((raw ? vmaf::io::VideoReader::open_raw(path, w, h, fmt, bpc, &r2, &err)
             : vmaf::io::VideoReader::open_y4m(path, &r2, &err)) != 0)
        fuzz::fail("a second open of the same file failed");
    if (!r2->positional()) fuzz::fail("a reader of a regular file is not positional");

    if (skip) {
        const int s = r->skip(skip, &err);
        if (s < 0 && err.empty()) fuzz::fail("skip failed without a message");
        if (r2->skip(skip, &err) != s) fuzz::fail("skip differs between two readers of one file");
        if (s <= 0) return 0;
    }
    if (size_t(f.w) * f.h > (1u << 20)) return 0;
    const unsigned pic_bpc = kDepths[std::min(3u, depth_index(f.bpc) + deeper)];
    std::vector<uint8_t> none, bounce(7);  // odd frames through a bounce buffer of an odd size
    for (int frame = 0; frame < 4; frame++) {
        VmafPicture pic{}, pic2{};
        if (vmaf_picture_alloc(&pic, f.pix_fmt, pic_bpc, f.w, f.h) ||
            vmaf_picture_alloc(&pic2, f.pix_fmt, pic_bpc, f.w, f.h))
            fuzz::fail("picture allocation failed");
        err.clear();
        const int got = r->read(&pic, &err);
        if (got < 0 && err.empty()) fuzz::fail("read failed without a message");
        std::string err2;
        vmaf::io::VideoReader::FrameSpan span{};
        int got2 = r2->locate(&span, &err2);
        if (got2 > 0) got2 = r2->fill(span, &pic2, frame & 1 ? &bounce : &none, &err2);
        if (got2 != got) fuzz::fail("locate and fill differ from read");
        if (got2 < 0 && err2.empty()) fuzz::fail("locate or fill failed without a message");
        if (got > 0)
            for (unsigned p = 0; p < vmaf::plane_count(f.pix_fmt); p++)
                for (unsigned y = 0; y < pic.h[p]; y++)
                    if (std::memcmp(static_cast<const uint8_t *>(pic.data[p]) + y * pic.stride[p],
                                    static_cast<const uint8_t *>(pic2.data[p]) + y * pic2.stride[p],
                                    size_t(pic.w[p]) * (pic_bpc > 8 ? 2 : 1)) != 0)
                        fuzz::fail("fill read other samples than read");
        vmaf_picture_unref(&pic);
        vmaf_picture_unref(&pic2);
        if (got <= 0) break;
    }
    return 0;
}
