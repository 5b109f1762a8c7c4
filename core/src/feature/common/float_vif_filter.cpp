// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/common/float_vif_filter.h"

namespace vmaf::float_vif {

namespace {

// The taps' rows of output row y, mirrored at the top and bottom edges.
inline const float *tap_row(PlaneView p, int y, int r, int k)
{
    return p.row(mirror(y - r + k, p.h));
}

}  // namespace

void vertical_pass(const float *f, int taps, Term term, PlaneView a, PlaneView b, int y, float *out)
{
    const int r = taps / 2;
    const int w = a.w;
    for (int x = 0; x < w; x++) out[x] = 0.0f;
    // Tap by tap over the row: each out[x] still sums its taps in order.
    for (int k = 0; k < taps; k++) {
        const float c = f[k];
        const float *pa = tap_row(a, y, r, k);
        switch (term) {
        case Term::Plain:
            for (int x = 0; x < w; x++) out[x] += c * pa[x];
            break;
        case Term::Square:
            for (int x = 0; x < w; x++) out[x] += c * (pa[x] * pa[x]);
            break;
        case Term::Product: {
            const float *pb = tap_row(b, y, r, k);
            for (int x = 0; x < w; x++) out[x] += c * (pa[x] * pb[x]);
            break;
        }
        }
    }
}

float horizontal_at(const float *f, int taps, const float *row, int w, int x)
{
    const int r = taps / 2;
    float acc = 0.0f;
    for (int k = 0; k < taps; k++) acc += f[k] * row[mirror(x - r + k, w)];
    return acc;
}

void horizontal_pass(const float *f, int taps, const float *row, int w, float *out)
{
    const int r = taps / 2;
    const int lo = r < w ? r : w;
    const int hi = w - r > lo ? w - r : lo;
    for (int x = 0; x < lo; x++) out[x] = horizontal_at(f, taps, row, w, x);
    for (int x = lo; x < hi; x++) {
        const float *src = row + x - r;
        float acc = 0.0f;
        for (int k = 0; k < taps; k++) acc += f[k] * src[k];
        out[x] = acc;
    }
    for (int x = hi; x < w; x++) out[x] = horizontal_at(f, taps, row, w, x);
}

void filter_plane(const float *f, int taps, PlaneView src, float *dst, std::ptrdiff_t dst_stride, float *row)
{
    for (int y = 0; y < src.h; y++) {
        vertical_pass(f, taps, Term::Plain, src, src, y, row);
        horizontal_pass(f, taps, row, src.w, dst + std::ptrdiff_t(y) * dst_stride);
    }
}

void blur_decimate(const Kernel &k, PlaneView src, float *dst, std::vector<float> &row)
{
    const int dw = src.w / 2, dh = src.h / 2;
    row.resize(std::size_t(src.w));
    for (int y = 0; y < dh; y++) {
        vertical_pass(k.f, k.taps, Term::Plain, src, src, 2 * y, row.data());
        float *out = dst + std::ptrdiff_t(y) * dw;
        for (int x = 0; x < dw; x++) out[x] = horizontal_at(k.f, k.taps, row.data(), src.w, 2 * x);
    }
}

}  // namespace vmaf::float_vif
