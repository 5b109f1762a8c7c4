// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli: opsin dynamics (butteraugli_kernels_tmpl.h's opsin_dynamics):
// linear RGB and its blur to XYB, one invocation per pixel of both pictures.
// Push: a[0] the six linear planes, a[1] their six blurs, b[0] the six XYB
// planes (X, Y, B of the reference, then of the distorted), w, h.
#include "butteraugli_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

float fast_log2(float x)
{
    const uint bits = floatBitsToUint(x);
    const int exp_bits = int(bits - 0x3f2aaaabu);
    const int exp_shifted = exp_bits >> 23;
    const uint mbits = bits - (uint(exp_shifted) << 23);
    precise float m = uintBitsToFloat(mbits) - 1.0;
    float yp = madd(k.log2_p[2], m, k.log2_p[1]);
    float yq = madd(k.log2_q[2], m, k.log2_q[1]);
    yp = madd(yp, m, k.log2_p[0]);
    yq = madd(yq, m, k.log2_q[0]);
    precise float r = div_once(yp, yq) + float(exp_shifted);
    return r;
}

float gamma(float v)
{
    v = v < 0.0 ? 0.0 : v;
    precise float biased = v + k.gamma_bias;
    return madd(k.gamma_mul, fast_log2(biased), k.gamma_add);
}

vec3 absorbance(vec3 i, bool clamped)
{
    vec3 o;
    for (int c = 0; c < 3; c++)
        o[c] = madd(k.mix[4 * c], i.x, madd(k.mix[4 * c + 1], i.y, madd(k.mix[4 * c + 2], i.z, k.mix[4 * c + 3])));
    if (clamped)
        for (int c = 0; c < 3; c++) o[c] = max(o[c], k.mix[4 * c + 3]);
    return o;
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= p.w || y >= p.h) return;
    const uint n = p.w * p.h, at = y * p.w + x;
    for (uint pic = 0; pic < 2; pic++) {
        precise vec3 bl, rgb;
        for (uint c = 0; c < 3; c++) {
            bl[c] = work.v[p.a[1] + (pic * 3 + c) * n + at] * k.intensity_target;
            rgb[c] = work.v[p.a[0] + (pic * 3 + c) * n + at] * k.intensity_target;
        }
        const vec3 pre0 = absorbance(bl, true);
        vec3 sens;
        for (int c = 0; c < 3; c++) {
            const float pre = max(pre0[c], k.min_sensitivity);
            sens[c] = max(div_once(gamma(pre), pre), k.min_sensitivity);
        }
        const vec3 cur0 = absorbance(rgb, false);
        precise vec3 cur;
        for (int c = 0; c < 3; c++) cur[c] = cur0[c] * sens[c];
        cur.x = max(cur.x, k.min_mixed01);
        cur.y = max(cur.y, k.min_mixed01);
        cur.z = max(cur.z, k.min_mixed2);
        precise float xo = cur.x - cur.y;
        precise float yo = cur.x + cur.y;
        work.v[p.b[0] + (pic * 3) * n + at] = xo;
        work.v[p.b[0] + (pic * 3 + 1) * n + at] = yo;
        work.v[p.b[0] + (pic * 3 + 2) * n + at] = cur.z;
    }
}
