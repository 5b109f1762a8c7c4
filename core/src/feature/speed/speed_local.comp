// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// The local mean removed from the decimated plane (speed_engine.cpp's
// prepare(): float_vif's filter_plane with the local kernel, then dec -= blur):
// each output the float sum of the taps times the column sums, mirrored at
// the decimated plane's edges, subtracted from the sample. Written to the
// scratch (for the means and covariances) and to the results (collect()'s
// per-block samples). One thread per output.
#include "speed_common.glsl"

layout(local_size_x = kSpeedTile, local_size_y = kSpeedTile) in;

layout(push_constant) uniform Params {
    uint raw_at, dec_at;  // floats in the scratch
    uint dw, dh;
    uint result_at;       // words in the results
} p;

float raw(int y, int x) { return scratch.v[p.raw_at + uint(y) * p.dw + uint(x)]; }

void main()
{
    const uvec2 o = gl_GlobalInvocationID.xy;
    if (o.x >= p.dw || o.y >= p.dh) return;
    const int r = kLocalTaps / 2;
    const int w = int(p.dw), h = int(p.dh);
    precise float acc = 0.0;
    for (int kh = 0; kh < kLocalTaps; kh++) {
        const int x = speed_mirror(int(o.x) - r + kh, w);
        precise float col = 0.0;
        for (int kv = 0; kv < kLocalTaps; kv++) {
            precise float t = speed_local_tap(kv) * raw(speed_mirror(int(o.y) - r + kv, h), x);
            col = col + t;
        }
        precise float t = speed_local_tap(kh) * col;
        acc = acc + t;
    }
    precise float d = raw(int(o.y), int(o.x)) - acc;
    const uint i = o.y * p.dw + o.x;
    scratch.v[p.dec_at + i] = d;
    results.words[p.result_at + i] = floatBitsToUint(d);
}
