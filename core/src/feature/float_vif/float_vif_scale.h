// Resampling of a float plane to another size (libvmaf's vif_scale_frame_s):
// float_vif's vif_prescale and float_motion's half-size second scale. Same size
// in and out is a plain copy.
#pragma once

#include <cmath>
#include <cstddef>
#include <string_view>

#include "feature/float_vif/float_vif_filter.h"

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

enum class ScaleMethod { Nearest, Bilinear, Bicubic, Lanczos4 };

// "nearest", "bilinear", "bicubic", "lanczos4"; false for anything else.
bool parse_scale_method(std::string_view s, ScaleMethod *out);

// Write src resampled to dst_w x dst_h into dst (rows of dst_stride floats).
// Bilinear needs dst_w <= kBilinearMaxWidth.
void scale_plane(ScaleMethod m, PlaneView src, float *dst, int dst_w, int dst_h, std::ptrdiff_t dst_stride);

}  // namespace vmaf::float_vif
