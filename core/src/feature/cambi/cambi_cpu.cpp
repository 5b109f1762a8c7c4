// SPDX-License-Identifier: BSD-2-Clause-Patent
// CAMBI on the CPU: libvmaf's banding index of the distorted picture (and, in
// full-reference mode, of the reference), matching its cambi.c.
//
// Per picture: the luma plane is brought to 10 bits at the encode resolution
// (nearest-sample decimation), smoothed against dithering when the encode had
// fewer than 10 bits, and a spatial mask keeps the samples whose 7x7
// neighbourhood is mostly flat. Then at five dyadic scales: a 3x3 mode filter,
// per-sample contrast values from histograms of the masked samples in a window
// around each sample, and the mean of the largest topk of them. The frame score
// weights the scales 16:8:4:2:1 and divides by the window area.
//
// Everything up to the c-values is integer; each c-value is one float product
// as libvmaf forms it, and the pooling selects and sums the same floats in the
// same order (libvmaf's quickselect), so the scores are identical.
#include "feature/cambi/cambi.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "feature/cambi/cambi_kernels.h"
#include "feature/cambi/cambi_pool.h"
#include "feature/cambi/cambi_settings.h"
#include "feature/cambi/cambi_tables.h"
#include "feature/cambi/cambi_x86.h"
#include "util/log.h"
#include "os/os.h"
#include "util/simd.h"

namespace vmaf {

namespace {

constexpr OptionSpec kOptions[] = {
    {"cambi_max_val", "cmxv", OptType::Double, cambi::kDefaultMaxVal, 0.0, 1000.0, true,
     "largest score written; larger ones are clipped to it"},
    {"enc_width", "encw", OptType::Int, 0, 180, 7680, true,
     "width of the encode (0: the picture's); larger than the picture means the picture's"},
    {"enc_height", "ench", OptType::Int, 0, 150, 7680, true,
     "height of the encode (0: the picture's)"},
    {"enc_bitdepth", "encbd", OptType::Int, 0, 6, 16, true,
     "bit depth of the encode (0: the picture's); below 10 turns on the anti-dithering filter"},
    {"src_width", "srcw", OptType::Int, 0, 320, 7680, true,
     "width the reference is scored at in full-reference mode (0: the picture's)"},
    {"src_height", "srch", OptType::Int, 0, 200, 4320, true,
     "height the reference is scored at in full-reference mode (0: the picture's)"},
    {"window_size", "ws", OptType::Int, cambi::kDefaultWindow, 15, 127, true,
     "window side at 4K (65 is about one degree); scaled with the encode size"},
    {"topk", nullptr, OptType::Double, cambi::kDefaultTopk, 0.0001, 1.0, true,
     "fraction of the largest c-values pooled per scale (wins over cambi_topk when set)"},
    {"cambi_topk", "ctpk", OptType::Double, cambi::kDefaultTopk, 0.0001, 1.0, true,
     "fraction of the largest c-values pooled per scale"},
    {"tvi_threshold", "tvit", OptType::Double, cambi::kDefaultTvi, 0.0001, 1.0, true,
     "visibility threshold: a step is visible when dL > tvi_threshold * L"},
    {"cambi_vis_lum_threshold", "vlt", OptType::Double, cambi::kDefaultVisLumThreshold, 0.0, 300.0, true,
     "luminance (cd/m2) below which banding is taken as invisible"},
    {"max_log_contrast", "mlc", OptType::Int, cambi::kDefaultMaxLogContrast, 0, 5, true,
     "largest step considered, 2^max_log_contrast 10-bit levels"},
    {"heatmaps_path", nullptr, OptType::String, 0, 0, 0, false,
     "folder to write each scale's c-values of the distorted pictures into (16-bit .gray files)",
     nullptr, nullptr},
    {"full_ref", nullptr, OptType::Bool, 0, 0, 1, false,
     "also score the reference; write cambi_source and cambi_full_reference"},
    {"eotf", nullptr, OptType::String, 0, 0, 0, true, "EOTF of the visibility model",
     cambi::kDefaultEotf, "bt1886|pq"},
    {"cambi_eotf", "ceot", OptType::String, 0, 0, 0, true,
     "EOTF of the visibility model (wins over eotf when set)", cambi::kDefaultEotf, "bt1886|pq"},
    {"cambi_high_res_speedup", "hrs", OptType::Int, 0, 0, 2160, true,
     "halve the picture after the spatial mask from this encode height up (1080, 1440 or 2160; 0: off)"},
};

constexpr const char *kProvided[] = {"Cambi_feature_cambi_score"};
constexpr const char *kSourceName = "cambi_source";
constexpr const char *kFullRefName = "cambi_full_reference";

constexpr FeatureAlias kAliases[] = {{"Cambi_feature_cambi_score", "cambi"}};

// The row kernels of one instruction set.
struct KernelSet {
    void (*flat_row)(const uint16_t *, const uint16_t *, unsigned, uint16_t *);
    void (*column_update)(uint16_t *, const uint16_t *, const uint16_t *, unsigned);
    void (*mask_row)(const uint16_t *, unsigned, uint32_t, uint16_t *);
    void (*decimate_row)(const uint16_t *, uint16_t *, unsigned);
    void (*mode_row_h)(const uint16_t *, unsigned, uint16_t *);
    void (*mode_row_v)(const uint16_t *, const uint16_t *, const uint16_t *, unsigned, uint16_t *);
    void (*histogram_row)(uint16_t *, const uint16_t *, const uint16_t *, unsigned, int, cambi::HistogramBand, int);
    void (*histogram_slide)(uint16_t *, const uint16_t *, const uint16_t *, const uint16_t *, const uint16_t *,
                            unsigned, int, cambi::HistogramBand);
    void (*c_values_row)(const uint16_t *, const uint16_t *, const uint16_t *, unsigned,
                         const cambi::ContrastParams &, float *);
};

// One build of the inline kernels of cambi_kernels.h per instruction set,
// each in a namespace of its own; the target attribute lets the compiler
// vectorize the loops for that set.
#define CAMBI_KERNEL_WRAPPERS(ns, attr, hist_ns)                                                                            \
    namespace ns {                                                                                                 \
    attr void flat_row(const uint16_t *r, const uint16_t *b, unsigned w, uint16_t *o)                              \
    {                                                                                                              \
        cambi::flat_row(r, b, w, o);                                                                               \
    }                                                                                                              \
    attr void column_update(uint16_t *c, const uint16_t *a, const uint16_t *s, unsigned w)                         \
    {                                                                                                              \
        cambi::column_update(c, a, s, w);                                                                          \
    }                                                                                                              \
    attr void mask_row(const uint16_t *p, unsigned w, uint32_t t, uint16_t *m) { cambi::mask_row(p, w, t, m); }  \
    attr void decimate_row(const uint16_t *s, uint16_t *d, unsigned w) { cambi::decimate_row(s, d, w); }          \
    attr void mode_row_h(const uint16_t *r, unsigned w, uint16_t *o) { cambi::mode_row_h(r, w, o); }              \
    attr void mode_row_v(const uint16_t *a, const uint16_t *b, const uint16_t *c, unsigned w, uint16_t *o)         \
    {                                                                                                              \
        cambi::mode_row_v(a, b, c, w, o);                                                                          \
    }                                                                                                              \
    attr void histogram_row(uint16_t *h, const uint16_t *i, const uint16_t *m, unsigned w, int pad,                \
                            cambi::HistogramBand band, int delta)                                                  \
    {                                                                                                              \
        hist_ns::histogram_row(h, i, m, w, pad, band, delta);                                                       \
    }                                                                                                              \
    attr void histogram_slide(uint16_t *h, const uint16_t *si, const uint16_t *sm, const uint16_t *ai,             \
                              const uint16_t *am, unsigned w, int pad, cambi::HistogramBand band)                  \
    {                                                                                                              \
        hist_ns::histogram_slide(h, si, sm, ai, am, w, pad, band);                                                  \
    }                                                                                                              \
    }

CAMBI_KERNEL_WRAPPERS(generic, , cambi)
namespace generic {
void c_values_row(const uint16_t *h, const uint16_t *i, const uint16_t *m, unsigned w, const cambi::ContrastParams &p,
                  float *o)
{
    cambi::c_values_row(h, i, m, w, p, o);
}
}  // namespace generic
#if VMAF_X86
CAMBI_KERNEL_WRAPPERS(build_avx2, __attribute__((target("avx2"))), cambi::avx2)
CAMBI_KERNEL_WRAPPERS(build_avx512, __attribute__((target(VMAF_TARGET_AVX512))), cambi::avx512)
#endif
#undef CAMBI_KERNEL_WRAPPERS

KernelSet pick_kernels(cambi::Kernels which)
{
#if VMAF_X86
    if (which == cambi::Kernels::Best && cpu_has_avx512()) {
        using namespace build_avx512;
        return {flat_row,      column_update,   mask_row, decimate_row, mode_row_h, mode_row_v, histogram_row,
                histogram_slide, cambi::avx512::c_values_row};
    }
    if ((which == cambi::Kernels::Best || which == cambi::Kernels::Avx2) && cpu_has_avx2()) {
        using namespace build_avx2;
        return {flat_row,      column_update,   mask_row, decimate_row, mode_row_h, mode_row_v, histogram_row,
                histogram_slide, cambi::avx2::c_values_row};
    }
#endif
    (void)which;
    using namespace generic;
    return {flat_row,   column_update, mask_row,        decimate_row, mode_row_h,
            mode_row_v, histogram_row, histogram_slide, c_values_row};
}

class CambiCpu final : public Extractor {
public:
    CambiCpu(const FeatureOptions &o, cambi::Kernels which) : opts_(o), which_(which) {}

    ~CambiCpu() override
    {
        for (FILE *f : heatmaps_)
            if (f) std::fclose(f);
    }

    int init(const FrameFormat &fmt) override
    {
        s_ = cambi::Settings::from(opts_, fmt);
        switch (s_.check) {
        case cambi::Settings::Check::Ok: break;
        case cambi::Settings::Check::TooSmall:
            // libvmaf's tool goes on without a cambi score; so do we, with a
            // warning, as for float_ms_ssim.
            log(VMAF_LOG_LEVEL_WARNING, "%s", s_.problem().c_str());
            too_small_ = true;
            return 0;
        default: log(VMAF_LOG_LEVEL_ERROR, "%s", s_.problem().c_str()); return -EINVAL;
        }
        alloc_w_ = s_.full_ref ? std::max(s_.src_w, s_.enc_w) : s_.enc_w;
        alloc_h_ = s_.full_ref ? std::max(s_.src_h, s_.enc_h) : s_.enc_h;

        params_.num_diffs = s_.num_diffs;
        params_.tvi = s_.tvi.data();
        params_.weights = s_.weights.data();
        params_.vlt_luma = s_.vlt_luma;
        params_.band_base = s_.band_base;
        params_.band_size = s_.band_size;
        params_.reciprocal = cambi::reciprocal_table().data();

        stride_ = (alloc_w_ + 63) & ~63u;
        // The buffers are made with the first frame (alloc()): a context whose
        // cambi runs on the GPU never needs them.

        const std::string &hm = opts_.text("heatmaps_path");
        if (!hm.empty())
            if (int err = open_heatmaps(hm)) return err;

        kernels_ = pick_kernels(which_);
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        if (too_small_) return 0;
        if (image_.empty()) alloc();
        double dist_score;
        if (int err = score_picture(dist, s_.enc_w, s_.enc_h, s_.window, !heatmaps_[0] ? -1 : int(index), &dist_score))
            return err;
        if (int err = out.append(kProvided[0], index, std::min(dist_score, s_.max_val))) return err;
        if (!s_.full_ref) return 0;
        double src_score;
        if (int err = score_picture(ref, s_.src_w, s_.src_h, s_.src_window, -1, &src_score)) return err;
        if (int err = out.append(kSourceName, index, std::min(src_score, s_.max_val))) return err;
        return out.append(kFullRefName, index, std::min(std::max(0.0, dist_score - src_score), s_.max_val));
    }

private:
    void alloc()
    {
        image_.assign(size_t(stride_) * alloc_h_ + 64, 0);
        mask_.assign(size_t(stride_) * alloc_h_ + 64, 0);
        c_values_.assign(size_t(alloc_w_) * alloc_h_, 0.0f);
        hist_.assign(size_t(params_.band_size) * alloc_w_ + 64, 0);
        for (auto &r : flat_) r.assign(alloc_w_ + 64, 0);
        colsum_.assign(alloc_w_ + 64, 0);
        for (auto &r : mode_rows_) r.assign(alloc_w_ + 64, 0);
    }

    uint16_t *image_row(unsigned y) { return image_.data() + size_t(y) * stride_; }
    uint16_t *mask_row(unsigned y) { return mask_.data() + size_t(y) * stride_; }

    int open_heatmaps(const std::string &dir)
    {
        std::error_code ec;
        std::filesystem::create_directories(os::fs_path(dir), ec);
        if (ec) {
            log(VMAF_LOG_LEVEL_ERROR, "cambi: cannot create heatmaps_path %s: %s\n", dir.c_str(),
                ec.message().c_str());
            return -EINVAL;
        }
        unsigned w = s_.enc_w, h = s_.enc_h;
        for (int s = 0; s < cambi::kScales; s++) {
            const std::string path = dir + "/cambi_heatmap_scale_" + std::to_string(s) + "_" + std::to_string(w) +
                                     "x" + std::to_string(h) + "_16b.gray";
            heatmaps_[s] = os::open_file(path, "wb");
            if (!heatmaps_[s]) {
                log(VMAF_LOG_LEVEL_ERROR, "cambi: cannot open heatmap file %s\n", path.c_str());
                return -EINVAL;
            }
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        return 0;
    }

    // libvmaf refuses samples above the picture's bit depth.
    int validate(const VmafPicture &pic) const
    {
        if (s_.bpc == 8 || s_.bpc == 16) return 0;
        const uint16_t max = uint16_t((1u << s_.bpc) - 1);
        for (unsigned y = 0; y < pic.h[0]; y++) {
            const auto *row = reinterpret_cast<const uint16_t *>(static_cast<const uint8_t *>(pic.data[0]) +
                                                                 size_t(y) * pic.stride[0]);
            for (unsigned x = 0; x < pic.w[0]; x++) {
                if (row[x] > max) {
                    log(VMAF_LOG_LEVEL_ERROR, "cambi: sample %u exceeds the %u-bit maximum %u\n", row[x], s_.bpc, max);
                    return -EINVAL;
                }
            }
        }
        return 0;
    }

    // The luma plane as 10-bit samples at w x h (nearest-sample decimation with
    // libvmaf's float stepping), into image_.
    template <typename T>
    void load(const VmafPicture &pic, unsigned w, unsigned h)
    {
        const unsigned in_w = pic.w[0], in_h = pic.h[0];
        auto in_row = [&](unsigned y) {
            return reinterpret_cast<const T *>(static_cast<const uint8_t *>(pic.data[0]) + size_t(y) * pic.stride[0]);
        };
        const unsigned up = s_.bpc < 10 ? 10 - s_.bpc : 0, down = s_.bpc > 10 ? s_.bpc - 10 : 0;
        const unsigned round = down ? 1u << (down - 1) : 0;
        auto convert = [&](unsigned v) { return uint16_t(((v << up) + round) >> down); };
        if (in_w == w && in_h == h) {
            for (unsigned y = 0; y < h; y++) {
                const T *src = in_row(y);
                uint16_t *dst = image_row(y);
                for (unsigned x = 0; x < w; x++) dst[x] = convert(src[x]);
            }
            return;
        }
        const float ratio_x = float(in_w) / float(w), ratio_y = float(in_h) / float(h);
        const float start_x = float(ratio_x / 2 - 0.5), start_y = float(ratio_y / 2 - 0.5);
        float fy = start_y;
        for (unsigned y = 0; y < h; y++) {
            const T *src = in_row(unsigned(int(double(fy) + 0.5)));
            uint16_t *dst = image_row(y);
            float fx = start_x;
            for (unsigned x = 0; x < w; x++) {
                dst[x] = convert(src[unsigned(int(double(fx) + 0.5))]);
                fx += ratio_x;
            }
            fy += ratio_y;
        }
    }

    // Averages each sample with its right, lower and lower-right neighbours
    // (those that exist), in place from the top left.
    void anti_dither(unsigned w, unsigned h)
    {
        for (unsigned y = 0; y + 1 < h; y++) {
            uint16_t *r = image_row(y);
            const uint16_t *b = image_row(y + 1);
            for (unsigned x = 0; x + 1 < w; x++) r[x] = uint16_t((r[x] + r[x + 1] + b[x] + b[x + 1]) >> 2);
            r[w - 1] = uint16_t((r[w - 1] + b[w - 1]) >> 1);
        }
        uint16_t *r = image_row(h - 1);
        for (unsigned x = 0; x + 1 < w; x++) r[x] = uint16_t((r[x] + r[x + 1]) >> 1);
    }

    // mask_ = 1 where more than the size's threshold of the 7x7 square around
    // a sample (clipped to the picture) is flat.
    void spatial_mask(unsigned w, unsigned h)
    {
        const uint32_t threshold = cambi::mask_threshold(w, h);
        constexpr int kPad = cambi::kMaskFilterSize / 2;
        uint16_t *colsum = colsum_.data() + kPad;  // kPad zeros on each side
        std::fill(colsum_.begin(), colsum_.end(), 0);
        auto flat = [&](unsigned y) { return flat_[y % 8].data(); };
        auto make_flat = [&](unsigned y) {
            kernels_.flat_row(image_row(y), y + 1 < h ? image_row(y + 1) : nullptr, w, flat(y));
        };
        for (unsigned y = 0; y < unsigned(kPad) && y < h; y++) {
            make_flat(y);
            kernels_.column_update(colsum, flat(y), nullptr, w);
        }
        for (unsigned y = 0; y < h; y++) {
            const unsigned add = y + kPad;
            const bool has_add = add < h, has_sub = y >= unsigned(kPad) + 1;
            if (has_add) make_flat(add);
            kernels_.column_update(colsum, has_add ? flat(add) : nullptr,
                                   has_sub ? flat(y - kPad - 1) : nullptr, w);
            kernels_.mask_row(colsum_.data(), w, threshold, mask_row(y));
        }
    }

    // Halves image_ and mask_ in place to w x h (every other sample).
    void decimate(unsigned w, unsigned h)
    {
        for (unsigned y = 0; y < h; y++) {
            kernels_.decimate_row(image_row(2 * y), image_row(y), w);
            kernels_.decimate_row(mask_row(2 * y), mask_row(y), w);
        }
    }

    // 3x3 separable mode filter of image_, in place; the first and last rows
    // stay as they are.
    void mode_filter(unsigned w, unsigned h)
    {
        for (unsigned y = 0; y < h; y++) {
            kernels_.mode_row_h(image_row(y), w, mode_rows_[y % 3].data());
            if (y > 1)
                kernels_.mode_row_v(mode_rows_[0].data(), mode_rows_[1].data(), mode_rows_[2].data(), w,
                                    image_row(y - 1));
        }
    }

    // c_values_ (w x h, packed) for the current scale.
    void c_values(unsigned w, unsigned h, unsigned window)
    {
        const int pad = int(window >> 1);
        std::fill_n(hist_.begin(), size_t(params_.band_size) * w, 0);
        uint16_t *hist = hist_.data();
        const cambi::HistogramBand band{params_.band_base, unsigned(params_.band_size)};
        for (unsigned y = 0; y < unsigned(pad) && y < h; y++)
            kernels_.histogram_row(hist, image_row(y), mask_row(y), w, pad, band, +1);
        for (unsigned y = 0; y < h; y++) {
            const unsigned add = y + pad;
            const bool has_add = add < h, has_sub = y >= unsigned(pad) + 1;
            if (has_add && has_sub)
                kernels_.histogram_slide(hist, image_row(y - pad - 1), mask_row(y - pad - 1), image_row(add),
                                         mask_row(add), w, pad, band);
            else if (has_add)
                kernels_.histogram_row(hist, image_row(add), mask_row(add), w, pad, band, +1);
            else if (has_sub)
                kernels_.histogram_row(hist, image_row(y - pad - 1), mask_row(y - pad - 1), w, pad, band, -1);
            kernels_.c_values_row(hist_.data(), image_row(y), mask_row(y), w, params_, c_values_.data() + size_t(y) * w);
        }
    }

    int dump_heatmap(int scale, unsigned w, unsigned h, unsigned window, unsigned frame)
    {
        const int max_weight = *std::max_element(s_.weights.begin(), s_.weights.end());
        const int max_c = max_weight * int(window) * int(window) / 4;
        const double scaling = double((1 << 16) - 1) / max_c;
        std::vector<uint16_t> out(size_t(w) * h);
        for (size_t i = 0; i < out.size(); i++) out[i] = uint16_t(int32_t(scaling * double(c_values_[i])));
        FILE *f = heatmaps_[scale];
        if (std::fseek(f, long(size_t(frame) * out.size() * sizeof(uint16_t)), SEEK_SET) ||
            std::fwrite(out.data(), sizeof(uint16_t), out.size(), f) != out.size()) {
            log(VMAF_LOG_LEVEL_ERROR, "cambi: cannot write heatmap of scale %d\n", scale);
            return -EIO;
        }
        return 0;
    }

    // The CAMBI score of one picture scored at w x h; heatmap_frame >= 0
    // writes its c-values.
    int score_picture(const VmafPicture &pic, unsigned w, unsigned h, unsigned window, int heatmap_frame,
                      double *score)
    {
        if (int err = validate(pic)) return err;
        if (s_.bpc == 8)
            load<uint8_t>(pic, w, h);
        else
            load<uint16_t>(pic, w, h);
        if (s_.enc_bits < 10) anti_dither(w, h);
        spatial_mask(w, h);

        double per_scale[cambi::kScales];
        for (int s = 0; s < cambi::kScales; s++) {
            if (s > 0 || s_.speedup) {
                w = (w + 1) >> 1;
                h = (h + 1) >> 1;
                decimate(w, h);
            }
            mode_filter(w, h);
            c_values(w, h, window);
            if (heatmap_frame >= 0)
                if (int err = dump_heatmap(s, w, h, window, unsigned(heatmap_frame))) return err;
            per_scale[s] = cambi::pool_topk(c_values_.data(), w * h, s_.topk, pool_);
        }
        const unsigned side = 2 * (window >> 1) + 1;
        double sum = 0.0;
        for (int s = 0; s < cambi::kScales; s++) sum += per_scale[s] * cambi::kScaleWeights[s];
        *score = sum / double(uint16_t(side * side));
        return 0;
    }

    FeatureOptions opts_;
    cambi::Kernels which_;
    KernelSet kernels_{};
    cambi::Settings s_;
    unsigned alloc_w_ = 0, alloc_h_ = 0, stride_ = 0;
    bool too_small_ = false;  // below CAMBI's size: no score
    cambi::ContrastParams params_{};
    std::vector<uint16_t> image_, mask_, hist_, colsum_;
    std::vector<float> c_values_;
    std::vector<uint16_t> flat_[8];
    std::vector<uint16_t> mode_rows_[3];
    FILE *heatmaps_[cambi::kScales] = {};
    cambi::PoolScratch pool_;
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return cambi::create_cpu(o, cambi::Kernels::Best);
}

// The heatmap files are written by one instance, so frames then run in order.
unsigned option_flags(const FeatureOptions &o)
{
    return o.text("heatmaps_path").empty() ? 0u : kExtractorTemporal;
}

}  // namespace

std::unique_ptr<Extractor> cambi::create_cpu(const FeatureOptions &opts, Kernels which)
{
    return std::make_unique<CambiCpu>(opts, which);
}

const ExtractorInfo kCambiExtractor = {"cambi", kProvided, kOptions, 0, create, option_flags, kAliases};

}  // namespace vmaf
