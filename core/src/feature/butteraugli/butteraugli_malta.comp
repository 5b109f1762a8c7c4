// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli: the weighted differences the Malta filters take
// (butteraugli_kernels_tmpl.h's malta_diff_map, first loop), for the six maps
// at once: uhf Y, uhf X, hf Y, hf X, mf Y, mf X. One invocation per pixel;
// the maps are padded with 4 zeros on every side (written once, at set-up).
// Push: a[0] uhf (4 planes: picture, then X, Y), a[1] the high band (4),
// a[2] the medium band (6: picture, then X, Y, B), b[0] the six padded maps,
// w, h.
#include "butteraugli_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

float diff_of(uint m, float r0, float r1)
{
    precise float absval = 0.5 * (abs(r0) + abs(r1));
    precise float diff = r0 - r1;
    precise float den = k.malta_norm1[m] + absval;
    precise float r = div_once(k.malta_gt[m], den) * diff;
    const float scaler2 = div_once(k.malta_lt[m], den);
    const double fabs0 = double(abs(r0));
    precise double too_small = 0.55lf * fabs0;
    precise double too_big = 1.05lf * fabs0;
    const double d1 = double(r1);
    if (r0 < 0.0) {
        if (d1 > -too_small) {
            precise double impact = double(scaler2) * (d1 + too_small);
            r = float(double(r) - impact);
        } else if (d1 < -too_big) {
            precise double impact = double(scaler2) * (double(-r1) - too_big);
            r = float(double(r) + impact);
        }
    } else {
        if (d1 < too_small) {
            precise double impact = double(scaler2) * (too_small - d1);
            r = float(double(r) + impact);
        } else if (d1 > too_big) {
            precise double impact = double(scaler2) * (d1 - too_big);
            r = float(double(r) - impact);
        }
    }
    return r;
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= p.w || y >= p.h) return;
    const uint n = p.w * p.h, at = y * p.w + x;
    const uint np = (p.w + 8) * (p.h + 8), pat = (y + 4) * (p.w + 8) + x + 4;
    // Map m's input plane c of picture pic: uhf and hf are (pic * 2 + c),
    // mf is (pic * 3 + c).
    const uint base[3] = uint[3](p.a[0], p.a[1], p.a[2]);
    for (uint m = 0; m < 6; m++) {
        const uint band = m / 2, c = 1 - m % 2;
        const uint per = band == 2 ? 3u : 2u;
        const float r0 = work.v[base[band] + c * n + at];
        const float r1 = work.v[base[band] + (per + c) * n + at];
        work.v[p.b[0] + m * np + pat] = diff_of(m, r0, r1);
    }
}
