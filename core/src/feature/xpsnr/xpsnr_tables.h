// SPDX-License-Identifier: BSD-2-Clause-Patent
// XPSNR geometry and host arithmetic shared by the CPU extractor and its Vulkan
// twin (behaviour of FFmpeg's libavfilter/vf_xpsnr.c). Both backends measure the
// same integers per luma block (squared error, spatial and temporal activity)
// and per chroma block (squared error); everything in floating point happens
// here, in one order, so the two give identical doubles.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "feature/extractor.h"
#include "picture/format.h"

namespace vmaf::xpsnr {

inline constexpr const char *kNames[3] = {"xpsnr_y", "xpsnr_cb", "xpsnr_cr"};
// The whole-sequence score as the filter prints it at the end (aggregate_metrics).
inline constexpr const char *kAggregateNames[3] = {"axpsnr_y", "axpsnr_cb", "axpsnr_cr"};

// Temporal activity weight of the filter.
inline constexpr uint64_t kGamma = 2;
// Pictures of more samples than this high-pass filter on a 2x downsampled grid.
inline constexpr uint64_t kDownsampleArea = 2048ull * 1152ull;
// Pictures up to this many samples smooth the block weights (min of neighbours).
inline constexpr uint64_t kSmoothArea = 640ull * 480ull;
// Frame rates from this up take the second-order temporal difference.
inline constexpr unsigned kSecondOrderFps = 32;

struct Geometry {
    unsigned w = 0, h = 0;  // luma size
    unsigned depth = 8;
    unsigned planes = 3;
    unsigned pw[3] = {}, ph[3] = {};  // plane sizes
    unsigned b = 0;                   // luma block size (0 or a multiple of 4)
    unsigned w_blk = 0, h_blk = 0;    // luma blocks across and down
    unsigned bx[3] = {}, by[3] = {};  // block size of each plane
    unsigned cw_blk[3] = {}, ch_blk[3] = {};  // blocks of each plane
    int b_val = 1;                    // 2: high-pass on the downsampled grid
    bool second_order = false;
    bool smooth = false;
    double avg_act = 0.0;
    uint64_t max_error = 0;           // (2^depth - 1)^2

    bool weighted() const { return b >= 4; }
    unsigned blocks() const { return w_blk * h_blk; }
};

// The filter's geometry for `fmt` at integer frame rate `fps`.
inline Geometry geometry(const FrameFormat &fmt, unsigned planes, unsigned ss_x, unsigned ss_y, unsigned fps)
{
    Geometry g;
    g.w = fmt.w;
    g.h = fmt.h;
    g.depth = fmt.bpc;
    g.planes = planes;
    for (unsigned p = 0; p < 3; p++) {
        g.pw[p] = p ? (fmt.w + (1u << ss_x) - 1) >> ss_x : fmt.w;
        g.ph[p] = p ? (fmt.h + (1u << ss_y) - 1) >> ss_y : fmt.h;
    }
    const double r = double(uint64_t(g.w) * g.h) / (3840.0 * 2160.0);
    g.b = unsigned(std::max(0, 4 * int32_t(32.0 * std::sqrt(r) + 0.5)));
    g.avg_act = std::sqrt(16.0 * double(1u << (2 * g.depth - 9)) / std::sqrt(std::max(0.00001, r)));
    g.b_val = uint64_t(g.w) * g.h > kDownsampleArea ? 2 : 1;
    g.smooth = uint64_t(g.w) * g.h <= kSmoothArea;
    g.second_order = fps >= kSecondOrderFps;
    g.max_error = uint64_t((1u << g.depth) - 1) * uint64_t((1u << g.depth) - 1);
    if (g.weighted()) {
        g.w_blk = (g.w + g.b - 1) / g.b;
        g.h_blk = (g.h + g.b - 1) / g.b;
        for (unsigned p = 0; p < 3; p++) {
            g.bx[p] = unsigned(uint64_t(g.b) * g.pw[p] / g.w);
            g.by[p] = unsigned(uint64_t(g.b) * g.ph[p] / g.h);
            g.cw_blk[p] = (g.pw[p] + g.bx[p] - 1) / g.bx[p];
            g.ch_blk[p] = (g.ph[p] + g.by[p] - 1) / g.by[p];
        }
    }
    return g;
}

// The active (high-pass filtered) area of the luma block at (x0, y0) of size
// bw x bh: blocks on the picture's border leave out b_val samples there.
struct ActiveArea {
    int x0, y0, x1, y1;
    bool empty() const { return x1 <= x0 || y1 <= y0; }
};
inline ActiveArea active_area(const Geometry &g, unsigned x0, unsigned y0, unsigned bw, unsigned bh)
{
    return {x0 > 0 ? 0 : g.b_val, y0 > 0 ? 0 : g.b_val, x0 + bw < g.w ? int(bw) : int(bw) - g.b_val,
            y0 + bh < g.h ? int(bh) : int(bh) - g.b_val};
}

// What both backends measure of one luma block.
struct LumaBlock {
    uint64_t sse = 0;
    uint64_t spatial = 0;   // sum of |high-pass|
    uint64_t temporal = 0;  // kGamma * sum of |temporal difference|
};

// The block's weight, 1 / (mean activity, floored), or 1 for a block too thin
// to filter.
inline double block_weight(const Geometry &g, unsigned bx, unsigned by, const LumaBlock &blk)
{
    const unsigned x0 = bx * g.b, y0 = by * g.b;
    const unsigned bw = std::min(g.b, g.w - x0), bh = std::min(g.b, g.h - y0);
    const ActiveArea a = active_area(g, x0, y0, bw, bh);
    if (a.empty()) return 1.0;
    double act = double(blk.spatial) / (double(a.x1 - a.x0) * double(a.y1 - a.y0));
    act += double(blk.temporal) / (double(bw) * double(bh));
    const double floor = double(1u << (g.depth - 6));
    if (act < floor) act = floor;
    act *= act;
    return 1.0 / std::sqrt(act);
}

// The filter's in-line min-smoothing of the weights of pictures up to 640x480,
// in its raster order: on reaching block idx, block idx - 1 is lowered to the
// largest weight of its left, right and upper neighbours where that is smaller
// (the filter's edge rules included), and at the end the last block likewise
// from its left and upper ones.
inline void smooth_weights(const Geometry &g, std::vector<double> &wt)
{
    const unsigned n_w = g.w_blk;
    unsigned idx = 0;
    for (unsigned y = 0; y < g.h; y += g.b) {
        for (unsigned x = 0; x < g.w; x += g.b, idx++) {
            double prev;
            if (x == 0)
                prev = idx > 1 ? wt[idx - 2] : 0.0;
            else
                prev = x > g.b ? std::max(wt[idx - 2], wt[idx]) : wt[idx];
            if (idx > n_w) prev = std::max(prev, wt[idx - 1 - n_w]);
            if (idx > 0 && wt[idx - 1] > prev) wt[idx - 1] = prev;
            if (x + g.b >= g.w && y + g.b >= g.h && idx > n_w) {
                prev = std::max(wt[idx - 1], wt[idx - n_w]);
                if (wt[idx] > prev) wt[idx] = prev;
            }
        }
    }
}

// Rounds a weighted SSE to the filter's integer form.
inline uint64_t round_wsse(const Geometry &g, double wsse)
{
    return wsse <= 0.0 ? 0 : uint64_t(wsse * g.avg_act + 0.5);
}

// The weighted SSE of each plane of one frame from its block measurements:
// luma blocks in raster order, and each chroma plane's block SSEs in raster
// order of that plane's grid, which reuse the luma weights by raster index.
// -ERANGE where a chroma grid has more blocks than the luma grid (no supported
// format has).
inline int frame_wsse(const Geometry &g, std::span<const LumaBlock> luma,
                      std::span<const uint64_t> chroma_sse[3], uint64_t wsse[3])
{
    std::vector<double> wt(luma.size());
    for (unsigned by = 0, i = 0; by < g.h_blk; by++)
        for (unsigned bx = 0; bx < g.w_blk; bx++, i++) wt[i] = block_weight(g, bx, by, luma[i]);
    if (g.smooth) smooth_weights(g, wt);
    double sum = 0.0;
    for (size_t i = 0; i < luma.size(); i++) sum += double(luma[i].sse) * wt[i];
    wsse[0] = round_wsse(g, sum);
    for (unsigned p = 1; p < g.planes; p++) {
        if (chroma_sse[p].size() > wt.size()) return -ERANGE;
        double c = 0.0;
        for (size_t i = 0; i < chroma_sse[p].size(); i++) c += double(chroma_sse[p][i]) * wt[i];
        wsse[p] = round_wsse(g, c);
    }
    return 0;
}

// XPSNR of a plane of `area` samples from its weighted SSE; infinite for 0.
inline double score(uint64_t wsse, uint64_t area, uint64_t max_error)
{
    const double root = std::sqrt(double(wsse));
    if (root < 1.0) return std::numeric_limits<double>::infinity();
    return 10.0 * std::log10(double(area * max_error) / (root * root));
}

// The whole-sequence score the filter prints: from the mean of the frames'
// root weighted SSE, or, where that is below 1 (near-identical planes), the
// mean of the frames' scores.
struct Summary {
    double sum_root = 0.0, sum_score = 0.0;
    uint64_t frames = 0;
    void add(uint64_t wsse, double frame_score)
    {
        sum_root += std::sqrt(double(wsse));
        sum_score += frame_score;
        frames++;
    }
    double value(uint64_t area, uint64_t max_error) const
    {
        if (frames == 0) return std::numeric_limits<double>::infinity();
        const double n = double(frames);
        if (sum_root >= n) {
            const double mean = sum_root / n;
            return 10.0 * std::log10(double(area * max_error) / (mean * mean));
        }
        return sum_score / n;
    }
};

// One frame's scores from its weighted SSEs, added to the clip's summaries.
inline int write_frame(const Geometry &g, const uint64_t wsse[3], unsigned index, Summary summary[3],
                       ScoreSink &out)
{
    for (unsigned p = 0; p < g.planes; p++) {
        const double v = score(wsse[p], uint64_t(g.pw[p]) * g.ph[p], g.max_error);
        summary[p].add(wsse[p], v);
        if (int err = out.append(kNames[p], index, v)) return err;
    }
    return 0;
}

// The clip's scores (aggregate metrics), once at the end.
inline int write_summary(const Geometry &g, const Summary summary[3], ScoreSink &out)
{
    for (unsigned p = 0; p < g.planes; p++) {
        if (!summary[p].frames) continue;
        const double v = summary[p].value(uint64_t(g.pw[p]) * g.ph[p], g.max_error);
        if (int err = out.set_aggregate(kAggregateNames[p], v)) return err;
    }
    return 0;
}

}  // namespace vmaf::xpsnr
