// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: linear RGB -> positive XYB for each pixel of both pictures,
// and the products the blur takes, at the scales after the first
// (ssimulacra2_xyb.glsl; ssimulacra2_rgb.comp does it for the full size).
#include "ssimulacra2_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, set = 0, binding = 1) restrict readonly buffer Lin { float v[]; } lin;
layout(std430, set = 0, binding = 2) restrict writeonly buffer Work { float v[]; } work;

#include "ssimulacra2_xyb.glsl"

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= p.w || y >= p.h) return;
    const uint i = y * p.w + x;
    const vec3 r = vec3(lin.v[i], lin.v[i + p.plane], lin.v[i + 2 * p.plane]);
    const vec3 d = vec3(lin.v[i + 3 * p.plane], lin.v[i + 4 * p.plane], lin.v[i + 5 * p.plane]);
    vec3 a, b;
    to_xyb(r, a);
    to_xyb(d, b);
    store_xyb(i, a, b);
}
