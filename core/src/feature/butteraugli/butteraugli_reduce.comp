// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli: the scores' sums, one invocation per row of the full size:
// the full map weighted against the subsample's (the comparator's
// AddSupersampled2x), then the row's maximum, its sums of d^3, d^6 and d^12
// in u0 lanes of doubles, and those powers of the columns past the last whole
// lane group one by one, for the host to add in butteraugli_cpu.cpp's
// three_norm() order.
// Push: a[0] the full map, a[1] the subsample's (w + 1) / 2 wide, w, h the
// full size, u0 the lanes (4 or 2), u1 whether there is a subsample, u2 the
// first double of this frame's results (22 a row: the maximum, 3 x 4 lane
// sums, up to 3 x 3 powers).
#include "butteraugli_common.glsl"

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 2) restrict writeonly buffer Results { double r[]; } results;

float value_at(uint x, uint y)
{
    float v = work.v[p.a[0] + y * p.w + x];
    if (p.u1 != 0u) {
        const uint sw = (p.w + 1) / 2;
        precise float scaled = float(double(v) * k.sub_scale);
        precise float added = scaled + k.sub_weight * work.v[p.a[1] + (y / 2) * sw + x / 2];
        v = added;
    }
    return v;
}

void main()
{
    const uint y = gl_GlobalInvocationID.x;
    if (y >= p.h) return;
    const uint lanes = p.u0;
    float maxv = 0.0;
    precise double sums[3][4];
    for (uint i = 0; i < 3; i++)
        for (uint l = 0; l < 4; l++) sums[i][l] = 0.0lf;
    uint x = 0;
    for (; x + lanes <= p.w; x += lanes)
        for (uint l = 0; l < lanes; l++) {
            const float v = value_at(x + l, y);
            maxv = max(maxv, v);
            const double d1 = double(v);
            precise double d2 = d1 * (d1 * d1);
            sums[0][l] = sums[0][l] + d2;
            precise double d3 = d2 * d2;
            sums[1][l] = sums[1][l] + d3;
            precise double d4 = d3 * d3;
            sums[2][l] = sums[2][l] + d4;
        }
    const uint out0 = p.u2 + y * 22;
    for (uint i = 0; i < 3; i++)
        for (uint l = 0; l < 4; l++) results.r[out0 + 1 + i * 4 + l] = sums[i][l];
    for (uint t = 0; t < 3; t++) {
        double pw[3] = double[3](0.0lf, 0.0lf, 0.0lf);
        if (x < p.w) {
            const float v = value_at(x, y);
            maxv = max(maxv, v);
            const double d1 = double(v);
            precise double d2 = d1 * d1 * d1;
            precise double d3 = d2 * d2;
            precise double d4 = d3 * d3;
            pw = double[3](d2, d3, d4);
            x++;
        }
        for (uint i = 0; i < 3; i++) results.r[out0 + 13 + t * 3 + i] = pw[i];
    }
    results.r[out0] = double(maxv);
}
