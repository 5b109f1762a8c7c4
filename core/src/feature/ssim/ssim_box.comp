// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// float_ssim's downscaling (ssim_engine.cpp's box_decimate): each output is the
// factor x factor box of 1 / factor^2 taps at (x factor, y factor), rows outer,
// columns inner, float products added in double, mirrored at the edges. One
// thread per output sample of both pictures; the inputs are the raw planes.
#include "ssim_common.glsl"

layout(local_size_x = kSsimPointTile, local_size_y = kSsimPointTile) in;

layout(push_constant) uniform Params {
    uint in_ref, in_dist, in_stride;  // samples
    int width, height;                // the input's
    uint out_ref, out_dist;           // floats in the written scratch pair
    uint out_w, out_h;
    int factor;
    uint tap_bits;                    // the float 1 / factor^2
} p;

void main()
{
    const uvec2 o = gl_GlobalInvocationID.xy;
    if (o.x >= p.out_w || o.y >= p.out_h) return;
    const float tap = uintBitsToFloat(p.tap_bits);
    const int c = p.factor / 2, end = c - ((p.factor & 1) != 0 ? 0 : 1);
    const int x = int(o.x) * p.factor, y = int(o.y) * p.factor;
    precise double sr = 0.0, sd = 0.0;
    for (int v = -c; v <= end; v++) {
        const uint row = uint(ssim_mirror(y + v, p.height)) * p.in_stride;
        for (int u = -c; u <= end; u++) {
            const uint col = uint(ssim_mirror(x + u, p.width));
            precise float pr = load_sample(p.in_ref + row + col) * tap;
            precise float pd = load_sample(p.in_dist + row + col) * tap;
            sr += double(pr);
            sd += double(pd);
        }
    }
    scratch_out.v[p.out_ref + o.y * p.out_w + o.x] = to_float(sr);
    scratch_out.v[p.out_dist + o.y * p.out_w + o.x] = to_float(sd);
}
