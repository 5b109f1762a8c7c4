// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/common/float_vif_scale.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace vmaf::float_vif {

namespace {

void nearest(PlaneView src, float *dst, int dst_w, int dst_h, std::ptrdiff_t dst_stride)
{
    const float rx = scale_ratio(src.w, dst_w);
    const float ry = scale_ratio(src.h, dst_h);
    for (int y = 0; y < dst_h; y++) {
        const float *s = src.row(nearest_index(y, ry));
        float *d = dst + std::ptrdiff_t(y) * dst_stride;
        for (int x = 0; x < dst_w; x++) d[x] = s[nearest_index(x, rx)];
    }
}

void bilinear(PlaneView src, float *dst, int dst_w, int dst_h, std::ptrdiff_t dst_stride)
{
    const std::size_t n = std::size_t(dst_w);
    std::vector<int> x1(n), x2(n);
    std::vector<float> dxs(n);
    const float rx = scale_ratio(src.w, dst_w);
    for (int x = 0; x < dst_w; x++) {
        const BilinearTap t = bilinear_tap(x, rx, src.w);
        x1[x] = t.i1;
        x2[x] = t.i2;
        dxs[x] = t.d;
    }
    const float ry = scale_ratio(src.h, dst_h);
    for (int y = 0; y < dst_h; y++) {
        const BilinearTap t = bilinear_tap(y, ry, src.h);
        const float dy = t.d;
        const float *r1 = src.row(t.i1), *r2 = src.row(t.i2);
        float *d = dst + std::ptrdiff_t(y) * dst_stride;
        for (int x = 0; x < dst_w; x++) {
            const float dx = dxs[x];
            d[x] = bilinear_mix(dx, dy, r1[x1[x]], r1[x2[x]], r2[x1[x]], r2[x2[x]]);
        }
    }
}

float bicubic_at(PlaneView src, float x, float y)
{
    const AxisTaps<4> ax = bicubic_axis(x, src.w), ay = bicubic_axis(y, src.h);
    float v = 0.0f;
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) v += src.row(ay.index[j])[ax.index[i]] * (ax.weight[i] * ay.weight[j]);
    return v;
}

float lanczos_at(PlaneView src, float x, float y)
{
    constexpr int n = 2 * kLanczosA + 1;
    const AxisTaps<n> ax = lanczos_axis(x, src.w), ay = lanczos_axis(y, src.h);
    float v = 0.0f, wsum = 0.0f;
    for (int iy = 0; iy < n; iy++) {
        for (int ix = 0; ix < n; ix++) {
            const float w = ax.weight[ix] * ay.weight[iy];
            wsum += w;
            v += src.row(ay.index[iy])[ax.index[ix]] * w;
        }
    }
    return v / wsum;
}

template <float (*At)(PlaneView, float, float)>
void interpolate(PlaneView src, float *dst, int dst_w, int dst_h, std::ptrdiff_t dst_stride)
{
    const float rx = scale_ratio(src.w, dst_w);
    const float ry = scale_ratio(src.h, dst_h);
    for (int y = 0; y < dst_h; y++) {
        const float yy = source_coord(y, ry);
        float *d = dst + std::ptrdiff_t(y) * dst_stride;
        for (int x = 0; x < dst_w; x++) d[x] = At(src, source_coord(x, rx), yy);
    }
}

}  // namespace

bool parse_scale_method(std::string_view s, ScaleMethod *out)
{
    if (s == "nearest") *out = ScaleMethod::Nearest;
    else if (s == "bilinear") *out = ScaleMethod::Bilinear;
    else if (s == "bicubic") *out = ScaleMethod::Bicubic;
    else if (s == "lanczos4") *out = ScaleMethod::Lanczos4;
    else return false;
    return true;
}

void scale_plane(ScaleMethod m, PlaneView src, float *dst, int dst_w, int dst_h, std::ptrdiff_t dst_stride)
{
    if (src.w == dst_w && src.h == dst_h) {
        for (int y = 0; y < dst_h; y++)
            std::memcpy(dst + std::ptrdiff_t(y) * dst_stride, src.row(y), sizeof(float) * std::size_t(dst_w));
        return;
    }
    switch (m) {
    case ScaleMethod::Nearest: nearest(src, dst, dst_w, dst_h, dst_stride); break;
    case ScaleMethod::Bilinear: bilinear(src, dst, dst_w, dst_h, dst_stride); break;
    case ScaleMethod::Bicubic: interpolate<bicubic_at>(src, dst, dst_w, dst_h, dst_stride); break;
    case ScaleMethod::Lanczos4: interpolate<lanczos_at>(src, dst, dst_w, dst_h, dst_stride); break;
    }
}

}  // namespace vmaf::float_vif
