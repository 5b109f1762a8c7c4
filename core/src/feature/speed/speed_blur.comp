// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// SpEED's anti-aliasing blur at every kSpeedDecimation-th row and column
// (speed_engine.cpp's prepare(): float_vif's vertical_pass at the row, then
// horizontal_at at the column): each output the float sum, from 0 and in tap
// order, of the taps times the column sums, each of those the float sum of
// the taps times the samples, mirrored at the plane's edges; with
// speed_prescale, of the resampled plane, each sample computed where it is
// needed. One thread per output. speed_temporal's samples are the previous
// frame's minus this one's (resampled after the subtraction, as on the CPU).
#include "speed_common.glsl"
#include "feature/common/ssim_round.glsl"

layout(local_size_x = kSpeedTile, local_size_y = kSpeedTile) in;

layout(push_constant) uniform Params {
    uint cur;     // samples: this frame's plane in the planes
    uint prev;    // samples: the previous frame's in the history (speed_temporal)
    uint stride;  // samples
    int w, h;     // the plane the CPU filters (after speed_prescale)
    uint dw, dh;  // the decimated plane
    uint out_at;  // floats in the scratch
    uint rows_at; // speed_prescale: the rows' entries in the tables
} p;

float value(int y, int x)
{
    const uint at = uint(y) * p.stride + uint(x);
    if (!kTemporal) return plane_sample(p.cur + at);
    precise float d = history_sample(p.prev + at) - plane_sample(p.cur + at);
    return d;
}

// The filtered plane's sample: speed_prescale's nearest input, its bilinear
// mix of four (float_vif_scale.h's bilinear_mix, left to right), or the
// bicubic (4 x 4) or lanczos4 (9 x 9, divided by the weights' sum, correctly
// rounded) sum over rows, then columns, of sample * (weight_x * weight_y).
float scaled(int y, int x)
{
    if (kResample == 0u) return value(y, x);
    if (kResample >= 3u) {
        const uint k = kResample == 3u ? 4u : 9u, stride = 2u * k;
        const uint cx = stride * uint(x), ry = stride * (p.rows_at + uint(y));
        precise float v = 0.0, wsum = 0.0;
        for (uint j = 0u; j < k; j++) {
            const int yi = int(resampling.words[ry + j]);
            const float wy = uintBitsToFloat(resampling.words[ry + k + j]);
            for (uint i = 0u; i < k; i++) {
                const float wx = uintBitsToFloat(resampling.words[cx + k + i]);
                precise float w = wx * wy;
                precise float t = value(yi, int(resampling.words[cx + i])) * w;
                v = v + t;
                wsum = wsum + w;
            }
        }
        if (kResample == 3u) return v;
        return div_rn_from(v, wsum, v / wsum);
    }
    const uint cx = 3u * uint(x), ry = 3u * (p.rows_at + uint(y));
    if (kResample == 1u) return value(int(resampling.words[ry]), int(resampling.words[cx]));
    const int x1 = int(resampling.words[cx]), x2 = int(resampling.words[cx + 1u]);
    const int y1 = int(resampling.words[ry]), y2 = int(resampling.words[ry + 1u]);
    const float dx = uintBitsToFloat(resampling.words[cx + 2u]), dy = uintBitsToFloat(resampling.words[ry + 2u]);
    precise float ex = 1.0 - dx, ey = 1.0 - dy;
    precise float w1 = ey * ex, w2 = ey * dx, w3 = dy * ex, w4 = dy * dx;
    precise float t1 = w1 * value(y1, x1), t2 = w2 * value(y1, x2), t3 = w3 * value(y2, x1), t4 = w4 * value(y2, x2);
    precise float v = ((t1 + t2) + t3) + t4;
    return v;
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
            precise float t = speed_aa_tap(kv) * scaled(speed_mirror(cy - r + kv, p.h), x);
            col = col + t;
        }
        precise float t = speed_aa_tap(kh) * col;
        acc = acc + t;
    }
    scratch.v[p.out_at + o.y * p.dw + o.x] = acc;
}
