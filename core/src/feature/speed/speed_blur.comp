#version 450
// SpEED's anti-aliasing blur at every kSpeedDecimation-th row and column
// (speed_engine.cpp's prepare(): float_vif's vertical_pass at the row, then
// horizontal_at at the column): each output the float sum, from 0 and in tap
// order, of the taps times the column sums, each of those the float sum of
// the taps times the samples, mirrored at the plane's edges. One thread per
// output. speed_temporal's samples are the previous frame's minus this one's.
#include "speed_common.glsl"

layout(local_size_x = kSpeedTile, local_size_y = kSpeedTile) in;

layout(push_constant) uniform Params {
    uint cur;     // samples: this frame's plane in the planes
    uint prev;    // samples: the previous frame's in the history (speed_temporal)
    uint stride;  // samples
    int w, h;     // the plane the CPU filters
    uint dw, dh;  // the decimated plane
    uint out_at;  // floats in the scratch
} p;

float value(int y, int x)
{
    const uint at = uint(y) * p.stride + uint(x);
    if (!kTemporal) return plane_sample(p.cur + at);
    precise float d = history_sample(p.prev + at) - plane_sample(p.cur + at);
    return d;
}

void main()
{
    const uvec2 o = gl_GlobalInvocationID.xy;
    if (o.x >= p.dw || o.y >= p.dh) return;
    const int r = kAaTaps / 2;
    const int cx = int(o.x) * kSpeedDecimation, cy = int(o.y) * kSpeedDecimation;
    precise float acc = 0.0;
    for (int kh = 0; kh < kAaTaps; kh++) {
        const int x = speed_mirror(cx - r + kh, p.w);
        precise float col = 0.0;
        for (int kv = 0; kv < kAaTaps; kv++) {
            precise float t = speed_aa_tap(kv) * value(speed_mirror(cy - r + kv, p.h), x);
            col = col + t;
        }
        precise float t = speed_aa_tap(kh) * col;
        acc = acc + t;
    }
    scratch.v[p.out_at + o.y * p.dw + o.x] = acc;
}
