// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: the 2x2 box average of the six linear planes (gl_WorkGroupID.z)
// of the previous scale (`src`, in_w x in_h) into this one (`dst`, w x h),
// the last row and column repeated where the size is odd.
#include "ssimulacra2_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, set = 0, binding = 1) restrict readonly buffer Src { float v[]; } src;
layout(std430, set = 0, binding = 2) restrict writeonly buffer Dst { float v[]; } dst;

void main()
{
    const uint ox = gl_GlobalInvocationID.x, oy = gl_GlobalInvocationID.y, c = gl_WorkGroupID.z;
    if (ox >= p.w || oy >= p.h) return;
    precise float sum = 0.0;
    for (uint iy = 0; iy < 2; iy++)
        for (uint ix = 0; ix < 2; ix++) {
            const uint x = min(ox * 2 + ix, p.in_w - 1), y = min(oy * 2 + iy, p.in_h - 1);
            sum += src.v[c * p.plane + y * p.in_w + x];
        }
    precise float r = sum * 0.25;
    dst.v[c * p.plane + oy * p.w + ox] = r;
}
