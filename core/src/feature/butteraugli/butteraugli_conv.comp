// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli: one pass of libjxl's Blur() for the kernels longer than 5 taps
// (butteraugli_kernels_tmpl.h's convolve_transpose): each row of plane z
// convolved and written transposed, one invocation per output sample. Columns
// with the whole kernel inside take the kernel scaled by its sum, the taps
// paired from the ends and added in four running sums as libjxl groups them;
// columns within the kernel's radius of an edge take the taps inside, scaled
// by their own sum.
// Push: a[0] the input planes, b[0] the output planes (consecutive, w h
// apart), w, h the input's size, u0 the kernel's first tap in k.taps, u1 its
// length, u2 its scaled half in k.scaled.
#include "butteraugli_common.glsl"

layout(local_size_x = 64, local_size_y = 4) in;

void main()
{
    // x: the output's column (the input's row), y: the output's row.
    const uint iy = gl_GlobalInvocationID.x, ix = gl_GlobalInvocationID.y;
    if (iy >= p.h || ix >= p.w) return;
    const uint n = p.w * p.h, plane = gl_GlobalInvocationID.z * n;
    const uint row = p.a[0] + plane + iy * p.w;
    const uint len = p.u1, offset = len / 2;
    const uint border1 = min(p.w, offset), border2 = p.w > offset ? p.w - offset : 0u;
    float result;
    if (ix >= border1 && ix < border2) {
        const uint r = row + ix - offset;
        precise float acc[4];
        for (uint i = 0; i < offset; i++) {
            precise float s = work.v[r + i] + work.v[r + len - 1 - i];
            precise float t = s * k.scaled[p.u2 + i];
            if (i < 4) acc[i] = t;
            else acc[i % 4] = acc[i % 4] + t;
        }
        precise float sum = work.v[r + offset] * k.scaled[p.u2 + offset];
        for (uint g = 0; g < min(offset, 4u); g++) sum = sum + acc[g];
        result = sum;
    } else {
        const uint minx = ix < offset ? 0u : ix - offset;
        const uint maxx = min(p.w - 1, ix + offset);
        precise float weight = 0.0;
        for (uint j = minx; j <= maxx; j++) weight = weight + k.taps[p.u0 + j + offset - ix];
        const float scale = div_once(1.0, weight);
        precise float sum = 0.0;
        for (uint j = minx; j <= maxx; j++) {
            precise float t = work.v[row + j] * k.taps[p.u0 + j + offset - ix];
            sum = sum + t;
        }
        precise float r = sum * scale;
        result = r;
    }
    work.v[p.b[0] + plane + ix * p.h + iy] = result;
}
