// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "hwdec.h"

namespace vmaf::cli {
HwDecode::~HwDecode() = default;
}  // namespace vmaf::cli

#if !VMAF_CLI_HAVE_HWDEC

namespace vmaf::cli {

bool have_hwdec() { return false; }

int hwdec_open(const Options &, std::unique_ptr<HwDecode> *, std::string *why)
{
    *why = "not available in this build";
    return 1;
}

}  // namespace vmaf::cli

#else

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/hwcontext.h>
#include <libavutil/hwcontext_vulkan.h>
#include <libavutil/pixdesc.h>
}

#include "caller/device_choice.h"
#include "libvmaf/libvmaf_vulkan.h"

// The queue lock and the fixed queue fields are deprecated in newer FFmpeg but
// are what the versions this builds against offer.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace vmaf::cli {

namespace {

std::string av_error(int e)
{
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(e, buf, sizeof buf);
    return buf;
}

// While the decoders are set up, FFmpeg's messages are kept (the first error
// explains a failed hwaccel set-up) instead of printed.
std::mutex g_log_mutex;
std::string g_first_error;

void capture_log(void *, int level, const char *fmt, va_list ap)
{
    if (level > AV_LOG_ERROR) return;
    char buf[512];
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    std::lock_guard lock(g_log_mutex);
    if (!g_first_error.empty()) return;
    g_first_error = buf;
    while (!g_first_error.empty() && (g_first_error.back() == '\n' || g_first_error.back() == '.'))
        g_first_error.pop_back();
}

struct LogCapture {
    LogCapture()
    {
        std::lock_guard lock(g_log_mutex);
        g_first_error.clear();
        av_log_set_callback(capture_log);
    }
    ~LogCapture() { av_log_set_callback(av_log_default_callback); }
    std::string first_error() const
    {
        std::lock_guard lock(g_log_mutex);
        return g_first_error;
    }
};

// Vulkan frames' software formats the import reads.
struct SwFormat {
    AVPixelFormat av;
    VmafPixelFormat fmt;
    unsigned bpc;
    int msb_aligned;
};
constexpr SwFormat kSwFormats[] = {
    {AV_PIX_FMT_NV12, VMAF_PIX_FMT_YUV420P, 8, 0},     {AV_PIX_FMT_P010, VMAF_PIX_FMT_YUV420P, 10, 1},
    {AV_PIX_FMT_P012, VMAF_PIX_FMT_YUV420P, 12, 1},    {AV_PIX_FMT_NV16, VMAF_PIX_FMT_YUV422P, 8, 0},
    {AV_PIX_FMT_P210, VMAF_PIX_FMT_YUV422P, 10, 1},    {AV_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV420P, 8, 0},
    {AV_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV422P, 8, 0},  {AV_PIX_FMT_YUV444P, VMAF_PIX_FMT_YUV444P, 8, 0},
};

const SwFormat *find_sw_format(int av)
{
    for (const SwFormat &f : kSwFormats)
        if (f.av == av) return &f;
    return nullptr;
}

// The device index the library's automatic choice takes (device_choice.h) when
// --vulkan-device gave none.
int choose_device(int requested, std::string *why)
{
    if (requested >= 0) return requested;
    unsigned index = 0;
    if (tools::choose_vulkan_device({}, &index, why)) return -1;
    return int(index);
}

// FFmpeg's Vulkan device; the library's state on it is freed first.
struct Device {
    AVBufferRef *ref = nullptr;
    VmafVulkanState *state = nullptr;
    std::string name;
    int compute_family = -1;
    bool has_decode = false;

    ~Device()
    {
        if (state) vmaf_vulkan_state_free(&state);
        av_buffer_unref(&ref);
    }
    AVHWDeviceContext *hw() const { return reinterpret_cast<AVHWDeviceContext *>(ref->data); }
    AVVulkanDeviceContext *vk() const { return static_cast<AVVulkanDeviceContext *>(hw()->hwctx); }

    int create(int index, std::string *why)
    {
        LogCapture log;
        const std::string dev = std::to_string(index);
        if (int e = av_hwdevice_ctx_create(&ref, AV_HWDEVICE_TYPE_VULKAN, dev.c_str(), nullptr, 0); e < 0) {
            const std::string msg = log.first_error();
            *why = "FFmpeg could not create Vulkan device " + dev + " (" + (msg.empty() ? av_error(e) : msg) + ")";
            return -1;
        }
        AVVulkanDeviceContext *h = vk();
        VkPhysicalDeviceProperties props{};
        auto get_props = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(
            h->get_proc_addr(h->inst, "vkGetPhysicalDeviceProperties"));
        if (get_props) get_props(h->phys_dev, &props);
        name = props.deviceName;
        api_version_ = props.apiVersion;
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(59, 34, 100)
        for (int i = 0; i < h->nb_qf; i++) {
            if ((h->qf[i].flags & VK_QUEUE_COMPUTE_BIT) && compute_family < 0) compute_family = h->qf[i].idx;
            if (h->qf[i].flags & VK_QUEUE_VIDEO_DECODE_BIT_KHR) has_decode = true;
        }
#else
        compute_family = h->nb_comp_queues > 0 ? h->queue_family_comp_index : -1;
        has_decode = h->nb_decode_queues > 0;
#endif
        return 0;
    }

    static void lock_queue(void *opaque, uint32_t family, uint32_t index)
    {
        auto *dev = static_cast<AVHWDeviceContext *>(opaque);
        static_cast<AVVulkanDeviceContext *>(dev->hwctx)->lock_queue(dev, family, index);
    }
    static void unlock_queue(void *opaque, uint32_t family, uint32_t index)
    {
        auto *dev = static_cast<AVHWDeviceContext *>(opaque);
        static_cast<AVVulkanDeviceContext *>(dev->hwctx)->unlock_queue(dev, family, index);
    }

    // The library adopts the device: FFmpeg's instance, device, first compute
    // queue and queue lock.
    int adopt(std::string *why)
    {
        AVVulkanDeviceContext *h = vk();
        VmafVulkanExternalHandles x{};
        x.instance = h->inst;
        x.physical_device = h->phys_dev;
        x.device = h->act_dev;
        x.get_instance_proc_addr = h->get_proc_addr;
        x.queue_family_index = uint32_t(compute_family);
        x.queue_index = 0;
        if (h->lock_queue && h->unlock_queue) {
            x.lock_queue = lock_queue;
            x.unlock_queue = unlock_queue;
            x.lock_opaque = hw();
        }
        x.enabled_features = &h->device_features;
        x.enabled_extensions = h->enabled_dev_extensions;
        x.n_enabled_extensions = unsigned(h->nb_enabled_dev_extensions);
        // FFmpeg's instance asks for Vulkan 1.3.
        x.api_version = std::min<uint32_t>(api_version_, VK_API_VERSION_1_3);
        if (int e = vmaf_vulkan_state_init_external(&state, x)) {
            *why = "the library cannot use FFmpeg's Vulkan device " + name + " (" + std::strerror(-e) + ")";
            return -1;
        }
        return 0;
    }

private:
    uint32_t api_version_ = 0;
};

class Decoder {
public:
    ~Decoder()
    {
        av_frame_free(&frame_);
        av_packet_free(&pkt_);
        avcodec_free_context(&dec_);
        avformat_close_input(&fmt_ctx_);
    }

    // Open `path` and find its video stream's decoder. 0; 1 with *why: the
    // decoder has no Vulkan hwaccel; <0 with *why: unreadable.
    int open(const std::string &path, std::string *why)
    {
        path_ = path;
        // Always a file, as for the CPU reader (io/libav_reader.cpp).
        const std::string url = "file:" + path;
        int e = avformat_open_input(&fmt_ctx_, url.c_str(), nullptr, nullptr);
        if (e >= 0) e = avformat_find_stream_info(fmt_ctx_, nullptr);
        if (e < 0) {
            *why = path + ": cannot open (" + av_error(e) + ")";
            return -1;
        }
        const AVCodec *codec = nullptr;
        stream_ = av_find_best_stream(fmt_ctx_, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
        if (stream_ < 0) {
            *why = path + (stream_ == AVERROR_DECODER_NOT_FOUND ? ": no decoder for its video stream in this FFmpeg"
                                                                : ": no video stream");
            return -1;
        }
        bool vulkan = false;
        for (int i = 0;; i++) {
            const AVCodecHWConfig *c = avcodec_get_hw_config(codec, i);
            if (!c) break;
            if (c->device_type == AV_HWDEVICE_TYPE_VULKAN && (c->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
                vulkan = true;
        }
        if (!vulkan) {
            *why = std::string("the ") + codec->name + " decoder of this FFmpeg has no Vulkan hwaccel";
            return 1;
        }
        codec_ = codec;
        return 0;
    }

    // Open the decoder on `dev`. Same returns as open().
    int open_decoder(Device &dev, std::string *why)
    {
        const AVCodec *codec = codec_;
        int e;
        dec_ = avcodec_alloc_context3(codec);
        frame_ = av_frame_alloc();
        pkt_ = av_packet_alloc();
        if (!dec_ || !frame_ || !pkt_) {
            *why = "out of memory";
            return -1;
        }
        if ((e = avcodec_parameters_to_context(dec_, fmt_ctx_->streams[stream_]->codecpar)) < 0) {
            *why = path_ + ": bad stream parameters (" + av_error(e) + ")";
            return -1;
        }
        dec_->err_recognition |= AV_EF_EXPLODE | AV_EF_CRCCHECK;
        dec_->hw_device_ctx = av_buffer_ref(dev.ref);
        dec_->opaque = this;
        dec_->get_format = get_format;
        // The GPU decodes; the host parses headers and records commands.
        dec_->thread_count = 1;
        if ((e = avcodec_open2(dec_, codec, nullptr)) < 0) {
            *why = std::string("cannot open the ") + codec->name + " decoder (" + av_error(e) + ")";
            return 1;
        }
        codec_name_ = codec->name;
        return 0;
    }

    // Decode the first frame and check that it is a Vulkan frame the import
    // takes on `dev`. Same returns as open().
    int probe(const Device &dev, std::string *why)
    {
        std::string err;
        const int r = next(&err);
        if (r < 0) {
            *why = err;
            return -1;
        }
        if (!r) {
            *why = path_ + " has no frames";
            return -1;
        }
        held_ = true;
        if (frame_->format != AV_PIX_FMT_VULKAN || !frame_->hw_frames_ctx) {
            *why = "the device cannot decode this " + codec_name_ + " stream";
            if (const char *p = avcodec_profile_name(dec_->codec_id, dec_->profile))
                *why += std::string(" (profile ") + p + ", " + av_get_pix_fmt_name(dec_->sw_pix_fmt) + ")";
            return 1;
        }
        const auto *fc = reinterpret_cast<const AVHWFramesContext *>(frame_->hw_frames_ctx->data);
        sw_ = find_sw_format(fc->sw_format);
        if (!sw_) {
            *why = std::string("frames decoded as ") + av_get_pix_fmt_name(fc->sw_format) +
                   ", which the import does not read";
            return 1;
        }
        const auto *f = reinterpret_cast<const AVVkFrame *>(frame_->data[0]);
        for (int i = 0; i < VMAF_VULKAN_MAX_IMAGES && f->img[i]; i++)
            if (f->queue_family[i] != VK_QUEUE_FAMILY_IGNORED && f->queue_family[i] != uint32_t(dev.compute_family)) {
                *why = "decoded images belong to queue family " + std::to_string(f->queue_family[i]) + " alone";
                return 1;
            }
        width_ = unsigned(frame_->width);
        height_ = unsigned(frame_->height);
        return 0;
    }

    // The next decoded frame into frame_ (the probed one first): 1, 0 at the end,
    // <0 with *err.
    int take(std::string *err)
    {
        if (held_) {
            held_ = false;
            return 1;
        }
        av_frame_unref(frame_);
        const int r = next(err);
        if (r <= 0) return r;
        if (frame_->format != AV_PIX_FMT_VULKAN || !frame_->hw_frames_ctx ||
            reinterpret_cast<const AVHWFramesContext *>(frame_->hw_frames_ctx->data)->sw_format != sw_->av ||
            unsigned(frame_->width) != width_ || unsigned(frame_->height) != height_) {
            *err = path_ + ": frame " + std::to_string(frames_) +
                   " changed size or format on the GPU decoder; decode on the CPU (leave out --hwdec)";
            return -EINVAL;
        }
        return 1;
    }
    void done() { frames_++; av_frame_unref(frame_); }

    // The current frame as the library's import describes it: its work waits for
    // the decoder's semaphore values and signals the next ones; the images are
    // left in the layout the library reads them in (sampled in place where the
    // frames' usage and flags allow it, else copied).
    int describe(VmafVulkanImage *img, std::string *err) const
    {
        const auto *fc = reinterpret_cast<const AVHWFramesContext *>(frame_->hw_frames_ctx->data);
        const auto *vkfc = static_cast<const AVVulkanFramesContext *>(fc->hwctx);
        const auto *f = reinterpret_cast<const AVVkFrame *>(frame_->data[0]);
        if (frame_->crop_left || frame_->crop_top) {
            *err = path_ + ": frames cropped at the top or left cannot be read on the GPU; decode on the CPU";
            return -ENOTSUP;
        }
        *img = VmafVulkanImage{};
        for (int i = 0; i < VMAF_VULKAN_MAX_IMAGES && f->img[i]; i++) {
            if (f->layout[i] == VK_IMAGE_LAYOUT_UNDEFINED) {
                *err = path_ + ": frame " + std::to_string(frames_) + " was never written";
                return -EINVAL;
            }
            img->img[i] = f->img[i];
            img->format[i] = vkfc->format[i];
            img->layout[i] = f->layout[i];
            img->final_layout[i] = f->layout[i] == VK_IMAGE_LAYOUT_GENERAL        ? f->layout[i]
                                   : vkfc->usage & VK_IMAGE_USAGE_SAMPLED_BIT ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
                                                                              : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
            img->queue_family[i] = VK_QUEUE_FAMILY_IGNORED;
            img->sem[i] = f->sem[i];
            img->sem_value[i] = f->sem_value[i];
            img->signal_value[i] = f->sem_value[i] + 1;
        }
        img->width = width_;
        img->height = height_;
        img->bpc = sw_->bpc;
        img->pix_fmt = sw_->fmt;
        img->msb_aligned = sw_->msb_aligned;
        img->usage = uint32_t(vkfc->usage);
        img->create_flags = uint32_t(vkfc->img_flags);
        return 0;
    }
    // After the submission: what FFmpeg's next user of the images waits for.
    void record(const VmafVulkanImage &img)
    {
        auto *f = reinterpret_cast<AVVkFrame *>(frame_->data[0]);
        for (int i = 0; i < VMAF_VULKAN_MAX_IMAGES && img.img[i]; i++) {
            f->layout[i] = img.final_layout[i];
            f->access[i] = VK_ACCESS_TRANSFER_READ_BIT;
            f->sem_value[i] = img.signal_value[i];
        }
    }
    void lock() { vkfc()->lock_frame(fc(), vkframe()); }
    void unlock() { vkfc()->unlock_frame(fc(), vkframe()); }

    const SwFormat *sw() const { return sw_; }
    unsigned width() const { return width_; }
    unsigned height() const { return height_; }
    const std::string &path() const { return path_; }
    unsigned frames() const { return frames_; }

private:
    AVHWFramesContext *fc() const { return reinterpret_cast<AVHWFramesContext *>(frame_->hw_frames_ctx->data); }
    AVVulkanFramesContext *vkfc() const { return static_cast<AVVulkanFramesContext *>(fc()->hwctx); }
    AVVkFrame *vkframe() const { return reinterpret_cast<AVVkFrame *>(frame_->data[0]); }

    // Vulkan when offered; else (hwaccel set-up failed) the software format, and
    // the first frame tells.
    static AVPixelFormat get_format(AVCodecContext *, const AVPixelFormat *fmts)
    {
        for (const AVPixelFormat *p = fmts; *p != AV_PIX_FMT_NONE; p++)
            if (*p == AV_PIX_FMT_VULKAN) return *p;
        for (const AVPixelFormat *p = fmts; *p != AV_PIX_FMT_NONE; p++) {
            const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(*p);
            if (d && !(d->flags & AV_PIX_FMT_FLAG_HWACCEL)) return *p;
        }
        return AV_PIX_FMT_NONE;
    }

    int next(std::string *err)
    {
        for (;;) {
            int e = avcodec_receive_frame(dec_, frame_);
            if (e >= 0) {
                if ((frame_->flags & AV_FRAME_FLAG_CORRUPT) || frame_->decode_error_flags) {
                    *err = path_ + ": frame " + std::to_string(frames_) + " is corrupt";
                    return -EIO;
                }
                return 1;
            }
            if (e == AVERROR_EOF) return 0;
            if (e != AVERROR(EAGAIN)) {
                *err = path_ + ": decoding frame " + std::to_string(frames_) + " failed (" + av_error(e) + ")";
                return -EIO;
            }
            if (draining_) return 0;
            for (;;) {
                e = av_read_frame(fmt_ctx_, pkt_);
                if (e == AVERROR_EOF) {
                    draining_ = true;
                    avcodec_send_packet(dec_, nullptr);
                    break;
                }
                if (e < 0) {
                    *err = path_ + ": reading failed after frame " + std::to_string(frames_) + " (" + av_error(e) + ")";
                    return -EIO;
                }
                if (pkt_->stream_index != stream_) {
                    av_packet_unref(pkt_);
                    continue;
                }
                e = avcodec_send_packet(dec_, pkt_);
                av_packet_unref(pkt_);
                if (e < 0 && e != AVERROR(EAGAIN)) {
                    *err = path_ + ": corrupt data at frame " + std::to_string(frames_) + " (" + av_error(e) + ")";
                    return -EIO;
                }
                break;
            }
        }
    }

    std::string path_, codec_name_;
    const AVCodec *codec_ = nullptr;
    AVFormatContext *fmt_ctx_ = nullptr;
    AVCodecContext *dec_ = nullptr;
    AVFrame *frame_ = nullptr;
    AVPacket *pkt_ = nullptr;
    int stream_ = -1;
    bool draining_ = false, held_ = false;
    unsigned frames_ = 0;
    const SwFormat *sw_ = nullptr;
    unsigned width_ = 0, height_ = 0;
};

class VulkanHwDecode final : public HwDecode {
public:
    // Declared first, destroyed last: the decoders' frames live on its device.
    std::unique_ptr<Device> dev = std::make_unique<Device>();
    Decoder side[2];

    ~VulkanHwDecode() override
    {
        // The library's state goes before the decoders and their frames.
        if (dev->state) vmaf_vulkan_state_free(&dev->state);
    }

    int attach(VmafContext *vmaf, std::string *why) override
    {
        if (dev->adopt(why)) return kExitSetup;
        if (int e = vmaf_vulkan_import_state(vmaf, dev->state)) {
            *why = std::string("could not use FFmpeg's Vulkan device: ") + std::strerror(-e);
            return kExitSetup;
        }
        return 0;
    }

    std::string description() const override { return "vulkan (" + dev->name + "), decoding on it"; }

    int skip(int s, unsigned n, std::string *err) override
    {
        for (unsigned i = 0; i < n; i++) {
            const int r = side[s].take(err);
            if (r < 0) return kExitInput;
            if (!r) return 0;  // the scoring loop reports the empty input
            side[s].done();
        }
        return 0;
    }

    int next_pair(VmafContext *vmaf, unsigned index, int *ended, std::string *err) override
    {
        const int r0 = side[0].take(err);
        if (r0 < 0) return kExitInput;
        const int r1 = side[1].take(err);
        if (r1 < 0) return kExitInput;
        if (!r0 || !r1) {
            *ended = !r0 && !r1 ? 2 : !r0 ? 0 : 1;
            return 0;
        }
        VmafVulkanImage img[2];
        side[0].lock();
        side[1].lock();
        int e = side[0].describe(&img[0], err);
        if (!e) e = side[1].describe(&img[1], err);
        int rc = e ? kExitInput : 0;
        const char *step = nullptr;
        if (!rc) {
            step = "importing the reference frame";
            e = vmaf_vulkan_import_image(vmaf, VMAF_VULKAN_IMPORT_REFERENCE, &img[0], index);
        }
        if (!rc && !e) {
            step = "importing the distorted frame";
            e = vmaf_vulkan_import_image(vmaf, VMAF_VULKAN_IMPORT_DISTORTED, &img[1], index);
        }
        if (!rc && !e) {
            step = "submitting the frame";
            e = vmaf_vulkan_read_imported_pictures(vmaf, index);
        }
        if (!rc && !e) {
            side[0].record(img[0]);
            side[1].record(img[1]);
        }
        side[1].unlock();
        side[0].unlock();
        if (!rc && e) {
            *err = std::string("scoring frame ") + std::to_string(index) + " failed " + step + ": " + std::strerror(-e);
            rc = kExitScore;
        }
        if (rc) return rc;
        side[0].done();
        side[1].done();
        return 1;
    }
};

const char *kSide[2] = {"reference", "distorted"};

bool has_extension(const std::string &path, const char *ext)
{
    const size_t n = std::strlen(ext);
    return path.size() >= n && path.compare(path.size() - n, n, ext) == 0;
}

}  // namespace

bool have_hwdec() { return true; }

int hwdec_open(const Options &o, std::unique_ptr<HwDecode> *out, std::string *why)
{
    const std::string *paths[2] = {&o.ref_path, &o.dist_path};
    // Files the tool reads itself have nothing to decode.
    for (int s = 0; s < 2; s++)
        if (o.raw || has_extension(*paths[s], ".y4m") || has_extension(*paths[s], ".yuv")) {
            *why = std::string(kSide[s]) + ": " + *paths[s] + " is read without a decoder (.y4m or raw .yuv)";
            return 1;
        }
    auto hw = std::make_unique<VulkanHwDecode>();
    std::string reason;
    for (int s = 0; s < 2; s++) {
        const int r = hw->side[s].open(*paths[s], &reason);
        if (r < 0) {
            *why = reason;
            return kExitInput;
        }
        if (r > 0) {
            *why = std::string(kSide[s]) + ": " + reason;
            return 1;
        }
    }
    const int index = choose_device(o.vulkan_device, &reason);
    if (index < 0) {
        *why = reason;
        return 1;
    }
    if (hw->dev->create(index, why)) return 1;
    if (!hw->dev->has_decode) {
        *why = "the Vulkan device " + hw->dev->name + " has no video decode queue";
        return 1;
    }
    if (hw->dev->compute_family < 0) {
        *why = "FFmpeg's Vulkan device " + hw->dev->name + " has no compute queue";
        return 1;
    }
    for (int s = 0; s < 2; s++) {
        LogCapture log;
        int r = hw->side[s].open_decoder(*hw->dev, &reason);
        if (!r) r = hw->side[s].probe(*hw->dev, &reason);
        if (r < 0) {
            *why = reason;
            return kExitInput;
        }
        if (r > 0) {
            const std::string msg = log.first_error();
            *why = std::string(kSide[s]) + ": " + reason + (msg.empty() ? "" : " (FFmpeg: " + msg + ")");
            return 1;
        }
    }
    const Decoder &a = hw->side[0], &b = hw->side[1];
    if (a.width() != b.width() || a.height() != b.height() || a.sw()->fmt != b.sw()->fmt ||
        a.sw()->bpc != b.sw()->bpc) {
        // The software path reads both and says how they differ (or reads
        // them at a common bit depth).
        *why = "the inputs decode to different picture formats";
        return 1;
    }
    *out = std::move(hw);
    return 0;
}

}  // namespace vmaf::cli

#endif
