// SPDX-License-Identifier: BSD-2-Clause-Patent
// XPSNR on the CPU: FFmpeg's xpsnr filter (libavfilter/vf_xpsnr.c). Per luma
// block, the squared error and the activity (high-pass and temporal difference
// of the first input, with its previous frames kept here) give a weight; each
// plane's weighted SSE becomes a PSNR. xpsnr_tables.h does the arithmetic.
#include "feature/xpsnr/xpsnr.h"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "feature/xpsnr/xpsnr_tables.h"
#include "picture/picture.h"
#include "util/log.h"

namespace vmaf {

namespace {

constexpr OptionSpec kOptions[] = {
    {"fps", nullptr, OptType::Double, 0, 0, 1000, true,
     "frame rate of the input (its integer part counts); from 32 up the temporal activity "
     "is the second-order difference, as the filter does at those rates"},
};

constexpr const char *kProvided[] = {"xpsnr_y", "xpsnr_cb", "xpsnr_cr"};

// Row y of plane p.
template <typename T>
const T *row(const VmafPicture &pic, unsigned p, unsigned y)
{
    return reinterpret_cast<const T *>(static_cast<const uint8_t *>(pic.data[p]) + size_t(y) * pic.stride[p]);
}

// Sum of squared errors of a rectangle of plane p.
template <typename T>
uint64_t rect_sse(const VmafPicture &a, const VmafPicture &b, unsigned p, unsigned x0, unsigned y0,
                  unsigned w, unsigned h)
{
    uint64_t sse = 0;
    for (unsigned y = y0; y < y0 + h; y++) {
        const T *ra = row<T>(a, p, y), *rb = row<T>(b, p, y);
        for (unsigned x = x0; x < x0 + w; x++) {
            const int64_t e = int64_t(ra[x]) - int64_t(rb[x]);
            sse += uint64_t(e * e);
        }
    }
    return sse;
}

class XpsnrCpu final : public Extractor {
public:
    explicit XpsnrCpu(const FeatureOptions &o) : fps_(unsigned(o.number("fps"))) {}

    int init(const FrameFormat &fmt) override
    {
        unsigned ss_x = 0, ss_y = 0;
        chroma_shift(fmt.pix_fmt, &ss_x, &ss_y);
        g_ = xpsnr::geometry(fmt, plane_count(fmt.pix_fmt) == 1 ? 1 : 3, ss_x, ss_y, fps_);
        if (g_.weighted()) {
            // FFmpeg keeps its history buffers zeroed before the first frame.
            m1_.assign(size_t(g_.w) * g_.h, 0);
            m2_.assign(size_t(g_.w) * g_.h, 0);
            luma_.resize(g_.blocks());
        }
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        // The filter's first input (its "original", whose activity weights the
        // errors) is the distorted picture in the documented call
        // (xpsnr with the distorted stream first, the reference second).
        uint64_t wsse[3] = {};
        const int err = ref.bpc == 8 ? measure<uint8_t>(dist, ref, wsse) : measure<uint16_t>(dist, ref, wsse);
        if (err) return err;
        return xpsnr::write_frame(g_, wsse, index, summary_.data(), out);
    }

    int flush(ScoreSink &out) override { return xpsnr::write_summary(g_, summary_.data(), out); }

private:
    template <typename T>
    int measure(const VmafPicture &org, const VmafPicture &rec, uint64_t wsse[3])
    {
        if (!g_.weighted()) {  // too small to weight: plain SSE, as the filter does
            for (unsigned p = 0; p < g_.planes; p++) wsse[p] = rect_sse<T>(org, rec, p, 0, 0, g_.pw[p], g_.ph[p]);
            return 0;
        }
        for (unsigned by = 0, i = 0; by < g_.h_blk; by++)
            for (unsigned bx = 0; bx < g_.w_blk; bx++, i++) luma_[i] = luma_block<T>(org, rec, bx, by);
        std::array<std::vector<uint64_t>, 3> chroma;
        std::span<const uint64_t> spans[3];
        for (unsigned p = 1; p < g_.planes; p++) {
            for (unsigned y = 0; y < g_.ph[p]; y += g_.by[p])
                for (unsigned x = 0; x < g_.pw[p]; x += g_.bx[p])
                    chroma[p].push_back(rect_sse<T>(org, rec, p, x, y, std::min(g_.bx[p], g_.pw[p] - x),
                                                    std::min(g_.by[p], g_.ph[p] - y)));
            spans[p] = chroma[p];
        }
        const int err = xpsnr::frame_wsse(g_, luma_, spans, wsse);
        if (err)
            log(VMAF_LOG_LEVEL_ERROR, "xpsnr: chroma plane of %ux%u has more blocks than the luma grid\n",
                g_.pw[1], g_.ph[1]);
        return err;
    }

    // Squared error and activity of luma block (bx, by); moves its samples
    // into the history (not for a block too thin to filter, as in the filter).
    template <typename T>
    xpsnr::LumaBlock luma_block(const VmafPicture &org, const VmafPicture &rec, unsigned bx, unsigned by)
    {
        const unsigned x0 = bx * g_.b, y0 = by * g_.b;
        const unsigned bw = std::min(g_.b, g_.w - x0), bh = std::min(g_.b, g_.h - y0);
        xpsnr::LumaBlock blk;
        blk.sse = rect_sse<T>(org, rec, 0, x0, y0, bw, bh);
        const xpsnr::ActiveArea a = xpsnr::active_area(g_, x0, y0, bw, bh);
        if (a.empty()) return blk;
        // Samples as the filter holds them (16-bit signed), 0 outside the picture.
        auto o = [&](int x, int y) -> int {
            const int px = int(x0) + x, py = int(y0) + y;
            if (px < 0 || py < 0 || px >= int(g_.w) || py >= int(g_.h)) return 0;
            return int16_t(row<T>(org, 0, unsigned(py))[px]);
        };
        const size_t stride = g_.w;
        auto in = [&](int x, int y) { return int(x0) + x < int(g_.w) && int(y0) + y < int(g_.h); };
        auto at = [&](int x, int y) { return (size_t(y0) + unsigned(y)) * stride + x0 + unsigned(x); };
        if (g_.b_val == 1) {
            for (int y = a.y0; y < a.y1; y++)
                for (int x = a.x0; x < a.x1; x++) {
                    const int f = 12 * o(x, y) - 2 * (o(x - 1, y) + o(x + 1, y) + o(x, y - 1) + o(x, y + 1)) -
                                  (o(x - 1, y - 1) + o(x + 1, y - 1) + o(x - 1, y + 1) + o(x + 1, y + 1));
                    blk.spatial += uint64_t(std::abs(f));
                }
            for (int y = 0; y < int(bh); y++)
                for (int x = 0; x < int(bw); x++) {
                    const size_t i = at(x, y);
                    const int t = g_.second_order ? o(x, y) - 2 * m1_[i] + m2_[i] : o(x, y) - m1_[i];
                    blk.temporal += xpsnr::kGamma * uint64_t(std::abs(t));
                    m2_[i] = m1_[i];
                    m1_[i] = int16_t(o(x, y));
                }
            return blk;
        }
        // Above 2048x1152: 2x2 sums. The filter measures no spatial activity
        // in active areas up to 12 samples wide.
        auto q = [&](int x, int y) { return o(x, y) + o(x + 1, y) + o(x, y + 1) + o(x + 1, y + 1); };
        if (a.x1 > 12)
            for (int y = a.y0; y < a.y1; y += 2)
                for (int x = a.x0; x < a.x1; x += 2) {
                    const int f = 12 * q(x, y) - 3 * (o(x, y - 1) + o(x + 1, y - 1) + o(x, y + 2) + o(x + 1, y + 2)) -
                                  3 * (o(x - 1, y) + o(x + 2, y) + o(x - 1, y + 1) + o(x + 2, y + 1)) -
                                  2 * (o(x - 1, y - 1) + o(x + 2, y - 1) + o(x - 1, y + 2) + o(x + 2, y + 2)) -
                                  (o(x - 1, y - 2) + o(x, y - 2) + o(x + 1, y - 2) + o(x + 2, y - 2) +
                                   o(x - 1, y + 3) + o(x, y + 3) + o(x + 1, y + 3) + o(x + 2, y + 3) +
                                   o(x - 2, y - 1) + o(x - 2, y) + o(x - 2, y + 1) + o(x - 2, y + 2) +
                                   o(x + 3, y - 1) + o(x + 3, y) + o(x + 3, y + 1) + o(x + 3, y + 2));
                    blk.spatial += uint64_t(std::abs(f));
                }
        uint64_t sum = 0;
        for (int y = 0; y < int(bh); y += 2)
            for (int x = 0; x < int(bw); x += 2) {
                int t = 0;
                for (int dy = 0; dy < 2; dy++)
                    for (int dx = 0; dx < 2; dx++) {
                        if (!in(x + dx, y + dy)) continue;
                        const size_t i = at(x + dx, y + dy);
                        t += g_.second_order ? o(x + dx, y + dy) - 2 * m1_[i] + m2_[i] : o(x + dx, y + dy) - m1_[i];
                        m2_[i] = m1_[i];
                        m1_[i] = int16_t(o(x + dx, y + dy));
                    }
                sum += uint64_t(std::abs(t));
            }
        blk.temporal = sum * xpsnr::kGamma;
        return blk;
    }

    unsigned fps_;
    xpsnr::Geometry g_;
    std::vector<int16_t> m1_, m2_;  // the first input's luma one and two frames back
    std::vector<xpsnr::LumaBlock> luma_;
    std::array<xpsnr::Summary, 3> summary_{};
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return std::make_unique<XpsnrCpu>(o);
}

}  // namespace

const ExtractorInfo kXpsnrExtractor = {"xpsnr", kProvided, kOptions, kExtractorTemporal, create, nullptr, {},
                                       xpsnr::kAggregateNames};

}  // namespace vmaf
