// SPDX-License-Identifier: BSD-2-Clause-Patent
// ssimulacra2: linear RGB -> positive XYB (libjxl's ToXYB and
// MakePositiveXYB, as ssimulacra2_kernels_tmpl.h's to_xyb) and the 15 planes
// the blurs take: XYB of the reference, XYB of the distorted, then per
// channel ref * ref, dist * dist, ref * dist (each three planes), and the
// XYB planes again into the frame's copy of them (`xyb`), which the column
// blur reads. Included after ssimulacra2_common.glsl and the `work` and `xyb`
// buffers by ssimulacra2_rgb.comp.

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

// A pixel's XYB of the reference (a) and the distorted (b), and their
// products, into the 15 planes of `work` whose first is at `i` (the pixel's
// place in it), P floats apart; XYB also into the six planes of `xyb` whose
// first is at `xat`.
void store_xyb(uint i, uint xat, uint P, vec3 a, vec3 b)
{
    for (uint c = 0; c < 3; c++) {
        precise float aa = a[c] * a[c], bb = b[c] * b[c], ab = a[c] * b[c];
        work.v[i + c * P] = a[c];
        work.v[i + (3 + c) * P] = b[c];
        xyb.v[xat + c * P] = a[c];
        xyb.v[xat + (3 + c) * P] = b[c];
        work.v[i + (6 + c) * P] = aa;
        work.v[i + (9 + c) * P] = bb;
        work.v[i + (12 + c) * P] = ab;
    }
}
