// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// MS-SSIM's step to the next scale (ssim_kernel.h's lpf_point): the 9x9
// low-pass filter at every second sample of every second row, rows outer,
// columns inner, float products added in double, mirrored at the edges. A
// 16 x 16 tile of outputs of both pictures per workgroup, from a shared tile of
// the (already mirrored) inputs; one thread per output.
#include "ssim_common.glsl"

const int kT = kSsimPointTile;
const int kHalf = kSsimLpf / 2;
const int kIn = 2 * kT + kSsimLpf - 2;  // input rows and columns of a tile: 39

layout(local_size_x = kT, local_size_y = kT) in;

layout(push_constant) uniform Params {
    uint in_ref, in_dist, in_stride;  // samples (raw) or floats (scratch)
    int width, height;                // the input's
    uint out_ref, out_dist;           // floats in the written scratch pair
    uint out_w, out_h;
} p;

shared float tile_ref[kIn * kIn], tile_dist[kIn * kIn];

void main()
{
    const ivec2 out0 = ivec2(gl_WorkGroupID.xy) * kT;
    const ivec2 in0 = 2 * out0 - kHalf;
    const uint tid = gl_LocalInvocationIndex;
    for (uint i = tid; i < uint(kIn * kIn); i += uint(kT * kT)) {
        const int r = int(i) / kIn, c = int(i) - r * kIn;
        // Positions past the last output's window only feed outputs that are
        // not written: clamped into the plane.
        const int y = clamp(ssim_mirror(in0.y + r, p.height), 0, p.height - 1);
        const int x = clamp(ssim_mirror(in0.x + c, p.width), 0, p.width - 1);
        const uint at = uint(y) * p.in_stride + uint(x);
        tile_ref[i] = load_sample(p.in_ref + at);
        tile_dist[i] = load_sample(p.in_dist + at);
    }
    barrier();

    const uvec2 o = gl_GlobalInvocationID.xy;
    if (o.x >= p.out_w || o.y >= p.out_h) return;
    const int base = 2 * int(gl_LocalInvocationID.y) * kIn + 2 * int(gl_LocalInvocationID.x);
    precise double sr = 0.0, sd = 0.0;
    for (int v = 0; v < kSsimLpf; v++)
        for (int t = 0; t < kSsimLpf; t++) {
            const float tap = uintBitsToFloat(kSsimLowPassBits[v * kSsimLpf + t]);
            precise float pr = tile_ref[base + v * kIn + t] * tap;
            precise float pd = tile_dist[base + v * kIn + t] * tap;
            sr += double(pr);
            sd += double(pd);
        }
    scratch_out.v[p.out_ref + o.y * p.out_w + o.x] = to_float(sr);
    scratch_out.v[p.out_dist + o.y * p.out_w + o.x] = to_float(sd);
}
