// SPDX-License-Identifier: BSD-2-Clause-Patent
// psnr_hvs on the CPU. Each plane is cut into 8x8 blocks every 7 samples; per
// block the samples' global and quadrant variances give a masking strength,
// both blocks go through the integer DCT, and each coefficient's error beyond
// the mask (the DC's in full) is weighted by the CSF and squared. The float
// accumulation order follows libvmaf's scalar code (it has no SIMD path).
#include "feature/psnr_hvs/psnr_hvs.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "feature/psnr_hvs/psnr_hvs_tables.h"
#include "util/log.h"

namespace vmaf {

namespace {

constexpr const char *kProvided[] = {psnr_hvs::kNames[0], psnr_hvs::kNames[1],
                                     psnr_hvs::kNames[2], psnr_hvs::kCombined};

using Table = float[8][8];

// Masking weights of a CSF table: (csf * scale)^2 in double, stored as float.
struct Mask {
    float m[8][8];
    explicit Mask(const Table &csf)
    {
        for (int v = 0; v < 8; v++)
            for (int u = 0; u < 8; u++) m[v][u] = psnr_hvs::mask_weight(csf[v][u]);
    }
};

// Quadrant (0..3) of a sample in the 8x8 block: +1 for the lower half, +2 for the right half.
inline int quadrant(int row, int col) { return (row >= 4) + 2 * (col >= 4); }

// Variance-based masking factor of a block: the quadrants' summed variances
// over the whole block's variance (the latter left as is when it is 0).
float variance_ratio(const int32_t b[64])
{
    float mean = 0.0f, qmean[4] = {0, 0, 0, 0};
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            mean += float(b[i * 8 + j]);
            qmean[quadrant(i, j)] += float(b[i * 8 + j]);
        }
    mean /= 64.0f;
    for (float &q : qmean) q /= 16.0f;
    float var = 0.0f, qvar[4] = {0, 0, 0, 0};
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            const float s = float(b[i * 8 + j]);
            const int q = quadrant(i, j);
            var += (s - mean) * (s - mean);
            qvar[q] += (s - qmean[q]) * (s - qmean[q]);
        }
    // Unbiased estimates: n / (n - 1).
    var *= psnr_hvs::kBlockScale;
    for (float &q : qvar) q *= psnr_hvs::kQuadScale;
    if (var > 0) var = (qvar[0] + qvar[1] + qvar[2] + qvar[3]) / var;
    return var;
}

// Masking strength of a transformed block: the AC energy weighted by the mask,
// scaled by the variance ratio.
float mask_strength(const int32_t c[64], float ratio, const Mask &mask)
{
    float energy = 0.0f;
    for (int v = 0; v < 8; v++)
        for (int u = (v == 0); u < 8; u++) {
            // The square is a wrapping 32-bit integer product, as in the reference.
            const int32_t sq = int32_t(uint32_t(c[v * 8 + u]) * uint32_t(c[v * 8 + u]));
            energy += float(sq) * mask.m[v][u];
        }
    return float(std::sqrt(double(energy * ratio)) / 32.0f);
}

template <typename T>
void load_block(const VmafPicture &pic, unsigned p, int x, int y, int32_t b[64])
{
    const auto *base = static_cast<const uint8_t *>(pic.data[p]);
    for (int i = 0; i < 8; i++) {
        const T *row = reinterpret_cast<const T *>(base + std::ptrdiff_t(y + i) * pic.stride[p]);
        for (int j = 0; j < 8; j++) b[i * 8 + j] = int32_t(row[x + j]);
    }
}

// The plane's masked, CSF-weighted squared DCT error per coefficient,
// normalised by the squared peak.
template <typename T>
double plane_score(const VmafPicture &ref, const VmafPicture &dis, unsigned p, int w, int h,
                   const Table &csf, const Mask &mask)
{
    float total = 0.0f;
    int count = 0;
    int32_t s[64], d[64];
    for (int y = 0; y < h - 7; y += psnr_hvs::kStep) {
        for (int x = 0; x < w - 7; x += psnr_hvs::kStep) {
            load_block<T>(ref, p, x, y, s);
            load_block<T>(dis, p, x, y, d);
            const float s_ratio = variance_ratio(s);
            const float d_ratio = variance_ratio(d);
            psnr_hvs::fdct8x8(s);
            psnr_hvs::fdct8x8(d);
            float strength = mask_strength(s, s_ratio, mask);
            const float d_strength = mask_strength(d, d_ratio, mask);
            if (d_strength > strength) strength = d_strength;
            for (int v = 0; v < 8; v++) {
                for (int u = 0; u < 8; u++) {
                    float err = float(std::abs(s[v * 8 + u] - d[v * 8 + u]));
                    if (v != 0 || u != 0) {
                        const float masked = strength / mask.m[v][u];
                        err = err < masked ? 0.0f : err - masked;
                    }
                    total += (err * csf[v][u]) * (err * csf[v][u]);
                    count++;
                }
            }
        }
    }
    return psnr_hvs::plane_score(total, count, ref.bpc);
}

class PsnrHvsCpu final : public Extractor {
public:
    PsnrHvsCpu() : masks_{Mask(psnr_hvs::kCsfY), Mask(psnr_hvs::kCsfCb), Mask(psnr_hvs::kCsfCr)} {}

    int init(const FrameFormat &fmt) override
    {
        if (fmt.bpc > psnr_hvs::kMaxBpc) {
            log(VMAF_LOG_LEVEL_ERROR, "psnr_hvs: unsupported bit depth %u (at most %u)\n", fmt.bpc,
                psnr_hvs::kMaxBpc);
            return -EINVAL;
        }
        if (fmt.pix_fmt == VMAF_PIX_FMT_YUV400P) {
            log(VMAF_LOG_LEVEL_ERROR, "psnr_hvs: needs chroma planes (4:0:0 input given)\n");
            return -EINVAL;
        }
        // Plane sizes as libvmaf's pictures have them: subsampled chroma
        // rounded down (an odd-sized picture's last chroma column/row is not scored).
        const unsigned ss_x = fmt.pix_fmt != VMAF_PIX_FMT_YUV444P;
        const unsigned ss_y = fmt.pix_fmt == VMAF_PIX_FMT_YUV420P;
        for (unsigned p = 0; p < 3; p++) {
            w_[p] = int(p ? fmt.w >> ss_x : fmt.w);
            h_[p] = int(p ? fmt.h >> ss_y : fmt.h);
        }
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index,
                ScoreSink &out) override
    {
        static constexpr const Table *kCsf[3] = {&psnr_hvs::kCsfY, &psnr_hvs::kCsfCb, &psnr_hvs::kCsfCr};
        double score[3];
        for (unsigned p = 0; p < 3; p++) {
            score[p] = ref.bpc > 8 ? plane_score<uint16_t>(ref, dist, p, w_[p], h_[p], *kCsf[p], masks_[p])
                                   : plane_score<uint8_t>(ref, dist, p, w_[p], h_[p], *kCsf[p], masks_[p]);
            if (int err = out.append(psnr_hvs::kNames[p], index, psnr_hvs::to_db(score[p]))) return err;
        }
        return out.append(psnr_hvs::kCombined, index, psnr_hvs::to_db(psnr_hvs::combined_score(score)));
    }

private:
    Mask masks_[3];
    int w_[3] = {}, h_[3] = {};
};

std::unique_ptr<Extractor> create(const FeatureOptions &)
{
    return std::make_unique<PsnrHvsCpu>();
}

}  // namespace

const ExtractorInfo kPsnrHvsExtractor = {"psnr_hvs", kProvided, {}, 0, create};

}  // namespace vmaf
