// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: linear RGB -> positive XYB for each pixel of both pictures
// (libjxl's ToXYB and MakePositiveXYB, as ssimulacra2_kernels_tmpl.h's
// to_xyb), and the products the blur takes. Writes 15 planes to `work`:
// XYB of the reference, XYB of the distorted, then per channel ref * ref,
// dist * dist, ref * dist (each three planes).
#include "ssimulacra2_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, set = 0, binding = 1) restrict readonly buffer Lin { float v[]; } lin;
layout(std430, set = 0, binding = 2) restrict writeonly buffer Work { float v[]; } work;

// cbrt(x) + add for x >= 0, libjxl's CubeRootAndAdd.
float cube_root_add(float x, float add)
{
    precise float x3 = k.k13 * x;
    const int bits = floatBitsToInt(x);
    const int estimate = k.cbrt_exp_bias - (bits >> 23) * k.cbrt_exp_mul;
    precise float r = intBitsToFloat(bits == 0 ? 0 : estimate);
    for (int i = 0; i < 3; i++) {
        precise float r2 = r * r;
        precise float r4 = r2 * r2;
        precise float kr = k.k43 * r;
        r = madd(-x3, r4, kr);
    }
    precise float r2 = r * r;
    precise float r4 = r2 * r2;
    r = madd(k.k13, madd(-x, r4, r), r);
    r2 = r * r;
    precise float out_ = madd(r2, x, add);
    return out_;
}

void to_xyb(vec3 rgb, out vec3 xyb)
{
    precise float c[3];
    for (int j = 0; j < 3; j++) {
        precise float mixed = madd(k.opsin[j * 3], rgb.x,
                                   madd(k.opsin[j * 3 + 1], rgb.y, madd(k.opsin[j * 3 + 2], rgb.z, k.opsin_bias)));
        if (floatBitsToInt(mixed) < 0) mixed = 0.0;  // -0 too, as libjxl
        c[j] = cube_root_add(mixed, k.neg_bias_cbrt);
    }
    precise float xv = 0.5 * (c[0] - c[1]);
    precise float yv = 0.5 * (c[0] + c[1]);
    precise float bo = (c[2] - yv) + k.b_offset;
    precise float xs = xv * k.x_scale;
    precise float xo = xs + k.x_offset;
    precise float yo = yv + k.y_offset;
    xyb = vec3(xo, yo, bo);
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= p.w || y >= p.h) return;
    const uint i = y * p.w + x, l = i;
    const vec3 r = vec3(lin.v[l], lin.v[l + p.plane], lin.v[l + 2 * p.plane]);
    const vec3 d = vec3(lin.v[l + 3 * p.plane], lin.v[l + 4 * p.plane], lin.v[l + 5 * p.plane]);
    vec3 a, b;
    to_xyb(r, a);
    to_xyb(d, b);
    const uint P = scratch_plane(), o = i;
    for (uint c = 0; c < 3; c++) {
        precise float aa = a[c] * a[c], bb = b[c] * b[c], ab = a[c] * b[c];
        work.v[o + c * P] = a[c];
        work.v[o + (3 + c) * P] = b[c];
        work.v[o + (6 + c) * P] = aa;
        work.v[o + (9 + c) * P] = bb;
        work.v[o + (12 + c) * P] = ab;
    }
}
