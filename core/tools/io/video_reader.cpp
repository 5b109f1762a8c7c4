// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "io/video_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "os/os.h"

namespace vmaf::io {

namespace {

// Y4M colour-space tags: chroma layout and bit depth.
struct Y4mColorspace { const char *tag; VmafPixelFormat fmt; unsigned bpc; };
constexpr Y4mColorspace kColorspaces[] = {
    {"420jpeg", VMAF_PIX_FMT_YUV420P, 8},   {"420paldv", VMAF_PIX_FMT_YUV420P, 8},
    {"420mpeg2", VMAF_PIX_FMT_YUV420P, 8},  {"420", VMAF_PIX_FMT_YUV420P, 8},
    {"422", VMAF_PIX_FMT_YUV422P, 8},       {"444", VMAF_PIX_FMT_YUV444P, 8},
    {"mono", VMAF_PIX_FMT_YUV400P, 8},
    {"420p10", VMAF_PIX_FMT_YUV420P, 10},   {"422p10", VMAF_PIX_FMT_YUV422P, 10},
    {"444p10", VMAF_PIX_FMT_YUV444P, 10},   {"mono10", VMAF_PIX_FMT_YUV400P, 10},
    {"420p12", VMAF_PIX_FMT_YUV420P, 12},   {"422p12", VMAF_PIX_FMT_YUV422P, 12},
    {"444p12", VMAF_PIX_FMT_YUV444P, 12},   {"mono12", VMAF_PIX_FMT_YUV400P, 12},
    {"420p16", VMAF_PIX_FMT_YUV420P, 16},   {"422p16", VMAF_PIX_FMT_YUV422P, 16},
    {"444p16", VMAF_PIX_FMT_YUV444P, 16},   {"mono16", VMAF_PIX_FMT_YUV400P, 16},
};

// The plane geometry of the public pixel formats (libvmaf's): chroma halved
// across for 4:2:0 and 4:2:2, down for 4:2:0; one plane for grey.
void chroma_shift(VmafPixelFormat fmt, unsigned *ss_x, unsigned *ss_y)
{
    *ss_x = (fmt == VMAF_PIX_FMT_YUV420P || fmt == VMAF_PIX_FMT_YUV422P) ? 1 : 0;
    *ss_y = fmt == VMAF_PIX_FMT_YUV420P ? 1 : 0;
}

unsigned plane_count(VmafPixelFormat fmt) { return fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3; }

unsigned bytes_per_sample(unsigned bpc) { return bpc > 8 ? 2 : 1; }

size_t frame_size(const VideoFormat &f)
{
    unsigned sx, sy;
    chroma_shift(f.pix_fmt, &sx, &sy);
    const size_t luma = size_t(f.w) * f.h;
    const size_t chroma = plane_count(f.pix_fmt) == 1
        ? 0 : 2 * size_t((f.w + sx) >> sx) * ((f.h + sy) >> sy);
    return (luma + chroma) * bytes_per_sample(f.bpc);
}

int fail(std::string *err, int code, const std::string &msg)
{
    if (err) *err = msg;
    return code;
}

constexpr size_t kMaxY4mHeader = 4096;  // bytes of a header line, its newline included
constexpr unsigned kMaxY4mDim = 65536;

// Decimal digits only (no sign, no space, no 0x), at most `max`: never wraps.
bool parse_decimal(const std::string &s, uint64_t max, unsigned *out)
{
    if (s.empty() || s.size() > 10) return false;
    uint64_t v = 0;
    for (const char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + unsigned(c - '0');
    }
    if (v > max) return false;
    *out = unsigned(v);
    return true;
}

bool parse_dim(const std::string &s, unsigned *out)
{
    return parse_decimal(s, kMaxY4mDim, out) && *out > 0;
}

std::string hex_byte(char c)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned v = static_cast<unsigned char>(c);
    return {digits[v >> 4], digits[v & 15]};
}

}  // namespace

VmafPixelFormat parse_pix_fmt(const std::string &s)
{
    if (s == "420") return VMAF_PIX_FMT_YUV420P;
    if (s == "422") return VMAF_PIX_FMT_YUV422P;
    if (s == "444") return VMAF_PIX_FMT_YUV444P;
    if (s == "400") return VMAF_PIX_FMT_YUV400P;
    return VMAF_PIX_FMT_UNKNOWN;
}

const char *pix_fmt_name(VmafPixelFormat fmt)
{
    switch (fmt) {
    case VMAF_PIX_FMT_YUV420P: return "420";
    case VMAF_PIX_FMT_YUV422P: return "422";
    case VMAF_PIX_FMT_YUV444P: return "444";
    case VMAF_PIX_FMT_YUV400P: return "400";
    default: return "unknown";
    }
}

VideoReader::~VideoReader()
{
    if (f_) std::fclose(f_);
}

int VideoReader::open_y4m(const std::string &path, std::unique_ptr<VideoReader> *out,
                          std::string *err)
{
    std::unique_ptr<VideoReader> r(new VideoReader);
    r->path_ = path;
    r->f_ = os::open_file(path, "rb");
    if (!r->f_) return fail(err, -errno, path + ": " + std::strerror(errno));

    // The header line's rules (python/vmafvk/y4m.py follows the same ones;
    // tests/data/y4m_headers.json holds the cases both are tested on): at most
    // 4095 bytes before its newline; "YUV4MPEG2", then tags separated by
    // spaces, printable ASCII only (a tab is not a separator).
    std::string header;
    for (int c; (c = std::fgetc(r->f_)) != '\n';) {
        if (c == EOF || header.size() + 1 >= kMaxY4mHeader)
            return fail(err, -EINVAL, path + ": not a YUV4MPEG2 file (no header line)");
        header.push_back(char(c));
    }
    if (header.rfind("YUV4MPEG2", 0) != 0 || (header.size() > 9 && header[9] != ' '))
        return fail(err, -EINVAL, path + ": not a YUV4MPEG2 file (bad signature)");
    for (const char c : header)
        if (c < 0x20 || c > 0x7e)
            return fail(err, -EINVAL, path + ": Y4M header has a byte 0x" + hex_byte(c) +
                        " (tags are printable ASCII separated by spaces)");

    VideoFormat f{VMAF_PIX_FMT_YUV420P, 8, 0, 0};
    size_t pos = 9;
    while (pos < header.size()) {
        while (pos < header.size() && header[pos] == ' ') pos++;
        size_t end = header.find(' ', pos);
        if (end == std::string::npos) end = header.size();
        const std::string tok = header.substr(pos, end - pos);
        pos = end;
        if (tok.empty()) continue;
        const std::string val = tok.substr(1);
        switch (tok[0]) {
        case 'W':
        case 'H': {
            unsigned v;
            if (!parse_dim(val, &v))
                return fail(err, -EINVAL, path + ": Y4M header W/H: " + tok + " is not a whole number from 1 to " +
                            std::to_string(kMaxY4mDim));
            (tok[0] == 'W' ? f.w : f.h) = v;
            break;
        }
        case 'F': {
            const size_t colon = val.find(':');
            unsigned num, den;
            if (colon == std::string::npos || !parse_decimal(val.substr(0, colon), UINT32_MAX, &num) ||
                !parse_decimal(val.substr(colon + 1), UINT32_MAX, &den))
                return fail(err, -EINVAL, path + ": Y4M frame rate " + tok + " is not F<num>:<den>");
            r->rate_num_ = den ? num : 0;
            r->rate_den_ = den ? den : 0;
            break;
        }
        case 'I':
            if (val == "t" || val == "b" || val == "m")
                return fail(err, -ENOTSUP, path + ": interlaced Y4M (" + tok + ") is not supported");
            if (val != "p" && val != "?")
                return fail(err, -EINVAL, path + ": unknown Y4M interlacing " + tok + " (Ip, I?, It, Ib, Im)");
            break;
        case 'C': {
            bool found = false;
            for (const auto &cs : kColorspaces)
                if (val == cs.tag) { f.pix_fmt = cs.fmt; f.bpc = cs.bpc; found = true; }
            if (!found)
                return fail(err, -ENOTSUP, path + ": unsupported Y4M colour space C" + val);
            break;
        }
        default: break;  // A (aspect), X (extensions) and others do not matter here
        }
    }
    if (!f.w || !f.h)
        return fail(err, -EINVAL, path + ": Y4M header has no valid W/H");

    r->fmt_ = f;
    r->y4m_ = true;
    r->frame_bytes_ = frame_size(f);
    if (const int64_t size = os::regular_file_size(r->f_); size >= 0) {
        const long here = std::ftell(r->f_);
        r->positional_ = true;
        r->file_size_ = off_t(size);
        // "FRAME\n" is the common frame header; parameters would make it longer.
        r->frame_hint_ = unsigned((size - here) / int64_t(r->frame_bytes_ + 6));
    }
    *out = std::move(r);
    return 0;
}

int VideoReader::open_raw(const std::string &path, unsigned w, unsigned h,
                          VmafPixelFormat fmt, unsigned bpc,
                          std::unique_ptr<VideoReader> *out, std::string *err)
{
    if (!w || !h || w > 65536 || h > 65536)
        return fail(err, -EINVAL, path + ": raw input needs a width and height (-w, -h)");
    if (fmt != VMAF_PIX_FMT_YUV420P && fmt != VMAF_PIX_FMT_YUV422P && fmt != VMAF_PIX_FMT_YUV444P &&
        fmt != VMAF_PIX_FMT_YUV400P)
        return fail(err, -EINVAL, path + ": raw input needs a pixel format (-p 420|422|444|400)");
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return fail(err, -ENOTSUP, path + ": unsupported bit depth " + std::to_string(bpc) +
                    " (8, 10, 12 or 16)");
    std::unique_ptr<VideoReader> r(new VideoReader);
    r->path_ = path;
    r->f_ = os::open_file(path, "rb");
    if (!r->f_) return fail(err, -errno, path + ": " + std::strerror(errno));
    r->fmt_ = VideoFormat{fmt, bpc, w, h};
    r->frame_bytes_ = frame_size(r->fmt_);
    if (const int64_t size = os::regular_file_size(r->f_); size >= 0) {
        if (size % int64_t(r->frame_bytes_))
            return fail(err, -EINVAL, path + ": file size is not a whole number of " +
                        std::to_string(w) + "x" + std::to_string(h) + " frames");
        r->frame_hint_ = unsigned(size / int64_t(r->frame_bytes_));
        r->positional_ = true;
        r->file_size_ = off_t(size);
    }
    *out = std::move(r);
    return 0;
}

int VideoReader::open(const std::string &path, unsigned w, unsigned h,
                      VmafPixelFormat fmt, unsigned bpc,
                      std::unique_ptr<VideoReader> *out, std::string *err)
{
    const bool y4m = path.size() >= 4 && path.compare(path.size() - 4, 4, ".y4m") == 0;
    if (y4m) return open_y4m(path, out, err);
    return open_raw(path, w, h, fmt, bpc, out, err);
}

int VideoReader::read_frame_header(std::string *err)
{
    char tag[6];
    const size_t n = std::fread(tag, 1, 5, f_);
    if (n == 0) return 0;
    if (n != 5 || std::memcmp(tag, "FRAME", 5) != 0)
        return fail(err, -EINVAL, path_ + ": corrupt Y4M (no FRAME marker at frame " +
                    std::to_string(frames_read_) + ")");
    // "FRAME", then nothing or parameters after a space, in one line of at most
    // 4096 bytes with its newline.
    for (int c, len = 0; (c = std::fgetc(f_)) != '\n'; len++) {
        if (c == EOF || len >= int(kMaxY4mHeader) - 6 || (len == 0 && c != ' '))
            return fail(err, -EINVAL, path_ + ": corrupt Y4M frame header at frame " +
                        std::to_string(frames_read_));
    }
    return 1;
}

// Fill pic's planes from `src(dst, n)`, which reads up to n bytes of the frame's
// samples in order and returns how many it read. 1 on a frame; 0 when `may_end`
// and it read nothing at all (a raw file's end); negative errno otherwise.
template <typename Source>
int VideoReader::fill_planes(VmafPicture *pic, unsigned index, bool may_end, std::vector<uint8_t> *bounce,
                             std::string *err, Source &&src) const
{
    const unsigned bps = bytes_per_sample(fmt_.bpc);
    if (pic->bpc < fmt_.bpc)
        return fail(err, -EINVAL, path_ + ": a " + std::to_string(pic->bpc) +
                    "-bit picture cannot hold this " + std::to_string(fmt_.bpc) + "-bit video");
    // A deeper picture (a common bit depth of two inputs): samples are read
    // then shifted up to its depth.
    const unsigned shift = pic->bpc - fmt_.bpc;
    std::vector<uint8_t> scratch(shift ? size_t(pic->w[0]) * bps : 0);
    const auto truncated = [&] {
        return fail(err, -EIO, path_ + ": truncated frame " + std::to_string(index));
    };
    for (unsigned p = 0; p < plane_count(fmt_.pix_fmt); p++) {
        auto *row = static_cast<uint8_t *>(pic->data[p]);
        if (!shift && pic->stride[p] == ptrdiff_t(size_t(pic->w[p]) * bps)) {
            // Rows without padding: the plane in one read, straight from the file.
            const size_t want = size_t(pic->w[p]) * bps * pic->h[p];
            size_t got = 0;
            if (bounce->empty()) {
                got = src(row, want);
            } else {
                while (got < want) {
                    const size_t n = src(bounce->data(), std::min(bounce->size(), want - got));
                    std::memcpy(row + got, bounce->data(), n);
                    got += n;
                    if (!n) break;
                }
            }
            if (got == want) continue;
            if (may_end && p == 0 && got == 0) return 0;
            return truncated();
        }
        for (unsigned y = 0; y < pic->h[p]; y++, row += pic->stride[p]) {
            const size_t want = size_t(pic->w[p]) * bps;
            uint8_t *dst = shift ? scratch.data() : row;
            const size_t got = src(dst, want);
            if (got != want) {
                if (may_end && p == 0 && y == 0 && got == 0) return 0;
                return truncated();
            }
            if (!shift) continue;
            auto *out = reinterpret_cast<uint16_t *>(row);
            if (bps == 1)
                for (unsigned x = 0; x < pic->w[p]; x++) out[x] = uint16_t(dst[x] << shift);
            else
                for (unsigned x = 0; x < pic->w[p]; x++) {
                    uint16_t v;
                    std::memcpy(&v, dst + 2 * x, 2);
                    out[x] = uint16_t(v << shift);
                }
        }
    }
    return 1;
}

int VideoReader::read(VmafPicture *pic, std::string *err)
{
    if (y4m_) {
        const int r = read_frame_header(err);
        if (r <= 0) return r;
    }
    const int r = fill_planes(pic, frames_read_, !y4m_, &bounce_, err,
                              [this](uint8_t *dst, size_t n) { return std::fread(dst, 1, n, f_); });
    if (r > 0) frames_read_++;
    return r;
}

int VideoReader::locate(FrameSpan *span, std::string *err)
{
    if (!positional_) return fail(err, -ENOTSUP, path_ + ": not a regular file");
    if (y4m_) {
        const int r = read_frame_header(err);
        if (r <= 0) return r;
    }
    const off_t at = ftello(f_);
    if (at < 0) return fail(err, -errno, path_ + ": " + std::strerror(errno));
    // A raw file's size is a whole number of frames (checked at open).
    if (!y4m_ && at >= file_size_) return 0;
    // Past the samples without reading them: the next header, or the end. A
    // frame cut short is found by fill(); the end found after it is then never
    // taken, since frames are handed out in order.
    if (fseeko(f_, off_t(frame_bytes_), SEEK_CUR) != 0)
        return fail(err, -errno, path_ + ": " + std::strerror(errno));
    *span = FrameSpan{at, frames_read_++};
    return 1;
}

int VideoReader::fill(const FrameSpan &span, VmafPicture *pic, std::vector<uint8_t> *bounce,
                      std::string *err) const
{
    off_t at = span.offset;
    int read_errno = 0;
    // A raw file's end was found by locate(): here a frame not there at all is
    // cut short like any other.
    const int r = fill_planes(pic, span.index, false, bounce, err, [&](uint8_t *dst, size_t n) {
        size_t got = 0;
        while (got < n) {
            const int64_t k = os::read_at(f_, dst + got, n - got, at);
            if (k <= 0) {
                if (k < 0) read_errno = errno;
                break;
            }
            got += size_t(k);
            at += k;
        }
        return got;
    });
    if (read_errno)
        return fail(err, -read_errno, path_ + ": frame " + std::to_string(span.index) + ": " +
                    std::strerror(read_errno));
    return r;
}

int VideoReader::skip(unsigned n, std::string *err)
{
    // Read rather than seek: a seek past the end succeeds silently, and a frame
    // cut short must be reported here as it would be by read(). In pieces of at
    // most 1 MiB: a header may claim frames of gigabytes the file does not hold.
    std::vector<uint8_t> scratch(n ? std::min(frame_bytes_, size_t(1) << 20) : 0);
    for (unsigned i = 0; i < n; i++) {
        if (y4m_) {
            const int r = read_frame_header(err);
            if (r <= 0) return r;
        }
        size_t got = 0;
        while (got < frame_bytes_) {
            const size_t want = std::min(frame_bytes_ - got, scratch.size());
            const size_t n_read = std::fread(scratch.data(), 1, want, f_);
            got += n_read;
            if (n_read != want) break;
        }
        if (got != frame_bytes_) {
            if (!y4m_ && got == 0) return 0;
            return fail(err, -EIO, path_ + ": truncated frame " + std::to_string(frames_read_));
        }
        frames_read_++;
    }
    return 1;
}

}  // namespace vmaf::io
