// SPDX-License-Identifier: BSD-2-Clause-Patent
// CAMBI's per-row kernels on 10-bit samples in uint16_t rows. They are inlined
// into one build per instruction set (cambi_cpu.cpp), where the compiler
// vectorizes the simple loops; cambi_x86.h has hand-written vector c-values.
// Every build gives identical results.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "util/simd.h"

namespace vmaf::cambi {

// The parameters of the contrast (c-value) computation of one picture.
struct ContrastParams {
    int num_diffs;            // 1 << max_log_contrast
    const uint16_t *tvi;      // per diff: the largest visible sample, plus num_diffs
    const int *weights;       // per diff: contrast weight
    int vlt_luma;             // visibility threshold on the luma code
    int band_base;            // smallest sample the histograms track
    int band_size;            // number of samples they track
    const float *reciprocal;  // reciprocal_table()
};

// The most common of three samples, or the smallest when all differ (written
// without branches so that it vectorizes).
VMAF_INLINE uint16_t mode3(uint16_t a, uint16_t b, uint16_t c)
{
    uint16_t r = std::min(std::min(a, b), c);
    r = b == c ? b : r;
    return a == b || a == c ? a : r;
}

// One contrast term: weight * p0 * p / (p0 + p) as libvmaf forms it, an
// integer product made float and multiplied by the float reciprocal of the
// count sum.
VMAF_INLINE float contrast_term(int weight, uint32_t p0, uint32_t p, const float *reciprocal)
{
    return float(int32_t(uint32_t(weight) * p0 * p)) * reciprocal[p + p0];
}

// 1 where a sample equals its right and lower neighbours (a missing neighbour
// counts as equal); `below` is nullptr on the last row.
VMAF_INLINE void flat_row(const uint16_t *row, const uint16_t *below, unsigned w, uint16_t *out)
{
    if (below) {
        for (unsigned x = 0; x + 1 < w; x++) out[x] = uint16_t((row[x] == row[x + 1]) & (row[x] == below[x]));
        out[w - 1] = uint16_t(row[w - 1] == below[w - 1]);
    } else {
        for (unsigned x = 0; x + 1 < w; x++) out[x] = uint16_t(row[x] == row[x + 1]);
        out[w - 1] = 1;
    }
}

// colsum[x] += add[x] - sub[x] (either may be nullptr).
VMAF_INLINE void column_update(uint16_t *colsum, const uint16_t *add, const uint16_t *sub, unsigned w)
{
    if (add)
        for (unsigned x = 0; x < w; x++) colsum[x] = uint16_t(colsum[x] + add[x]);
    if (sub)
        for (unsigned x = 0; x < w; x++) colsum[x] = uint16_t(colsum[x] - sub[x]);
}

// mask[x] = (sum of padded[x .. x + 6]) > threshold, where padded has three
// zeros on each side of the column sums (each at most 7).
VMAF_INLINE void mask_row(const uint16_t *padded, unsigned w, uint32_t threshold, uint16_t *mask)
{
    const uint16_t t = uint16_t(std::min<uint32_t>(threshold, 0xffff));
    for (unsigned x = 0; x < w; x++) {
        const uint16_t s = uint16_t(padded[x] + padded[x + 1] + padded[x + 2] + padded[x + 3] + padded[x + 4] +
                                    padded[x + 5] + padded[x + 6]);
        mask[x] = uint16_t(s > t);
    }
}

// dst[x] = src[2x]: one row of the in-place halving (dst may be src).
VMAF_INLINE void decimate_row(const uint16_t *src, uint16_t *dst, unsigned w)
{
    for (unsigned x = 0; x < w; x++) dst[x] = src[2 * x];
}

// The horizontal 3-tap mode of a row; the end samples are copied.
VMAF_INLINE void mode_row_h(const uint16_t *row, unsigned w, uint16_t *out)
{
    out[0] = row[0];
    for (unsigned x = 1; x + 1 < w; x++) out[x] = mode3(row[x - 1], row[x], row[x + 1]);
    out[w - 1] = row[w - 1];
}

// The vertical 3-tap mode of three horizontally filtered rows.
VMAF_INLINE void mode_row_v(const uint16_t *a, const uint16_t *b, const uint16_t *c, unsigned w, uint16_t *out)
{
    for (unsigned x = 0; x < w; x++) out[x] = mode3(a[x], b[x], c[x]);
}

// Adds `delta` (+1 or -1) to counts [lo, hi).
VMAF_INLINE void range_add(uint16_t *counts, int lo, int hi, int delta)
{
    const uint16_t d = uint16_t(delta);
    for (int x = lo; x < hi; x++) counts[x] = uint16_t(counts[x] + d);
}

// The window histograms: band row r (sample base + r) holds, per column x, the
// count of masked samples of that value in the window around x. A sample
// enters or leaves the counts of the columns within `pad` of its own.
struct HistogramBand {
    int base;       // smallest sample tracked
    unsigned size;  // number of samples tracked
};

// The portable histogram updates (cambi_histogram_tmpl.h, with this RangeAdd).
struct RangeAdd {
    static VMAF_INLINE void apply(uint16_t *counts, int lo, int hi, int delta) { range_add(counts, lo, hi, delta); }
};
#include "feature/cambi/cambi_histogram_tmpl.h"

// The c-value of one sample: 0 outside the mask or the band; else the largest
// contrast term over the steps d + 1 = 1 .. num_diffs that are visible at its
// value, against the more frequent of the values d + 1 above and below.
VMAF_INLINE float c_value(const uint16_t *hist, unsigned w, unsigned x, uint16_t sample, uint16_t masked,
                          const ContrastParams &p)
{
    const int compact = int(sample) - p.band_base;
    if (!masked || unsigned(compact) >= unsigned(p.band_size)) return 0.0f;
    const int value = sample + p.num_diffs;
    const uint32_t p0 = hist[size_t(compact) * w + x];
    float c = 0.0f;
    for (int d = 0; d < p.num_diffs; d++) {
        if (value > p.tvi[d] || value + d + 1 <= p.vlt_luma) continue;
        // In the band wherever the step is visible (the TVI limits grow with d).
        const int up = std::min(compact + d + 1, p.band_size - 1), down = compact - d - 1;
        const uint32_t p1 = hist[size_t(up) * w + x];
        const uint32_t p2 = down >= 0 ? hist[size_t(down) * w + x] : 0;
        const float v = contrast_term(p.weights[d], p0, std::max(p1, p2), p.reciprocal);
        if (v > c) c = v;
    }
    return c;
}

VMAF_INLINE void c_values_row(const uint16_t *hist, const uint16_t *image, const uint16_t *mask, unsigned w,
                              const ContrastParams &p, float *out)
{
    for (unsigned x = 0; x < w; x++) out[x] = c_value(hist, w, x, image[x], mask[x], p);
}

}  // namespace vmaf::cambi
