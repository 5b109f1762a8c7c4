// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_ansnr on the CPU: the reference and the distorted luma (float, 8-bit
// scale, minus 128) are smoothed by different 2-D filters; the signal is the
// filtered reference's energy, the noise its squared difference to the
// filtered distorted picture, both summed in float row by row.
#include "feature/float_ansnr/float_ansnr.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <vector>

#include "feature/common/float_picture.h"
#include "feature/common/float_psnr_peak.h"
#include "feature/float_ansnr/float_ansnr_tables.h"
#include "util/log.h"

namespace vmaf {

namespace {

constexpr const char *kProvided[] = {float_ansnr::kAnsnr, float_ansnr::kAnpsnr};

constexpr unsigned kMinSize = float_ansnr::kDisWidth / 2 + 1;

// Filter `src` (w x h, packed) with the width x width taps `f` into `dst`:
// each tap row summed in float, then the rows summed in float, top to bottom.
void filter2d(const float *f, int width, const FloatPlane &src, std::vector<float> &dst)
{
    const int w = int(src.w), h = int(src.h), r = width / 2;
    dst.resize(src.data.size());
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            float acc = 0.0f;
            for (int fi = 0; fi < width; fi++) {
                const float *row = src.data.data() + std::size_t(float_ansnr::mirror(i - r + fi, h)) * w;
                float inner = 0.0f;
                for (int fj = 0; fj < width; fj++)
                    inner += f[fi * width + fj] * row[float_ansnr::mirror(j - r + fj, w)];
                acc += inner;
            }
            dst[std::size_t(i) * w + j] = acc;
        }
    }
}

// Signal and noise energies: per-row float sums added into float totals.
void energies(const std::vector<float> &ref, const std::vector<float> &dis, int w, int h,
              float *sig, float *noise)
{
    float sig_total = 0.0f, noise_total = 0.0f;
    for (int i = 0; i < h; i++) {
        float sig_row = 0.0f, noise_row = 0.0f;
        for (int j = 0; j < w; j++) {
            const float r = ref[std::size_t(i) * w + j], d = dis[std::size_t(i) * w + j];
            sig_row += r * r;
            noise_row += (r - d) * (r - d);
        }
        sig_total += sig_row;
        noise_total += noise_row;
    }
    *sig = sig_total;
    *noise = noise_total;
}

class FloatAnsnrCpu final : public Extractor {
public:
    int init(const FrameFormat &fmt) override
    {
        if (!float_psnr::peak_for(fmt.bpc, &peak_)) {
            log(VMAF_LOG_LEVEL_ERROR, "float_ansnr: unsupported bit depth %u (8, 10, 12 or 16)\n",
                fmt.bpc);
            return -EINVAL;
        }
        // The 5x5 filter's mirrored border needs 3 samples each way (libvmaf
        // reads outside the picture below that).
        if (fmt.w < kMinSize || fmt.h < kMinSize) {
            log(VMAF_LOG_LEVEL_ERROR, "float_ansnr: picture %ux%u is smaller than %ux%u\n", fmt.w, fmt.h,
                kMinSize, kMinSize);
            return -EINVAL;
        }
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index,
                ScoreSink &out) override
    {
        plane_.assign(ref, 0, float_ansnr::kOffset);
        filter2d(float_ansnr::kRefFilter, float_ansnr::kRefWidth, plane_, ref_filtered_);
        plane_.assign(dist, 0, float_ansnr::kOffset);
        filter2d(float_ansnr::kDisFilter, float_ansnr::kDisWidth, plane_, dis_filtered_);
        const int w = int(plane_.w), h = int(plane_.h);
        float sig, noise;
        energies(ref_filtered_, dis_filtered_, w, h, &sig, &noise);

        const double ansnr = noise == 0.0f ? peak_.psnr_max : 10.0 * std::log10(double(sig / noise));
        const double anpsnr = std::min(
            10.0 * std::log10(peak_.peak * peak_.peak * w * h /
                              std::max(double(noise), float_ansnr::kNoiseFloor)),
            peak_.psnr_max);
        if (int err = out.append(float_ansnr::kAnsnr, index, ansnr)) return err;
        return out.append(float_ansnr::kAnpsnr, index, anpsnr);
    }

private:
    float_psnr::Peak peak_{};
    FloatPlane plane_;
    std::vector<float> ref_filtered_, dis_filtered_;
};

std::unique_ptr<Extractor> create(const FeatureOptions &)
{
    return std::make_unique<FloatAnsnrCpu>();
}

}  // namespace

const ExtractorInfo kFloatAnsnrExtractor = {"float_ansnr", kProvided, {}, 0, create};

}  // namespace vmaf
