// CAMBI's per-row kernels, portable versions. Each works on 10-bit samples in
// uint16_t rows; cambi_x86.h has vector versions that give identical results.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

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

// The most common of three samples, or the smallest when all differ.
inline uint16_t mode3(uint16_t a, uint16_t b, uint16_t c)
{
    if (a == b || a == c) return a;
    if (b == c) return b;
    return std::min(std::min(a, b), c);
}

// One c-value: the strongest contrast of sample value `raw` against a step of
// d + 1 levels up or down within the window, from the window's counts `p0`
// (same value), `p_up`, `p_down`.
inline float contrast_term(int weight, uint32_t p0, uint32_t p_far, const float *reciprocal)
{
    return float(int32_t(weight * p0 * p_far)) * reciprocal[p_far + p0];
}

namespace portable {

// 1 where a sample equals its right and lower neighbours (a missing neighbour
// counts as equal); `below` is nullptr on the last row.
inline void flat_row(const uint16_t *row, const uint16_t *below, unsigned w, uint16_t *out)
{
    for (unsigned x = 0; x < w; x++) {
        const bool h = x + 1 == w || row[x] == row[x + 1];
        const bool v = !below || row[x] == below[x];
        out[x] = uint16_t(h && v);
    }
}

// colsum[x] += add[x] - sub[x] (either may be nullptr).
inline void column_update(uint16_t *colsum, const uint16_t *add, const uint16_t *sub, unsigned w)
{
    if (add)
        for (unsigned x = 0; x < w; x++) colsum[x] = uint16_t(colsum[x] + add[x]);
    if (sub)
        for (unsigned x = 0; x < w; x++) colsum[x] = uint16_t(colsum[x] - sub[x]);
}

// mask[x] = (sum of padded[x .. x + 6]) > threshold, where padded has three
// zeros on each side of the column sums.
inline void mask_row(const uint16_t *padded, unsigned w, uint32_t threshold, uint16_t *mask)
{
    for (unsigned x = 0; x < w; x++) {
        uint32_t s = 0;
        for (unsigned k = 0; k < 7; k++) s += padded[x + k];
        mask[x] = uint16_t(s > threshold);
    }
}

// dst[x] = src[2x]: one row of the in-place halving.
inline void decimate_row(const uint16_t *src, uint16_t *dst, unsigned w)
{
    for (unsigned x = 0; x < w; x++) dst[x] = src[2 * x];
}

// The horizontal 3-tap mode of a row; the end samples are copied.
inline void mode_row_h(const uint16_t *row, unsigned w, uint16_t *out)
{
    out[0] = row[0];
    for (unsigned x = 1; x + 1 < w; x++) out[x] = mode3(row[x - 1], row[x], row[x + 1]);
    out[w - 1] = row[w - 1];
}

// The vertical 3-tap mode of three horizontally filtered rows.
inline void mode_row_v(const uint16_t *a, const uint16_t *b, const uint16_t *c, unsigned w, uint16_t *out)
{
    for (unsigned x = 0; x < w; x++) out[x] = mode3(a[x], b[x], c[x]);
}

// Adds `delta` (+1 or -1) to the histogram counts of columns [lo, hi).
inline void range_add(uint16_t *counts, int lo, int hi, int delta)
{
    for (int x = lo; x < hi; x++) counts[x] = uint16_t(counts[x] + delta);
}

// The c-values of one row from the window histograms (band rows of `w`
// counts each); samples outside the mask get 0.
inline void c_values_row(const uint16_t *hist, const uint16_t *image, const uint16_t *mask, unsigned w,
                         const ContrastParams &p, float *out)
{
    const int nd = p.num_diffs;
    for (unsigned x = 0; x < w; x++) {
        float c = 0.0f;
        const int compact = int(image[x]) - p.band_base;
        if (mask[x] && unsigned(compact) < unsigned(p.band_size)) {
            const int value = image[x] + nd;
            const uint32_t p0 = hist[size_t(compact) * w + x];
            for (int d = 0; d < nd; d++) {
                if (value > p.tvi[d] || value + d + 1 <= p.vlt_luma) continue;
                const uint32_t p1 = hist[size_t(compact + d + 1) * w + x];
                const uint32_t p2 = compact - d - 1 >= 0 ? hist[size_t(compact - d - 1) * w + x] : 0;
                const float v = contrast_term(p.weights[d], p0, std::max(p1, p2), p.reciprocal);
                if (v > c) c = v;
            }
        }
        out[x] = c;
    }
}

}  // namespace portable

}  // namespace vmaf::cambi
