// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli: one pass of libjxl's Blur() for the kernels longer than 5 taps
// (butteraugli_kernels_tmpl.h's convolve_transpose): each row of plane z
// convolved and written transposed. Columns with the whole kernel inside take
// the kernel scaled by its sum, the taps paired from the ends and added in
// four running sums as libjxl groups them; columns within the kernel's radius
// of an edge take the taps inside, scaled by their own sum.
// A workgroup takes a tile of 32 rows and 32 columns of the input: it reads
// the rows' samples the tile needs (the radius on either side) into shared
// memory along the rows, then each invocation computes four outputs of one
// row, so that a subgroup's stores fall on neighbouring words of the output.
// Push: a[0] the input planes, b[0] the output planes (consecutive, w h
// apart), w, h the input's size, u0 the kernel's first tap in k.taps, u1 its
// length (at most 33), u2 its scaled half in k.scaled.
#include "butteraugli_common.glsl"

const uint kTile = 32;
// A tile row: the 32 columns and up to 16 on either side, and one more so
// that the rows of a subgroup's reads fall in different banks.
const uint kStride = kTile + 32 + 1;
layout(local_size_x = 256) in;

shared float tile[kTile * kStride];

void main()
{
    const uint n = p.w * p.h, plane = gl_WorkGroupID.z * n;
    const uint x0 = gl_WorkGroupID.x * kTile, y0 = gl_WorkGroupID.y * kTile;
    const uint len = p.u1, offset = len / 2, cols = kTile + 2 * offset;
    const uint t = gl_LocalInvocationIndex;
    for (uint i = t; i < kTile * cols; i += gl_WorkGroupSize.x) {
        const uint r = i / cols, c = i % cols;
        const int x = int(x0 + c) - int(offset);
        const uint y = y0 + r;
        float v = 0.0;
        if (y < p.h && x >= 0 && x < int(p.w)) v = work.v[p.a[0] + plane + y * p.w + uint(x)];
        tile[r * kStride + c] = v;
    }
    barrier();
    const uint border1 = min(p.w, offset), border2 = p.w > offset ? p.w - offset : 0u;
    for (uint q = 0; q < kTile * kTile / gl_WorkGroupSize.x; q++) {
        const uint r = t % kTile, c = t / kTile + q * (gl_WorkGroupSize.x / kTile);
        const uint iy = y0 + r, ix = x0 + c;
        if (iy >= p.h || ix >= p.w) continue;
        // Input column j is the tile's column j + offset - x0.
        const uint row = r * kStride + offset - x0;
        float result;
        if (ix >= border1 && ix < border2) {
            const uint b = r * kStride + c;
            precise float acc[4];
            for (uint i = 0; i < offset; i++) {
                precise float s = tile[b + i] + tile[b + len - 1 - i];
                precise float tv = s * k.scaled[p.u2 + i];
                if (i < 4) acc[i] = tv;
                else acc[i % 4] = acc[i % 4] + tv;
            }
            precise float sum = tile[b + offset] * k.scaled[p.u2 + offset];
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
                precise float tv = tile[row + j] * k.taps[p.u0 + j + offset - ix];
                sum = sum + tv;
            }
            precise float rs = sum * scale;
            result = rs;
        }
        work.v[p.b[0] + plane + ix * p.h + iy] = result;
    }
}
