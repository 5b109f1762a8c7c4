// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli: the scores' sums, one invocation per row of the full size and
// lane: the full map weighted against the subsample's (the comparator's
// AddSupersampled2x), then the largest value of the lane's columns (x = lane
// modulo the lanes) and its sums of d^3, d^6 and d^12, and (lane 0) those
// powers of the columns past the last whole lane group one by one, for the
// host to add in butteraugli_cpu.cpp's three_norm() order.
// Push: a[0] the full map, a[1] the subsample's (w + 1) / 2 wide, w, h the
// full size, u0 the lanes (4 or 2), u1 whether there is a subsample, u2 the
// first double of this frame's results (kRowDoubles a row: the lanes' maxima
// (4), their sums (3 x 4), the powers of up to 3 columns past them (3 x 3)).
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
    const uint lanes = p.u0;
    const uint y = gl_GlobalInvocationID.x / lanes, l = gl_GlobalInvocationID.x % lanes;
    if (y >= p.h) return;
    const uint groups = p.w / lanes;
    float maxv = 0.0;
    precise double s0 = 0.0lf, s1 = 0.0lf, s2 = 0.0lf;
    for (uint g = 0; g < groups; g++) {
        const float v = value_at(g * lanes + l, y);
        maxv = max(maxv, v);
        const double d1 = double(v);
        precise double d2 = d1 * (d1 * d1);
        s0 = s0 + d2;
        precise double d3 = d2 * d2;
        s1 = s1 + d3;
        precise double d4 = d3 * d3;
        s2 = s2 + d4;
    }
    const uint out0 = p.u2 + y * 25;
    results.r[out0 + 4 + l] = s0;
    results.r[out0 + 8 + l] = s1;
    results.r[out0 + 12 + l] = s2;
    if (l == 0) {
        for (uint t = 0; t < 3; t++) {
            const uint x = groups * lanes + t;
            double pw[3] = double[3](0.0lf, 0.0lf, 0.0lf);
            if (x < p.w) {
                const float v = value_at(x, y);
                maxv = max(maxv, v);
                const double d1 = double(v);
                precise double d2 = d1 * d1 * d1;
                precise double d3 = d2 * d2;
                precise double d4 = d3 * d3;
                pw = double[3](d2, d3, d4);
            }
            for (uint i = 0; i < 3; i++) results.r[out0 + 16 + t * 3 + i] = pw[i];
        }
    }
    results.r[out0 + l] = double(maxv);
}
