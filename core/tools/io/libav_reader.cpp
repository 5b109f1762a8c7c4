// SPDX-License-Identifier: BSD-2-Clause-Patent
// Any container and codec FFmpeg's libraries decode, as a VideoReader.
#include "io/video_reader.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
#include <libavutil/version.h>
}

namespace vmaf::io {

namespace {

struct PixMap {
    AVPixelFormat av;
    VmafPixelFormat fmt;
    unsigned bpc;
};

// Planar YUV and grey, little-endian: read sample for sample.
constexpr PixMap kPixFmts[] = {
    {AV_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV420P, 8},     {AV_PIX_FMT_YUVJ420P, VMAF_PIX_FMT_YUV420P, 8},
    {AV_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV422P, 8},     {AV_PIX_FMT_YUVJ422P, VMAF_PIX_FMT_YUV422P, 8},
    {AV_PIX_FMT_YUV444P, VMAF_PIX_FMT_YUV444P, 8},     {AV_PIX_FMT_YUVJ444P, VMAF_PIX_FMT_YUV444P, 8},
    {AV_PIX_FMT_GRAY8, VMAF_PIX_FMT_YUV400P, 8},
    {AV_PIX_FMT_YUV420P10LE, VMAF_PIX_FMT_YUV420P, 10}, {AV_PIX_FMT_YUV422P10LE, VMAF_PIX_FMT_YUV422P, 10},
    {AV_PIX_FMT_YUV444P10LE, VMAF_PIX_FMT_YUV444P, 10}, {AV_PIX_FMT_GRAY10LE, VMAF_PIX_FMT_YUV400P, 10},
    {AV_PIX_FMT_YUV420P12LE, VMAF_PIX_FMT_YUV420P, 12}, {AV_PIX_FMT_YUV422P12LE, VMAF_PIX_FMT_YUV422P, 12},
    {AV_PIX_FMT_YUV444P12LE, VMAF_PIX_FMT_YUV444P, 12}, {AV_PIX_FMT_GRAY12LE, VMAF_PIX_FMT_YUV400P, 12},
    {AV_PIX_FMT_YUV420P16LE, VMAF_PIX_FMT_YUV420P, 16}, {AV_PIX_FMT_YUV422P16LE, VMAF_PIX_FMT_YUV422P, 16},
    {AV_PIX_FMT_YUV444P16LE, VMAF_PIX_FMT_YUV444P, 16}, {AV_PIX_FMT_GRAY16LE, VMAF_PIX_FMT_YUV400P, 16},
};

const PixMap *find_pix(int av)
{
    for (const PixMap &m : kPixFmts)
        if (m.av == av) return &m;
    return nullptr;
}

std::string av_error(int e)
{
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(e, buf, sizeof buf);
    return buf;
}

int fail(std::string *err, int code, const std::string &msg)
{
    if (err) *err = msg;
    return code;
}

std::string seconds(int64_t t, AVRational tb)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", double(t) * av_q2d(tb));
    return buf;
}

// "HH:MM:SS.fraction" (the DURATION tag FFmpeg's Matroska muxer writes per
// track) in microseconds; -1 when it is not that.
int64_t parse_tag_duration(const char *v)
{
    unsigned h, m;
    double sec;
    char tail;
    if (!v || std::sscanf(v, "%u:%u:%lf%c", &h, &m, &sec, &tail) != 3 || m >= 60 || sec < 0 || sec >= 60)
        return -1;
    return int64_t((double(h) * 3600 + m * 60 + sec) * 1e6 + 0.5);
}

class LibavReader final : public VideoReader {
public:
    ~LibavReader() override
    {
        av_frame_free(&frame_);
        av_packet_free(&pkt_);
        avcodec_free_context(&dec_);
        avformat_close_input(&fmt_ctx_);
    }

    int open(const std::string &path, bool allow_truncated, std::string *err)
    {
        path_ = path;
        allow_truncated_ = allow_truncated;
        // Always a file: "x:y.mkv" or "file:z.mkv" name files, not FFmpeg protocols.
        const std::string url = "file:" + path;
        int e = avformat_open_input(&fmt_ctx_, url.c_str(), nullptr, nullptr);
        if (e < 0)
            return fail(err, e == AVERROR(ENOENT) ? -ENOENT : -EINVAL,
                        path + ": cannot open (" + av_error(e) + ")");
        if ((e = avformat_find_stream_info(fmt_ctx_, nullptr)) < 0)
            return fail(err, -EINVAL, path + ": cannot read its streams (" + av_error(e) + ")");
        const AVCodec *codec = nullptr;
        stream_ = av_find_best_stream(fmt_ctx_, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
        if (stream_ < 0)
            return fail(err, -EINVAL, path + (stream_ == AVERROR_DECODER_NOT_FOUND
                                                  ? ": no decoder for its video stream in this FFmpeg"
                                                  : ": no video stream"));
        const AVStream *st = fmt_ctx_->streams[stream_];
        dec_ = avcodec_alloc_context3(codec);
        frame_ = av_frame_alloc();
        pkt_ = av_packet_alloc();
        if (!dec_ || !frame_ || !pkt_) return fail(err, -ENOMEM, path + ": out of memory");
        if ((e = avcodec_parameters_to_context(dec_, st->codecpar)) < 0)
            return fail(err, -EINVAL, path + ": bad stream parameters (" + av_error(e) + ")");
        // A corrupt stream is an error, not a concealed picture with a score.
        dec_->err_recognition |= AV_EF_EXPLODE | AV_EF_CRCCHECK;
        // FFmpeg's threads, as many as it sees cores (its default is one).
        dec_->thread_count = 0;
        if ((e = avcodec_open2(dec_, codec, nullptr)) < 0)
            return fail(err, -EINVAL, path + ": cannot open the " + codec->name + " decoder (" + av_error(e) + ")");
        // Nothing decoded while probing: the file ends (or is damaged) before its first frame.
        if (dec_->pix_fmt == AV_PIX_FMT_NONE || !dec_->width || !dec_->height)
            return fail(err, -EIO, path + ": no frame could be decoded: the file is truncated or damaged "
                                          "before its first frame");
        const PixMap *pm = find_pix(dec_->pix_fmt);
        if (!pm) return unsupported(dec_->pix_fmt, err);
        fmt_ = VideoFormat{pm->fmt, pm->bpc, unsigned(dec_->width), unsigned(dec_->height)};
        frame_hint_ = st->nb_frames > 0 ? unsigned(st->nb_frames) : 0;
        tb_ = st->time_base;
        const AVRational rate = av_guess_frame_rate(fmt_ctx_, const_cast<AVStream *>(st), nullptr);
        if (rate.num > 0 && rate.den > 0) {
            rate_num_ = unsigned(rate.num);
            rate_den_ = unsigned(rate.den);
            frame_dur_ = av_rescale_q(1, av_inv_q(rate), tb_);
        }
        end_ = container_end(st);
        return 0;
    }

    std::string short_end() const override { return short_end_; }

    int read(VmafPicture *pic, std::string *err) override
    {
        if (int r = next_in_order(err); r <= 0) return r;
        const PixMap *pm = find_pix(frame_->format);
        if (!pm) return unsupported(AVPixelFormat(frame_->format), err);
        if (pm->fmt != fmt_.pix_fmt || pm->bpc != fmt_.bpc || unsigned(frame_->width) != fmt_.w ||
            unsigned(frame_->height) != fmt_.h)
            return fail(err, -EINVAL, path_ + ": frame " + std::to_string(frames_) + " is " +
                        std::to_string(frame_->width) + "x" + std::to_string(frame_->height) + " " +
                        av_get_pix_fmt_name(AVPixelFormat(frame_->format)) +
                        "; the stream started with another size or format");
        if (pic->bpc < fmt_.bpc) return fail(err, -EINVAL, path_ + ": the picture is shallower than the video");
        const unsigned shift = pic->bpc - fmt_.bpc;
        const unsigned planes = fmt_.pix_fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
        for (unsigned p = 0; p < planes; p++) {
            for (unsigned y = 0; y < pic->h[p]; y++) {
                const uint8_t *src = frame_->data[p] + std::ptrdiff_t(y) * frame_->linesize[p];
                auto *dst = static_cast<uint8_t *>(pic->data[p]) + std::ptrdiff_t(y) * pic->stride[p];
                if (!shift) {
                    std::memcpy(dst, src, size_t(pic->w[p]) * (fmt_.bpc > 8 ? 2 : 1));
                } else if (fmt_.bpc == 8) {
                    auto *out = reinterpret_cast<uint16_t *>(dst);
                    for (unsigned x = 0; x < pic->w[p]; x++) out[x] = uint16_t(src[x] << shift);
                } else {
                    auto *out = reinterpret_cast<uint16_t *>(dst);
                    for (unsigned x = 0; x < pic->w[p]; x++) {
                        uint16_t v;
                        std::memcpy(&v, src + 2 * x, 2);
                        out[x] = uint16_t(v << shift);
                    }
                }
            }
        }
        frames_++;
        return 1;
    }

    int skip(unsigned n, std::string *err) override
    {
        for (unsigned i = 0; i < n; i++) {
            if (int r = next_in_order(err); r <= 0) return r;
            frames_++;
        }
        return 1;
    }

private:
    int unsupported(AVPixelFormat f, std::string *err) const
    {
        const char *name = av_get_pix_fmt_name(f);
        return fail(err, -ENOTSUP,
                    path_ + ": pixel format " + (name ? name : "unknown") +
                        " cannot be scored (planar YUV 4:2:0/4:2:2/4:4:4 or grey, 8 to 16 bits); convert it "
                        "first, e.g. ffmpeg -i " + path_ + " -pix_fmt yuv420p out.y4m");
    }

    // Where the container says the video stream ends, in its time base
    // (AV_NOPTS_VALUE when it does not say): the stream's duration, else the
    // DURATION tag of a Matroska track, else the file's duration when the
    // video is its only stream (another stream may last longer).
    int64_t container_end(const AVStream *st) const
    {
        const int64_t start = st->start_time != AV_NOPTS_VALUE ? st->start_time : 0;
        if (st->duration > 0) return start + st->duration;
        const AVDictionaryEntry *tag = av_dict_get(st->metadata, "DURATION", nullptr, 0);
        if (const int64_t us = parse_tag_duration(tag ? tag->value : nullptr); us > 0)
            return start + av_rescale_q(us, AVRational{1, 1000000}, tb_);
        if (fmt_ctx_->nb_streams == 1 && fmt_ctx_->duration > 0) {
            const int64_t t0 = fmt_ctx_->start_time != AV_NOPTS_VALUE ? fmt_ctx_->start_time : 0;
            return av_rescale_q(t0 + fmt_ctx_->duration, AV_TIME_BASE_Q, tb_);
        }
        return AV_NOPTS_VALUE;
    }

    int64_t frame_duration() const
    {
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(57, 30, 100)
        const int64_t d = frame_->duration;
#else
        const int64_t d = frame_->pkt_duration;
#endif
        return d > 0 ? d : frame_dur_;
    }

    // The stream is cut short or damaged at this point: an error naming the
    // file, or with allow_truncated its end, said by short_end().
    int cut(std::string *err, const std::string &why)
    {
        const std::string what = path_ + ": truncated or damaged after " + std::to_string(frames_) + " frames (" +
                                 why + ")";
        if (!allow_truncated_)
            return fail(err, -EIO, what + "; --allow-truncated scores the frames before");
        short_end_ = what;
        stopped_ = true;
        return 0;
    }

    // The next frame in presentation order, checked against the one before:
    // 1, 0 at the end, <0 on an error.
    int next_in_order(std::string *err)
    {
        if (stopped_) return 0;
        const int r = next(err);
        if (r < 0) return r;
        if (r == 0) {
            if (!damage_.empty()) return cut(err, damage_);
            // Whole up to the length the container gives (half a frame's slack)?
            if (end_ != AV_NOPTS_VALUE && last_pts_ != AV_NOPTS_VALUE && frame_dur_ > 0 &&
                last_end_ + frame_dur_ / 2 < end_)
                return cut(err, "its frames end at " + seconds(last_end_, tb_) + ", its container says it lasts " +
                                    seconds(end_, tb_));
            return 0;
        }
        if ((frame_->flags & AV_FRAME_FLAG_CORRUPT) || frame_->decode_error_flags)
            return cut(err, "frame " + std::to_string(frames_) + " is corrupt");
        const int64_t pts = frame_->best_effort_timestamp;
        if (pts == AV_NOPTS_VALUE) return 1;  // a stream without timestamps: decode order is all there is
        if (last_pts_ != AV_NOPTS_VALUE) {
            if (pts <= last_pts_)
                return cut(err, "frame " + std::to_string(frames_) + " is shown at " + seconds(pts, tb_) +
                                    ", not after the frame before it (" + seconds(last_pts_, tb_) + ")");
            const int64_t step = last_end_ - last_pts_;
            if (step > 0 && pts > last_end_ + step / 2)
                return cut(err, "frames are missing between " + seconds(last_pts_, tb_) + " and " +
                                    seconds(pts, tb_));
        }
        last_pts_ = pts;
        last_end_ = pts + frame_duration();
        return 1;
    }

    // Decode the next frame into frame_: 1, 0 at the end, <0 on an error.
    // With allow_truncated, data cut short or corrupt ends the stream instead:
    // the decoder gives the frames it holds, then the end; damage_ says why.
    int next(std::string *err)
    {
        const auto damaged = [&](const std::string &why) {
            if (!allow_truncated_) return fail(err, -EIO, path_ + ": " + why);
            if (damage_.empty()) damage_ = why;
            if (pending_) av_packet_unref(pkt_);
            pending_ = false;
            if (!draining_) {
                draining_ = true;
                avcodec_send_packet(dec_, nullptr);
            }
            return 1;
        };
        for (;;) {
            int e = avcodec_receive_frame(dec_, frame_);
            if (e >= 0) return 1;
            if (e == AVERROR_EOF) return 0;
            if (e != AVERROR(EAGAIN)) {
                const std::string why = "decoding frame " + std::to_string(frames_) + " failed (" + av_error(e) + ")";
                if (draining_ && !damage_.empty()) return 0;  // no more frames from a decoder already failing
                if (int r = damaged(why); r < 0) return r;
                continue;
            }
            if (draining_) return 0;
            if (!pending_) {
                for (;;) {
                    e = av_read_frame(fmt_ctx_, pkt_);
                    if (e == AVERROR_EOF) break;
                    if (e < 0) {
                        if (int r = damaged("reading failed after frame " + std::to_string(frames_) + " (" +
                                            av_error(e) + ")"); r < 0)
                            return r;
                        break;
                    }
                    if (pkt_->stream_index == stream_) break;
                    av_packet_unref(pkt_);
                }
                if (draining_) continue;
                if (e == AVERROR_EOF) {
                    draining_ = true;
                    avcodec_send_packet(dec_, nullptr);
                    continue;
                }
                pending_ = true;
                // A packet cut short by the end of the file.
                if (pkt_->flags & AV_PKT_FLAG_CORRUPT) {
                    if (int r = damaged("a packet is cut short or corrupt after frame " + std::to_string(frames_));
                        r < 0) {
                        av_packet_unref(pkt_);
                        pending_ = false;
                        return r;
                    }
                    continue;
                }
            }
            e = avcodec_send_packet(dec_, pkt_);
            if (e == AVERROR(EAGAIN)) continue;  // frames to take first; the packet is sent again then
            pending_ = false;
            av_packet_unref(pkt_);
            if (e < 0) {
                if (int r = damaged("corrupt data at frame " + std::to_string(frames_) + " (" + av_error(e) + ")");
                    r < 0)
                    return r;
            }
        }
    }

    AVFormatContext *fmt_ctx_ = nullptr;
    AVCodecContext *dec_ = nullptr;
    AVFrame *frame_ = nullptr;
    AVPacket *pkt_ = nullptr;
    int stream_ = -1;
    bool draining_ = false;
    bool pending_ = false;  // pkt_ holds a packet the decoder has not taken yet
    bool allow_truncated_ = false;
    bool stopped_ = false;  // ended early (allow_truncated): short_end_ says why
    unsigned frames_ = 0;
    AVRational tb_{1, 1};
    int64_t frame_dur_ = 0;  // one frame at the stream's frame rate, in tb_ (0: unknown)
    int64_t end_ = AV_NOPTS_VALUE;  // where the container says the stream ends
    int64_t last_pts_ = AV_NOPTS_VALUE, last_end_ = AV_NOPTS_VALUE;
    std::string short_end_;
    std::string damage_;  // why the stream ended early (allow_truncated)
};

}  // namespace

bool have_libav() { return true; }

int open_libav(const std::string &path, std::unique_ptr<VideoReader> *out, std::string *err, bool allow_truncated)
{
    av_log_set_level(AV_LOG_ERROR);
    auto r = std::unique_ptr<LibavReader>(new LibavReader);
    if (int e = r->open(path, allow_truncated, err)) return e;
    *out = std::move(r);
    return 0;
}

std::string libav_versions()
{
    auto v = [](unsigned x) {
        return std::to_string(x >> 16) + "." + std::to_string((x >> 8) & 0xff) + "." + std::to_string(x & 0xff);
    };
    return "libavformat " + v(avformat_version()) + ", libavcodec " + v(avcodec_version());
}

}  // namespace vmaf::io
