// SPDX-License-Identifier: BSD-2-Clause-Patent
// Y4M and raw readers: formats, and clean errors on bad files.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <thread>
#include <vector>

#include "golden.h"
#include "io/video_reader.h"
#include "picture/picture.h"

using vmaf::io::VideoReader;

namespace {

std::string temp_file(const std::string &name, const std::string &bytes)
{
    const std::string path = std::string(P_tmpdir) + "/vmafvk_test_" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

int read_all(VideoReader &r, unsigned *frames, std::string *err)
{
    const auto &f = r.format();
    for (;;) {
        VmafPicture pic;
        REQUIRE(vmaf::picture_alloc(&pic, f.pix_fmt, f.bpc, f.w, f.h) == 0);
        const int ret = r.read(&pic, err);
        vmaf_picture_unref(&pic);
        if (ret <= 0) return ret;
        (*frames)++;
    }
}

}  // namespace

TEST_CASE("y4m headers of every golden pair", "[io]")
{
    struct Case { const char *file; VmafPixelFormat fmt; unsigned bpc, w, h; };
    const Case cases[] = {
        {"astronaut_320x240_422_crf33_ref.y4m", VMAF_PIX_FMT_YUV422P, 8, 320, 240},
        {"coffee_320x240_444_crf30_dis.y4m", VMAF_PIX_FMT_YUV444P, 8, 320, 240},
        {"rocket_320x240_10bit_crf30_ref.y4m", VMAF_PIX_FMT_YUV420P, 10, 320, 240},
        {"chelsea_322x186_rescale_dis.y4m", VMAF_PIX_FMT_YUV420P, 8, 322, 186},
    };
    for (const auto &c : cases) {
        std::unique_ptr<VideoReader> r;
        std::string err;
        REQUIRE(VideoReader::open_y4m(vmaf::test::data_dir() + "/" + c.file, &r, &err) == 0);
        CHECK(r->format().pix_fmt == c.fmt);
        CHECK(r->format().bpc == c.bpc);
        CHECK(r->format().w == c.w);
        CHECK(r->format().h == c.h);
        unsigned frames = 0;
        CHECK(read_all(*r, &frames, &err) == 0);
        CHECK(frames == 10);
        CHECK(r->frame_count_hint() == 10);
    }
}

TEST_CASE("y4m reader fails cleanly on bad files", "[io]")
{
    std::unique_ptr<VideoReader> r;
    std::string err;
    CHECK(VideoReader::open_y4m("/nonexistent/file.y4m", &r, &err) == -ENOENT);
    CHECK(err.find("No such file") != std::string::npos);

    CHECK(VideoReader::open_y4m(temp_file("notyuv.y4m", "RIFF1234\n"), &r, &err) == -EINVAL);
    CHECK(err.find("not a YUV4MPEG2") != std::string::npos);
    CHECK(VideoReader::open_y4m(temp_file("noheader.y4m", "YUV4MPEG2 W16 H16"), &r, &err) == -EINVAL);
    CHECK(VideoReader::open_y4m(temp_file("nosize.y4m", "YUV4MPEG2 C420\n"), &r, &err) == -EINVAL);
    CHECK(VideoReader::open_y4m(temp_file("badcs.y4m", "YUV4MPEG2 W16 H16 C411\n"), &r, &err) == -ENOTSUP);
    CHECK(err.find("C411") != std::string::npos);
    CHECK(VideoReader::open_y4m(temp_file("interlaced.y4m", "YUV4MPEG2 W16 H16 It\n"), &r, &err) == -ENOTSUP);

    // A truncated frame: header plus half a 16x16 4:2:0 frame.
    REQUIRE(VideoReader::open_y4m(temp_file("trunc.y4m", "YUV4MPEG2 W16 H16 C420\nFRAME\n" +
                                            std::string(200, 'x')), &r, &err) == 0);
    unsigned frames = 0;
    CHECK(read_all(*r, &frames, &err) == -EIO);
    CHECK(err.find("truncated frame 0") != std::string::npos);

    // Garbage where the second FRAME marker should be.
    REQUIRE(VideoReader::open_y4m(temp_file("corrupt.y4m", "YUV4MPEG2 W16 H16 C420\nFRAME\n" +
                                            std::string(384, 'x') + "GARBAGE"), &r, &err) == 0);
    frames = 0;
    CHECK(read_all(*r, &frames, &err) == -EINVAL);
    CHECK(frames == 1);
    CHECK(err.find("corrupt") != std::string::npos);

    // Header only: zero frames, clean end.
    REQUIRE(VideoReader::open_y4m(temp_file("empty.y4m", "YUV4MPEG2 W16 H16 C420\n"), &r, &err) == 0);
    frames = 0;
    CHECK(read_all(*r, &frames, &err) == 0);
    CHECK(frames == 0);
}

TEST_CASE("raw reader checks geometry and size", "[io]")
{
    std::unique_ptr<VideoReader> r;
    std::string err;
    const std::string two_frames = temp_file("two.yuv", std::string(2 * 384, '\x10'));
    CHECK(VideoReader::open_raw(two_frames, 16, 16, VMAF_PIX_FMT_YUV420P, 9, &r, &err) == -ENOTSUP);
    CHECK(VideoReader::open_raw(two_frames, 0, 16, VMAF_PIX_FMT_YUV420P, 8, &r, &err) == -EINVAL);
    CHECK(VideoReader::open_raw(two_frames, 16, 16, VMAF_PIX_FMT_UNKNOWN, 8, &r, &err) == -EINVAL);
    // A value outside the enum (found by fuzzing: it opened, and no picture fits it).
    CHECK(VideoReader::open_raw(two_frames, 16, 16, VmafPixelFormat(5), 8, &r, &err) == -EINVAL);
    CHECK(VideoReader::open_raw(two_frames, 16, 15, VMAF_PIX_FMT_YUV420P, 8, &r, &err) == -EINVAL);
    REQUIRE(VideoReader::open_raw(two_frames, 16, 16, VMAF_PIX_FMT_YUV420P, 8, &r, &err) == 0);
    CHECK(r->frame_count_hint() == 2);
    unsigned frames = 0;
    CHECK(read_all(*r, &frames, &err) == 0);
    CHECK(frames == 2);
}

TEST_CASE("skip reads past frames and reports a truncated one", "[io]")
{
    // Two 4x2 mono frames (8 bytes each), the second cut short.
    const std::string frame(8, '\x10');
    const std::string path = temp_file("skip.y4m", "YUV4MPEG2 W4 H2 Cmono\nFRAME\n" + frame +
                                                       "FRAME\n" + frame.substr(0, 5));
    std::unique_ptr<VideoReader> r;
    std::string err;
    REQUIRE(VideoReader::open_y4m(path, &r, &err) == 0);
    CHECK(r->skip(1, &err) == 1);
    CHECK(r->skip(1, &err) == -EIO);
    CHECK(err.find("truncated frame 1") != std::string::npos);

    // Skipping past the end of a whole file is a clean end, not an error.
    const std::string raw = temp_file("skip.yuv", frame + frame);
    REQUIRE(VideoReader::open_raw(raw, 4, 2, VMAF_PIX_FMT_YUV400P, 8, &r, &err) == 0);
    CHECK(r->skip(2, &err) == 1);
    CHECK(r->skip(1, &err) == 0);
    std::remove(path.c_str());
    std::remove(raw.c_str());
}

TEST_CASE("skip reads frames larger than its buffer, and never allocates a claimed frame", "[io]")
{
    // 3 MiB frames (1024x1024 4:4:4): skipped in pieces, the next frame is read whole.
    const std::string big(3u << 20, '\x20'), next(3u << 20, '\x30');
    const std::string path = temp_file("skip_big.y4m", "YUV4MPEG2 W1024 H1024 C444\nFRAME\n" + big +
                                                           "FRAME\n" + next);
    std::unique_ptr<VideoReader> r;
    std::string err;
    REQUIRE(VideoReader::open_y4m(path, &r, &err) == 0);
    CHECK(r->skip(1, &err) == 1);
    VmafPicture pic;
    REQUIRE(vmaf::picture_alloc(&pic, VMAF_PIX_FMT_YUV444P, 8, 1024, 1024) == 0);
    CHECK(r->read(&pic, &err) == 1);
    CHECK(static_cast<const uint8_t *>(pic.data[2])[1023] == 0x30);
    vmaf_picture_unref(&pic);
    CHECK(r->skip(1, &err) == 0);

    // A header that claims 24 GiB frames over a few bytes: a truncated frame,
    // found without a buffer of the claimed size (found by fuzzing: skip
    // allocated the whole frame first).
    const std::string huge = temp_file("skip_huge.y4m", "YUV4MPEG2 W65536 H65536 C444p16\nFRAME\nabc");
    REQUIRE(VideoReader::open_y4m(huge, &r, &err) == 0);
    CHECK(r->skip(1, &err) == -EIO);
    CHECK(err.find("truncated frame 0") != std::string::npos);
    std::remove(path.c_str());
    std::remove(huge.c_str());
}

TEST_CASE("a deeper picture gets the samples shifted up (common bit depth)", "[io]")
{
    // One 4x2 4:2:0 8-bit frame: Y 0..7, U 100 101, V 200 201.
    std::string y4m = "YUV4MPEG2 W4 H2 F25:1 Ip A1:1 C420jpeg\nFRAME\n";
    for (int i = 0; i < 8; i++) y4m += char(i * 30);
    y4m += std::string("\x64\x65", 2) + std::string("\xc8\xc9", 2);
    const std::string path = temp_file("deeper.y4m", y4m);
    std::unique_ptr<VideoReader> r;
    std::string err;
    REQUIRE(VideoReader::open_y4m(path, &r, &err) == 0);
    VmafPicture pic;
    REQUIRE(vmaf::picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 10, 4, 2) == 0);
    REQUIRE(r->read(&pic, &err) == 1);
    const auto *y = static_cast<const uint16_t *>(pic.data[0]);
    const auto *y1 = reinterpret_cast<const uint16_t *>(static_cast<const uint8_t *>(pic.data[0]) + pic.stride[0]);
    CHECK(y[0] == 0);
    CHECK(y[3] == 90 * 4);
    CHECK(y1[3] == 210 * 4);
    CHECK(static_cast<const uint16_t *>(pic.data[1])[1] == 101 * 4);
    CHECK(static_cast<const uint16_t *>(pic.data[2])[0] == 200 * 4);
    vmaf_picture_unref(&pic);

    std::remove(path.c_str());

    // A shallower picture cannot hold a deeper video.
    const std::string path10 = temp_file("deeper10.y4m",
        "YUV4MPEG2 W4 H2 F25:1 Ip A1:1 C420p10\nFRAME\n" + std::string(12 * 2, '\x01'));
    REQUIRE(VideoReader::open_y4m(path10, &r, &err) == 0);
    REQUIRE(vmaf::picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 8, 4, 2) == 0);
    CHECK(r->read(&pic, &err) == -EINVAL);
    CHECK(err.find("cannot hold") != std::string::npos);
    vmaf_picture_unref(&pic);
    std::remove(path10.c_str());
}

TEST_CASE("locate and fill read the frames read() reads, from several threads", "[io]")
{
    // Six 4x2 4:2:0 frames (12 bytes each), each sample its frame's number
    // plus its place; one header with parameters; the last frame cut short.
    std::string y4m = "YUV4MPEG2 W4 H2 C420jpeg\n";
    for (int i = 0; i < 6; i++) {
        y4m += i == 2 ? "FRAME Ixyz\n" : "FRAME\n";
        for (int k = 0; k < 12; k++) y4m += char(16 * i + k);
    }
    y4m.resize(y4m.size() - 5);
    const std::string path = temp_file("locate.y4m", y4m);
    std::unique_ptr<VideoReader> r;
    std::string err;
    REQUIRE(VideoReader::open_y4m(path, &r, &err) == 0);
    REQUIRE(r->positional());
    CHECK(r->skip(1, &err) == 1);
    std::vector<VideoReader::FrameSpan> spans(5);
    for (auto &s : spans) REQUIRE(r->locate(&s, &err) == 1);
    VideoReader::FrameSpan end{};
    CHECK(r->locate(&end, &err) == 0);

    // Filled out of order, on threads, one through a bounce buffer of 5 bytes.
    std::vector<VmafPicture> pics(5);
    std::vector<int> rc(5);
    std::vector<std::string> errs(5);
    std::vector<std::thread> threads;
    for (auto &p : pics) REQUIRE(vmaf::picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 4, 2) == 0);
    for (unsigned i = 0; i < 5; i++) {
        threads.emplace_back([&, i] {
            std::vector<uint8_t> bounce(i == 1 ? 5 : 0);
            rc[4 - i] = r->fill(spans[4 - i], &pics[4 - i], &bounce, &errs[4 - i]);
        });
    }
    for (auto &t : threads) t.join();
    for (unsigned i = 0; i < 4; i++) {
        INFO("frame " << i + 1);
        REQUIRE(rc[i] == 1);
        CHECK(spans[i].index == i + 1);
        const auto *y = static_cast<const uint8_t *>(pics[i].data[0]);
        CHECK(y[0] == 16 * (i + 1));
        CHECK(y[pics[i].stride[0] + 3] == 16 * (i + 1) + 7);
        CHECK(static_cast<const uint8_t *>(pics[i].data[1])[1] == 16 * (i + 1) + 9);
        CHECK(static_cast<const uint8_t *>(pics[i].data[2])[1] == 16 * (i + 1) + 11);
    }
    CHECK(rc[4] == -EIO);
    CHECK(errs[4].find("truncated frame 5") != std::string::npos);
    for (auto &p : pics) vmaf_picture_unref(&p);
    std::remove(path.c_str());

    // A raw file: its end is where its size says.
    const std::string raw = temp_file("locate.yuv", std::string(2 * 12, '\x21'));
    REQUIRE(VideoReader::open_raw(raw, 4, 2, VMAF_PIX_FMT_YUV420P, 8, &r, &err) == 0);
    REQUIRE(r->positional());
    VideoReader::FrameSpan s{};
    CHECK(r->locate(&s, &err) == 1);
    CHECK(r->locate(&s, &err) == 1);
    CHECK(s.offset == 12);
    CHECK(r->locate(&s, &err) == 0);
    std::remove(raw.c_str());
}
