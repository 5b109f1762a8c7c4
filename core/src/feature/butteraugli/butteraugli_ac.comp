// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli: per pixel, the differences of the bands (butteraugli_kernels_tmpl.h's
// Comparator::level, up to the masks' blur): each channel's Malta sums in the
// CPU's order of maps, then its asymmetric L2 difference of the high band and
// its L2 difference of the medium band (ac), the low band's L2 difference
// (dc); and both pictures' masks before their blur (combine_channels_for_masking,
// then diff_precompute).
// Push: a[0] the six padded Malta maps, a[1] uhf (4 planes), a[2] the high
// band (4), a[3] the medium band (6), a[4] the low band's vals (6), b[0] ac
// (3 planes), b[1] dc (3), b[2] the two masks, w, h.
#include "butteraugli_common.glsl"
// The map's value (dy, dx) from the centre word `at`, row stride xs, for the
// generated malta_unit_hf() and malta_unit_lf().
#define L(dy, dx) work.v[uint(int(at) + (dy) * xs + (dx))]
#define BUTTERAUGLI_MALTA_UNITS
#include "butteraugli_tables.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

float malta_unit(bool lf, uint at, int xs)
{
    return lf ? malta_unit_lf(at, xs) : malta_unit_hf(at, xs);
}

float mask_of(uint pic, uint n, uint at)
{
    const float hx = work.v[p.a[2] + pic * 2 * n + at], hy = work.v[p.a[2] + (pic * 2 + 1) * n + at];
    const float ux = work.v[p.a[1] + pic * 2 * n + at], uy = work.v[p.a[1] + (pic * 2 + 1) * n + at];
    precise float xdiff = (ux + hx) * k.masking_muls0;
    precise float ydiff = uy * k.masking_muls1 + hy * k.masking_muls2;
    precise float sq = xdiff * xdiff + ydiff * ydiff;
    const float m = sqrt_once(sq);
    precise float pre = k.mask_mul * abs(m) + k.mask_bias;
    precise float r = sqrt_once(pre) - k.mask_sqrt_bias;
    return r;
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= p.w || y >= p.h) return;
    const uint n = p.w * p.h, at = y * p.w + x;
    const int xs = int(p.w + 8);
    const uint np = (p.w + 8) * (p.h + 8), pat = p.a[0] + (y + 4) * (p.w + 8) + x + 4;
    // Maps 0, 2, 4 add to Y's ac, 1, 3, 5 to X's; 0 and 1 are of the
    // high-frequency filter.
    precise float ac[3];
    ac[2] = 0.0;
    for (uint c = 0; c < 2; c++) {
        precise float a = 0.0;
        for (uint band = 0; band < 3; band++) {
            const uint m = band * 2 + (1 - c);
            a = a + malta_unit(band != 0u, pat + m * np, xs);
        }
        ac[c] = a;
    }
    for (uint c = 0; c < 3; c++) {
        if (c < 2) {
            const float val0 = work.v[p.a[2] + c * n + at], val1 = work.v[p.a[2] + (2 + c) * n + at];
            precise float diff = val0 - val1;
            precise float d2 = diff * diff;
            float total = madd(d2, k.asym_gt[c], ac[c]);
            const float fabs0 = abs(val0);
            precise float too_small = k.k04 * fabs0;
            const float too_big = fabs0;
            precise float n1 = val1 + too_small;
            precise float n2 = -val1 - too_big;
            precise float p1 = too_small - val1;
            precise float p2 = val1 - too_big;
            const float if_neg = val1 > -too_small ? n1 : (val1 < -too_big ? n2 : 0.0);
            const float if_pos = val1 < too_small ? p1 : (val1 > too_big ? p2 : 0.0);
            const float v = val0 < 0.0 ? if_neg : if_pos;
            precise float v2 = v * v;
            ac[c] = madd(k.asym_lt[c], v2, total);
        }
        {
            precise float diff = work.v[p.a[3] + c * n + at] - work.v[p.a[3] + (3 + c) * n + at];
            precise float d2 = diff * diff;
            ac[c] = madd(d2, k.l2_mf[c], ac[c]);
        }
        {
            precise float diff = work.v[p.a[4] + c * n + at] - work.v[p.a[4] + (3 + c) * n + at];
            precise float d2 = diff * diff;
            precise float dc = d2 * k.l2_lf[c];
            work.v[p.b[1] + c * n + at] = dc;
        }
        work.v[p.b[0] + c * n + at] = ac[c];
    }
    work.v[p.b[2] + at] = mask_of(0, n, at);
    work.v[p.b[2] + n + at] = mask_of(1, n, at);
}
