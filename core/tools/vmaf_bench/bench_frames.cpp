// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "bench_frames.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numbers>

#include "io/video_reader.h"
#include "os/os.h"

namespace vmaf::bench {

namespace {

// Per frame the pattern moves this far (luma samples; even, so 4:2:0 chroma
// moves by whole samples too).
constexpr unsigned kStepX = 4, kStepY = 2;

uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

uint32_t hash3(uint32_t a, uint32_t b, uint32_t c)
{
    return hash32(a ^ hash32(b ^ hash32(c + 0x9e3779b9u)));
}

uint8_t clamp8(int v) { return uint8_t(std::clamp(v, 0, 255)); }

// A still texture larger than a frame; frames are windows into it, so the
// content moves from frame to frame like a camera pan. Smooth waves, blocks with
// hard edges (the structure VIF and ADM respond to) and fine grain. `period`
// scales the waves (chroma planes get their own look).
struct Canvas {
    unsigned w = 0, h = 0;
    std::vector<uint8_t> px;

    Canvas(unsigned w_, unsigned h_, double period, uint32_t seed) : w(w_), h(h_), px(size_t(w_) * h_)
    {
        constexpr double two_pi = 2 * std::numbers::pi;
        std::vector<double> wave_x(w), wave_y(h), diagonal(w + h);
        for (unsigned x = 0; x < w; x++) wave_x[x] = std::sin(two_pi * x / (2.7 * period));
        for (unsigned y = 0; y < h; y++) wave_y[y] = std::cos(two_pi * y / (2.1 * period));
        for (unsigned d = 0; d < w + h; d++) diagonal[d] = std::sin(two_pi * d / (0.6 * period));
        for (unsigned y = 0; y < h; y++) {
            uint8_t *row = &px[size_t(y) * w];
            for (unsigned x = 0; x < w; x++) {
                const int block = int(hash3(x / 24, y / 16, seed) % 41) - 20;
                const int grain = int(hash3(x, y, seed + 1) % 13) - 6;
                const double v = 128 + 45 * wave_x[x] * wave_y[y] + 20 * diagonal[x + y] + block + grain;
                row[x] = clamp8(int(std::lround(v)));
            }
        }
    }
};

// A window of `canvas` at (x0, y0) into one plane.
void crop(const Canvas &canvas, unsigned x0, unsigned y0, uint8_t *dst, ptrdiff_t stride, unsigned w, unsigned h)
{
    for (unsigned y = 0; y < h; y++) std::memcpy(dst + y * stride, &canvas.px[size_t(y0 + y) * canvas.w + x0], w);
}

// The distortion: a 1-4-6-4-1 blur in both directions (borders repeated), as a
// lossy encoder's smoothing, then uniform noise of +-amplitude, different for
// each frame.
void distort(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst, ptrdiff_t dst_stride, unsigned w, unsigned h,
             unsigned amplitude, uint32_t seed)
{
    constexpr int taps[5] = {1, 4, 6, 4, 1};  // sum 16, 256 after both passes
    auto at = [](int i, unsigned n) { return unsigned(std::clamp(i, 0, int(n) - 1)); };
    std::vector<int> rows(size_t(w) * h);  // the vertical pass
    for (unsigned y = 0; y < h; y++) {
        int *out = &rows[size_t(y) * w];
        std::fill(out, out + w, 0);
        for (int k = 0; k < 5; k++) {
            const uint8_t *in = src + at(int(y) + k - 2, h) * src_stride;
            for (unsigned x = 0; x < w; x++) out[x] += taps[k] * in[x];
        }
    }
    for (unsigned y = 0; y < h; y++) {
        const int *r = &rows[size_t(y) * w];
        uint8_t *out = dst + y * dst_stride;
        for (unsigned x = 0; x < w; x++) {
            int sum = 0;
            for (int k = 0; k < 5; k++) sum += taps[k] * r[at(int(x) + k - 2, w)];
            const int noise = int(hash3(x, y, seed) % (2 * amplitude + 1)) - int(amplitude);
            out[x] = clamp8((sum + 128) / 256 + noise);
        }
    }
}

}  // namespace

FrameCycle::~FrameCycle() { clear(); }

void FrameCycle::clear()
{
    for (VmafPicture &p : ref_) vmaf_picture_unref(&p);
    for (VmafPicture &p : dist_) vmaf_picture_unref(&p);
    ref_.clear();
    dist_.clear();
}

namespace {

// The canvases a synthetic sequence of `count` frames pans across.
struct SyntheticCanvases {
    SyntheticCanvases(unsigned w, unsigned h, unsigned count)
        : luma(w + kStepX * count, h + kStepY * count, 64, 1),
          cb((w + 1) / 2 + kStepX * count / 2, (h + 1) / 2 + kStepY * count / 2, 48, 2),
          cr((w + 1) / 2 + kStepX * count / 2, (h + 1) / 2 + kStepY * count / 2, 40, 3)
    {
    }
    Canvas luma, cb, cr;
};

// Frame i of the sequence into two allocated 8-bit 4:2:0 pictures.
void synthetic_frame(const SyntheticCanvases &c, unsigned i, VmafPicture *ref, VmafPicture *dist)
{
    const Canvas *planes[3] = {&c.luma, &c.cb, &c.cr};
    for (unsigned p = 0; p < 3; p++) {
        const unsigned shift = p ? 1 : 0;
        auto *r = static_cast<uint8_t *>(ref->data[p]);
        auto *d = static_cast<uint8_t *>(dist->data[p]);
        crop(*planes[p], (kStepX * i) >> shift, (kStepY * i) >> shift, r, ref->stride[p], ref->w[p], ref->h[p]);
        // Luma noise grows and shrinks over the cycle, so scores vary per frame.
        const unsigned amplitude = p ? 2 : 4 + 2 * (i % 4);
        distort(r, ref->stride[p], d, dist->stride[p], ref->w[p], ref->h[p], amplitude, i * 3 + p);
    }
}

}  // namespace

int FrameCycle::make_synthetic(unsigned w, unsigned h, unsigned count, std::string *err)
{
    clear();
    if (w < 16 || h < 16 || count == 0) {
        *err = "synthetic frames need at least 16x16 samples and one frame";
        return -EINVAL;
    }
    const SyntheticCanvases canvases(w, h, count);
    for (unsigned i = 0; i < count; i++) {
        VmafPicture ref{}, dist{};
        if (vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, w, h) ||
            vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV420P, 8, w, h)) {
            if (ref.ref) vmaf_picture_unref(&ref);
            *err = "out of memory for the frames";
            return -ENOMEM;
        }
        synthetic_frame(canvases, i, &ref, &dist);
        ref_.push_back(ref);
        dist_.push_back(dist);
    }
    return 0;
}

int write_synthetic_y4m(unsigned w, unsigned h, unsigned count, const std::string &ref_path,
                        const std::string &dist_path, std::string *err)
{
    if (w < 16 || h < 16 || count == 0) {
        *err = "synthetic frames need at least 16x16 samples and one frame";
        return -EINVAL;
    }
    VmafPicture pics[2]{};
    if (vmaf_picture_alloc(&pics[0], VMAF_PIX_FMT_YUV420P, 8, w, h) ||
        vmaf_picture_alloc(&pics[1], VMAF_PIX_FMT_YUV420P, 8, w, h)) {
        if (pics[0].ref) vmaf_picture_unref(&pics[0]);
        *err = "out of memory for the frames";
        return -ENOMEM;
    }
    std::FILE *files[2] = {os::open_file(ref_path, "wb"), os::open_file(dist_path, "wb")};
    int e = 0;
    for (unsigned s = 0; s < 2; s++)
        if (!files[s] && !e) {
            e = -errno;
            *err = (s ? dist_path : ref_path) + ": " + std::strerror(errno);
        }
    if (!e) {
        const SyntheticCanvases canvases(w, h, count);
        for (std::FILE *f : files) std::fprintf(f, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 C420jpeg\n", w, h);
        for (unsigned i = 0; i < count && !e; i++) {
            synthetic_frame(canvases, i, &pics[0], &pics[1]);
            for (unsigned s = 0; s < 2; s++) {
                std::fputs("FRAME\n", files[s]);
                for (unsigned p = 0; p < 3; p++) {
                    const auto *row = static_cast<const uint8_t *>(pics[s].data[p]);
                    for (unsigned y = 0; y < pics[s].h[p]; y++, row += pics[s].stride[p])
                        std::fwrite(row, 1, pics[s].w[p], files[s]);
                }
            }
        }
        for (unsigned s = 0; s < 2; s++)
            if (!e && (std::ferror(files[s]) || std::fflush(files[s]))) {
                e = -EIO;
                *err = (s ? dist_path : ref_path) + ": write failed";
            }
    }
    for (std::FILE *f : files)
        if (f) std::fclose(f);
    vmaf_picture_unref(&pics[0]);
    vmaf_picture_unref(&pics[1]);
    return e;
}

int FrameCycle::read_y4m(const std::string &ref_path, const std::string &dist_path, unsigned max_count,
                         std::string *err)
{
    clear();
    std::unique_ptr<io::VideoReader> readers[2];
    if (int e = io::VideoReader::open_y4m(ref_path, &readers[0], err)) return e;
    if (int e = io::VideoReader::open_y4m(dist_path, &readers[1], err)) return e;
    const io::VideoFormat &f = readers[0]->format();
    const io::VideoFormat &g = readers[1]->format();
    if (f.pix_fmt != g.pix_fmt || f.bpc != g.bpc || f.w != g.w || f.h != g.h) {
        *err = ref_path + " and " + dist_path + " differ in size, depth or chroma layout";
        return -EINVAL;
    }
    for (unsigned i = 0; i < max_count; i++) {
        VmafPicture pics[2] = {};
        int got[2] = {0, 0};
        for (int s = 0; s < 2; s++) {
            if (vmaf_picture_alloc(&pics[s], f.pix_fmt, f.bpc, f.w, f.h)) {
                *err = "out of memory for the frames";
                got[s] = -ENOMEM;
                break;
            }
            got[s] = readers[s]->read(&pics[s], err);
            if (got[s] != 1) break;
        }
        if (got[0] != 1 || got[1] != 1) {
            for (VmafPicture &p : pics)
                if (p.ref) vmaf_picture_unref(&p);
            if (got[0] < 0 || got[1] < 0) return std::min(got[0], got[1]);
            break;  // the shorter file ended
        }
        ref_.push_back(pics[0]);
        dist_.push_back(pics[1]);
    }
    if (ref_.empty()) {
        *err = ref_path + ": no frames";
        return -EINVAL;
    }
    return 0;
}

void copy_picture(const VmafPicture &src, VmafPicture *dst)
{
    const unsigned planes = src.pix_fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
    const size_t bytes = src.bpc > 8 ? 2 : 1;
    for (unsigned p = 0; p < planes; p++) {
        const auto *s = static_cast<const uint8_t *>(src.data[p]);
        auto *d = static_cast<uint8_t *>(dst->data[p]);
        const size_t row = src.w[p] * bytes;
        if (src.stride[p] == dst->stride[p]) {
            std::memcpy(d, s, row + size_t(src.stride[p]) * (src.h[p] - 1));
            continue;
        }
        for (unsigned y = 0; y < src.h[p]; y++) std::memcpy(d + y * dst->stride[p], s + y * src.stride[p], row);
    }
}

}  // namespace vmaf::bench
