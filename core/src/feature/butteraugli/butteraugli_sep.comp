// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli: the per-pixel steps of separating the frequency bands
// (butteraugli_kernels_tmpl.h's separate_frequencies) between the blurs, one
// invocation per pixel of both pictures; u0 says which:
//   0, after the lf blur: a[0] XYB (6 planes) -> mf = XYB - lf in place;
//      a[1] lf (6 planes) -> libjxl's vals in place;
//   1, after the mf blur: a[0] mf (6 planes), a[1] its blur (6) -> b[0] hf
//      of X and Y (4 planes: picture, then channel; X suppressed by Y), and
//      a[1] the medium band in place (X, Y range-adjusted; B the blur);
//   2, after the hf blur: a[0] hf (4 planes), a[1] its blur (4) -> uhf in
//      a[0]'s place and the high band in a[1]'s.
#include "butteraugli_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

float remove_range(float w, float x)
{
    precise float a = x - w;
    precise float b = x + w;
    return x > w ? a : (x < -w ? b : 0.0);
}

float amplify_range(float w, float x)
{
    precise float a = x + w;
    precise float b = x - w;
    precise float c = x + x;
    return x > w ? a : (x < -w ? b : c);
}

float maximum_clamp(float v, float maxval)
{
    precise float vm = v - maxval;
    const float if_pos = madd(vm, k.maxclamp_mul, maxval);
    precise float vp = v + maxval;
    const float if_neg = msub(vp, k.maxclamp_mul, maxval);
    const float pos_or_v = v >= maxval ? if_pos : v;
    return v < -maxval ? if_neg : pos_or_v;
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= p.w || y >= p.h) return;
    const uint n = p.w * p.h, at = y * p.w + x;
    for (uint pic = 0; pic < 2; pic++) {
        if (p.u0 == 0u) {
            const uint xyb = p.a[0] + pic * 3 * n + at, lf = p.a[1] + pic * 3 * n + at;
            for (uint c = 0; c < 3; c++) {
                precise float mf = work.v[xyb + c * n] - work.v[lf + c * n];
                work.v[xyb + c * n] = mf;
            }
            const float lx = work.v[lf], ly = work.v[lf + n];
            const float b = madd(k.lf_y_to_b, ly, work.v[lf + 2 * n]);
            precise float vb = b * k.lf_bmul;
            precise float vx = lx * k.lf_xmul;
            precise float vy = ly * k.lf_ymul;
            work.v[lf + 2 * n] = vb;
            work.v[lf] = vx;
            work.v[lf + n] = vy;
        } else if (p.u0 == 1u) {
            const uint mf = p.a[0] + pic * 3 * n + at, mfb = p.a[1] + pic * 3 * n + at;
            precise float hf[2];
            for (uint c = 0; c < 2; c++) {
                const float blurred = work.v[mfb + c * n];
                hf[c] = work.v[mf + c * n] - blurred;
                work.v[mfb + c * n] = c == 0 ? remove_range(k.remove_mf, blurred) : amplify_range(k.add_mf, blurred);
            }
            const float vy = hf[1];
            const float den = madd(vy, vy, k.suppress_yw);
            const float scaler = madd(div_once(k.suppress_yw, den), k.suppress_one_minus_s, k.suppress_s);
            precise float hx = scaler * hf[0];
            work.v[p.b[0] + pic * 2 * n + at] = hx;
            work.v[p.b[0] + (pic * 2 + 1) * n + at] = hf[1];
        } else {
            const uint hf = p.a[0] + pic * 2 * n + at, hfb = p.a[1] + pic * 2 * n + at;
            {
                const float b = work.v[hfb];
                precise float u = work.v[hf] - b;
                work.v[hfb] = remove_range(k.remove_hf, b);
                work.v[hf] = remove_range(k.remove_uhf, u);
            }
            {
                const float v = maximum_clamp(work.v[hfb + n], k.maxclamp_hf);
                precise float u = work.v[hf + n] - v;
                const float uc = maximum_clamp(u, k.maxclamp_uhf);
                precise float uo = uc * k.mul_y_uhf;
                precise float vo = v * k.mul_y_hf;
                work.v[hf + n] = uo;
                work.v[hfb + n] = amplify_range(k.add_hf, vo);
            }
        }
    }
}
