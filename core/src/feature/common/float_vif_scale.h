// SPDX-License-Identifier: BSD-2-Clause-Patent
// Resampling of a float plane to another size (libvmaf's vif_scale_frame_s):
// float_vif's vif_prescale and float_motion's half-size second scale. Same size
// in and out is a plain copy.
#pragma once

#include <cmath>
#include <cstddef>
#include <string_view>

#include "feature/common/float_vif_filter.h"

namespace vmaf::float_vif {

// Mirror a float coordinate into [left, right] (libvmaf does this in float and
// then truncates to an index).
inline float mirror_f(float i, float left, float right)
{
    return i < left ? -i : (i > right ? 2 * right - i : i);
}

inline int mirror_index(float i, int n)
{
    return int(mirror_f(i, 0.0f, float(n - 1)));
}

// The source coordinate of output sample `d` with a float step ratio, computed
// in double and rounded to float.
inline float source_coord(int d, float ratio)
{
    return float((d + 0.5) * double(ratio) - 0.5);
}

// The step from output to input samples of a dimension resized from `from`
// to `to` samples.
inline float scale_ratio(int from, int to)
{
    return float(from) / float(to);
}

// Nearest: the input sample of output sample `d`.
inline int nearest_index(int d, float ratio)
{
    return int(float(d) * ratio);
}

// Bilinear: output sample `d` mixes input samples i1 and i2 (mirrored into
// [0, n)) with weight `d` on i2 (the rows' and columns' tables of bilinear()).
struct BilinearTap {
    int i1, i2;
    float d;
};
inline BilinearTap bilinear_tap(int d, float ratio, int n)
{
    const float c = source_coord(d, ratio);
    BilinearTap t;
    t.i1 = mirror_index(float(std::floor(double(c))), n);
    t.i2 = mirror_index(float(std::ceil(double(c))), n);
    t.d = c - float(t.i1);
    return t;
}

// One bilinear output from its four inputs (a, b in the first row, c, d in
// the second) and weights dx, dy: four float products summed left to right.
inline float bilinear_mix(float dx, float dy, float a, float b, float c, float d)
{
    return (1 - dy) * (1 - dx) * a + (1 - dy) * dx * b + dy * (1 - dx) * c + dy * dx * d;
}

inline float bicubic_weight(float t)
{
    const float a = kBicubicA;
    if (t < 0) t = -t;
    if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

inline float lanczos_weight(float x, float a)
{
    if (x == 0.0f) return 1.0f;
    if (x > -a && x < a)
        return float(double(a) * std::sin(M_PI * double(x)) * std::sin(M_PI * double(x) / double(a)) /
                     (M_PI * M_PI * double(x) * double(x)));
    return 0.0f;
}

// Bicubic and lanczos4: the K input samples (mirrored into [0, n)) and their
// weights along one axis for the source coordinate c. An output is the float
// sum over rows j, then columns i, of sample * (weight_x[i] * weight_y[j])
// (lanczos4: divided by the sum of the weights, see lanczos_at).
template <int K>
struct AxisTaps {
    int index[K];
    float weight[K];
};

inline AxisTaps<4> bicubic_axis(float c, int n)
{
    const int c0 = int(std::floor(double(c)));
    const float d = c - float(c0);
    AxisTaps<4> t;
    for (int i = -1; i <= 2; i++) {
        t.weight[i + 1] = bicubic_weight(float(i) - d);
        t.index[i + 1] = mirror_index(float(c0 + i), n);
    }
    return t;
}

inline AxisTaps<2 * kLanczosA + 1> lanczos_axis(float c, int n)
{
    constexpr int a = kLanczosA;
    const int c0 = int(std::floor(double(c)));
    const float d = c - float(c0);
    AxisTaps<2 * a + 1> t;
    for (int i = -a; i <= a; i++) {
        t.weight[i + a] = lanczos_weight(float(i) - d, float(a));
        t.index[i + a] = mirror_index(float(c0 + i), n);
    }
    return t;
}

enum class ScaleMethod { Nearest, Bilinear, Bicubic, Lanczos4 };

// "nearest", "bilinear", "bicubic", "lanczos4"; false for anything else.
bool parse_scale_method(std::string_view s, ScaleMethod *out);

// Write src resampled to dst_w x dst_h into dst (rows of dst_stride floats).
// Bilinear needs dst_w <= kBilinearMaxWidth.
void scale_plane(ScaleMethod m, PlaneView src, float *dst, int dst_w, int dst_h, std::ptrdiff_t dst_stride);

}  // namespace vmaf::float_vif
