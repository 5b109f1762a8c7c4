#include "feature/float_vif/float_vif_scale.h"

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

inline float bicubic_weight(float t)
{
    const float a = kBicubicA;
    if (t < 0) t = -t;
    if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

float bicubic_at(PlaneView src, float x, float y)
{
    const int x0 = int(std::floor(double(x)));
    const int y0 = int(std::floor(double(y)));
    const float dx = x - float(x0);
    const float dy = y - float(y0);
    float wx[4], wy[4];
    for (int i = -1; i <= 2; i++) {
        wx[i + 1] = bicubic_weight(float(i) - dx);
        wy[i + 1] = bicubic_weight(float(i) - dy);
    }
    float v = 0.0f;
    for (int j = -1; j <= 2; j++) {
        for (int i = -1; i <= 2; i++) {
            const int xi = mirror_index(float(x0 + i), src.w);
            const int yi = mirror_index(float(y0 + j), src.h);
            v += src.row(yi)[xi] * (wx[i + 1] * wy[j + 1]);
        }
    }
    return v;
}

inline float lanczos_weight(float x, float a)
{
    if (x == 0.0f) return 1.0f;
    if (x > -a && x < a)
        return float(double(a) * std::sin(M_PI * double(x)) * std::sin(M_PI * double(x) / double(a)) /
                     (M_PI * M_PI * double(x) * double(x)));
    return 0.0f;
}

float lanczos_at(PlaneView src, float x, float y)
{
    constexpr int a = kLanczosA;
    const int x0 = int(std::floor(double(x)));
    const int y0 = int(std::floor(double(y)));
    const float dx = x - float(x0);
    const float dy = y - float(y0);
    float wx[2 * a + 1], wy[2 * a + 1];
    for (int i = -a; i <= a; i++) {
        wx[i + a] = lanczos_weight(float(i) - dx, float(a));
        wy[i + a] = lanczos_weight(float(i) - dy, float(a));
    }
    float v = 0.0f, wsum = 0.0f;
    for (int iy = -a; iy <= a; iy++) {
        for (int ix = -a; ix <= a; ix++) {
            const float w = wx[ix + a] * wy[iy + a];
            wsum += w;
            const int xi = mirror_index(float(x0 + ix), src.w);
            const int yi = mirror_index(float(y0 + iy), src.h);
            v += src.row(yi)[xi] * w;
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
