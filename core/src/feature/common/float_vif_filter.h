// SPDX-License-Identifier: BSD-2-Clause-Patent
// Separable, edge-mirrored float filtering of planes (libvmaf's vif_filter1d_*
// and convolution_f32_*: a vertical pass into a row, then a horizontal pass;
// each output is a float sum over the taps in order, starting from 0, without
// fused multiply-adds). libvmaf's AVX2 convolution and its scalar fallback
// compute the same sums, so every output here is bit-identical to either.
// Shared by float_vif, float_motion and SpEED.
#pragma once

#include <cstddef>
#include <vector>

#include "feature/common/float_vif_kernel.h"

namespace vmaf::float_vif {

// A read-only float plane.
struct PlaneView {
    const float *data;
    int w, h;
    std::ptrdiff_t stride;  // in floats
    const float *row(int y) const { return data + std::ptrdiff_t(y) * stride; }
};

// What the vertical pass filters: the samples, their squares, or the product
// of two planes' samples.
enum class Term { Plain, Square, Product };

// Vertical pass of output row `y`: out[x] = sum_k f[k] * t(src[mirror(y - r + k)][x]).
void vertical_pass(const float *f, int taps, Term term, PlaneView a, PlaneView b, int y, float *out);

// Horizontal pass of a row of width w: out[x] = sum_k f[k] * row[mirror(x - r + k)].
void horizontal_pass(const float *f, int taps, const float *row, int w, float *out);

// The filtered value at column x of a row (the horizontal pass at one column).
float horizontal_at(const float *f, int taps, const float *row, int w, int x);

// Filter a whole plane: dst = H(V(src)), dst rows of `dst_stride` floats.
// `row` is scratch of src.w floats.
void filter_plane(const float *f, int taps, PlaneView src, float *dst, std::ptrdiff_t dst_stride, float *row);

// Filter and keep every second row and column (vif_dec2 after the blur):
// dst is (src.w / 2) x (src.h / 2), packed.
void blur_decimate(const Kernel &k, PlaneView src, float *dst, std::vector<float> &row);

}  // namespace vmaf::float_vif
