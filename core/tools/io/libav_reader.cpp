// Any container and codec FFmpeg's libraries decode, as a VideoReader.
#include "io/video_reader.h"

#include <cerrno>
#include <cstring>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
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

class LibavReader final : public VideoReader {
public:
    ~LibavReader() override
    {
        av_frame_free(&frame_);
        av_packet_free(&pkt_);
        avcodec_free_context(&dec_);
        avformat_close_input(&fmt_ctx_);
    }

    int open(const std::string &path, std::string *err)
    {
        path_ = path;
        int e = avformat_open_input(&fmt_ctx_, path.c_str(), nullptr, nullptr);
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
        const PixMap *pm = find_pix(dec_->pix_fmt);
        if (!pm) return unsupported(dec_->pix_fmt, err);
        fmt_ = FrameFormat{pm->fmt, pm->bpc, unsigned(dec_->width), unsigned(dec_->height)};
        if (!fmt_.w || !fmt_.h) return fail(err, -EINVAL, path + ": the video stream has no frame size");
        frame_hint_ = st->nb_frames > 0 ? unsigned(st->nb_frames) : 0;
        return 0;
    }

    int read(VmafPicture *pic, std::string *err) override
    {
        if (int r = next(err); r <= 0) return r;
        if ((frame_->flags & AV_FRAME_FLAG_CORRUPT) || frame_->decode_error_flags)
            return fail(err, -EIO, path_ + ": frame " + std::to_string(frames_) + " is corrupt");
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
            if (int r = next(err); r <= 0) return r;
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

    // Decode the next frame into frame_: 1, 0 at the end, <0 on an error.
    int next(std::string *err)
    {
        for (;;) {
            int e = avcodec_receive_frame(dec_, frame_);
            if (e >= 0) return 1;
            if (e == AVERROR_EOF) return 0;
            if (e != AVERROR(EAGAIN))
                return fail(err, -EIO, path_ + ": decoding frame " + std::to_string(frames_) + " failed (" +
                                           av_error(e) + ")");
            if (draining_) return 0;
            for (;;) {
                e = av_read_frame(fmt_ctx_, pkt_);
                if (e == AVERROR_EOF) {
                    draining_ = true;
                    avcodec_send_packet(dec_, nullptr);
                    break;
                }
                if (e < 0)
                    return fail(err, -EIO, path_ + ": reading failed after frame " + std::to_string(frames_) +
                                               " (" + av_error(e) + ")");
                if (pkt_->stream_index != stream_) {
                    av_packet_unref(pkt_);
                    continue;
                }
                e = avcodec_send_packet(dec_, pkt_);
                av_packet_unref(pkt_);
                if (e < 0 && e != AVERROR(EAGAIN))
                    return fail(err, -EIO, path_ + ": corrupt data at frame " + std::to_string(frames_) + " (" +
                                               av_error(e) + ")");
                break;
            }
        }
    }

    AVFormatContext *fmt_ctx_ = nullptr;
    AVCodecContext *dec_ = nullptr;
    AVFrame *frame_ = nullptr;
    AVPacket *pkt_ = nullptr;
    int stream_ = -1;
    bool draining_ = false;
    unsigned frames_ = 0;
};

}  // namespace

bool have_libav() { return true; }

int open_libav(const std::string &path, std::unique_ptr<VideoReader> *out, std::string *err)
{
    av_log_set_level(AV_LOG_ERROR);
    auto r = std::unique_ptr<LibavReader>(new LibavReader);
    if (int e = r->open(path, err)) return e;
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
