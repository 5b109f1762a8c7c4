// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli, first step: both pictures to linear RGB at full size (as
// feature/common/srgb.h's rgb_row and srgb_tmpl.h's srgb_to_linear), and their
// 2x2 subsamples (the comparator's SubSample2x: 0.25 times each sample added
// in row order, the last column and then the last row doubled at odd sizes).
// An invocation takes one 2x2 block: its pixels of both resolutions.
// Push: a[0..5] the planes' first words (Y, U, V of the reference, then of the
// distorted), b[0] the full size's six RGB planes, b[1] the subsample's, w, h
// the full size, u0 and u1 the luma and chroma strides (words), u2 whether the
// subsample is computed (at least 8x8).
#include "butteraugli_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 2) restrict readonly buffer Planes { uint words[]; } planes;

#include "feature/common/srgb.glsl"

// Picture pic's pixel (x, y) of the full size in linear RGB.
vec3 linear_rgb(uint pic, uint x, uint y)
{
    const uint o = pic * 3;
    return linear_rgb(uvec3(p.a[o], p.a[o + 1], p.a[o + 2]), p.u0, p.u1, x, y);
}

void main()
{
    const uint sw = (p.w + 1) / 2, sh = (p.h + 1) / 2;
    const uint x1 = gl_GlobalInvocationID.x, y1 = gl_GlobalInvocationID.y;
    if (x1 >= sw || y1 >= sh) return;
    const uint n0 = p.w * p.h, n1 = sw * sh;
    for (uint pic = 0; pic < 2; pic++) {
        precise vec3 sum = vec3(0.0);
        for (uint dy = 0; dy < 2; dy++)
            for (uint dx = 0; dx < 2; dx++) {
                const uint x = 2 * x1 + dx, y = 2 * y1 + dy;
                if (x >= p.w || y >= p.h) continue;
                const vec3 c = linear_rgb(pic, x, y);
                for (uint ch = 0; ch < 3; ch++) {
                    work.v[p.b[0] + (pic * 3 + ch) * n0 + y * p.w + x] = c[ch];
                    precise float q = 0.25 * c[ch];
                    sum[ch] = sum[ch] + q;
                }
            }
        if (p.u2 == 0u) continue;
        for (uint ch = 0; ch < 3; ch++) {
            precise float v = sum[ch];
            if ((p.w & 1u) != 0u && x1 == sw - 1) v = v * 2.0;
            if ((p.h & 1u) != 0u && y1 == sh - 1) v = v * 2.0;
            work.v[p.b[1] + (pic * 3 + ch) * n1 + y1 * sw + x1] = v;
        }
    }
}
