// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli: the 5-tap blur of opsin dynamics (butteraugli_kernels_tmpl.h's
// blur5: libjxl's Separable5, mirrored at the edges), one invocation per
// output pixel of plane z. Columns before u0 take the vector code's order of
// operations, the others the scalar code's.
// Push: a[0] the input planes, b[0] the output planes (consecutive, w h
// apart), w, h, u0 the end of the vector code's columns.
#include "butteraugli_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

void main()
{
    const int w = int(p.w), h = int(p.h);
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= w || y >= h) return;
    const uint plane = gl_GlobalInvocationID.z * p.w * p.h;
    const uint in0 = p.a[0] + plane;
    uint r[5];
    for (int d = -2; d <= 2; d++) r[d + 2] = in0 + uint(mirror(y + d, h) * w);
    if (uint(x) < p.u0) {
        const uint xl1 = uint(mirror(x - 1, w)), xr1 = uint(mirror(x + 1, w));
        const uint xl2 = uint(mirror(x - 2, w)), xr2 = uint(mirror(x + 2, w));
        float hz[5];
        for (int i = 0; i < 5; i++) {
            precise float mul0 = work.v[r[i] + x] * k.w5[0];
            precise float s1 = work.v[r[i] + xl1] + work.v[r[i] + xr1];
            const float mul1 = madd(s1, k.w5[1], mul0);
            precise float s2 = work.v[r[i] + xl2] + work.v[r[i] + xr2];
            hz[i] = madd(s2, k.w5[2], mul1);
        }
        precise float conv0 = hz[2] * k.w5[0];
        precise float t1 = hz[1] + hz[3];
        const float conv1 = madd(t1, k.w5[1], conv0);
        precise float t2 = hz[0] + hz[4];
        work.v[p.b[0] + plane + uint(y * w + x)] = madd(t2, k.w5[2], conv1);
        return;
    }
    precise float mul = 0.0;
    for (int dy = -2; dy <= 2; dy++) {
        const float wy = k.w5[abs(dy)];
        for (int dx = -2; dx <= 2; dx++) {
            const float wx = k.w5[abs(dx)];
            precise float t = work.v[r[dy + 2] + uint(mirror(x + dx, w))] * wx;
            precise float t2 = t * wy;
            mul = mul + t2;
        }
    }
    work.v[p.b[0] + plane + uint(y * w + x)] = mul;
}
