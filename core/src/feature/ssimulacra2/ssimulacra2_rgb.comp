// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2, first step, every scale at once: each pixel of both pictures
// to RGB as ssimulacra2_kernels_tmpl.h's rgb_row (double, clamped to [0, 1],
// rounded to float), then sRGB -> linear; the 2x2 box averages of the
// linear planes down the scales, the last row and column repeated where a
// size is odd (its downsample); and at each scale XYB and the products the
// blurs take, into that scale's region of `work`, and XYB again into the
// frame's copy of the XYB planes (ssimulacra2_xyb.glsl).
// A workgroup takes a 32x32 tile of the full size, which holds the tiles of
// every later scale (16x16, 8x8, ... 1x1: six scales at most), the repeated
// row or column of an odd size included. Invocation i converts the full
// size's pixels (i % 32, i / 32 + 8 j) for j = 0 to 3 (a subgroup's stores
// fall on neighbouring words) and keeps their linear RGB in shared memory;
// each later scale is averaged from the one before there. No linear plane
// goes through device memory.
#include "ssimulacra2_common.glsl"

const uint kTile = 32;  // the full size's tile (ssimulacra2_vk.cpp's kTile)
layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 1) restrict readonly buffer Planes { uint words[]; } planes;
layout(std430, set = 0, binding = 2) restrict writeonly buffer Work { float v[]; } work;
layout(std430, set = 0, binding = 3) restrict writeonly buffer Xyb { float v[]; } xyb;  // this frame's copy

#include "ssimulacra2_xyb.glsl"
#include "feature/common/srgb.glsl"

// The six linear planes (R, G, B of the reference, then of the distorted) of
// the tile: the full size's (plane c's row y at (c * 32 + y) * 32), then,
// once the second scale is averaged from it, the later scales': scale i's
// tile (side t = 32 >> i) at level_at(i), plane c's row y at + (c * t + y) * t.
shared float level[6 * kTile * kTile];  // ssimulacra2_vk.cpp's kRgbShared

uint level_at(uint i)
{
    // 6 * (256 + 64 + ... for the scales from the second to i - 1); the
    // full size's and the second scale's planes both start at 0
    uint at = 0;
    for (uint j = 1; j < i; j++) at += 6 * (1024u >> (2 * j));
    return at;
}

// Picture pic's pixel (x, y) of the full size in linear RGB.
vec3 linear_rgb(uint pic, uint x, uint y)
{
    const uint o = pic * 3;
    return linear_rgb(uvec3(p.off[o], p.off[o + 1], p.off[o + 2]), p.stride[0], p.stride[1], x, y);
}

// XYB and the products of scale i's pixel (x, y), from its linear RGB.
void store_scale(uint i, uint x, uint y, vec3 r, vec3 d)
{
    vec3 a, b;
    to_xyb(r, a);
    to_xyb(d, b);
    const uint pixel = y * k.scale_w[i] + x;
    store_xyb(k.scale_at[i] + pixel, k.xyb_at[i] + pixel, k.scale_w[i] * k.scale_h[i], a, b);
}

// The 2x2 average, in the CPU's order: the rows, within a row the columns.
float average(float v00, float v01, float v10, float v11)
{
    precise float sum = 0.0;
    sum += v00;
    sum += v01;
    sum += v10;
    sum += v11;
    precise float r = sum * 0.25;
    return r;
}

void main()
{
    const uint lid = gl_LocalInvocationIndex;
    const uint w = k.scale_w[0], h = k.scale_h[0];
    const uint x0 = gl_WorkGroupID.x * kTile, y0 = gl_WorkGroupID.y * kTile;
    for (uint j = 0; j < 4; j++) {
        const uint lx = lid % kTile, ly = lid / kTile + 8 * j, x = x0 + lx, y = y0 + ly;
        if (x < w && y < h) {
            const vec3 r = linear_rgb(0, x, y), d = linear_rgb(1, x, y);
            store_scale(0, x, y, r, d);
            for (uint c = 0; c < 3; c++) {
                level[(c * kTile + ly) * kTile + lx] = r[c];
                level[((3 + c) * kTile + ly) * kTile + lx] = d[c];
            }
        }
    }
    // Each later scale from the one before: its pixels whose 2x2 block (the
    // last row or column of an odd size repeated) is in the tile, which all
    // its pixels of the tile are.
    for (uint i = 1; i < k.scales; i++) {
        barrier();
        const uint t = kTile >> i, in_t = 2 * t, from = level_at(i - 1), to = level_at(i);
        const uint ox = gl_WorkGroupID.x * t + lid % t, oy = gl_WorkGroupID.y * t + lid / t;
        const bool mine = lid < t * t && ox < k.scale_w[i] && oy < k.scale_h[i];
        vec3 avg[2];
        if (mine) {
            // Scale i - 1's columns and rows of the block, in the tile.
            const uint in_w = k.scale_w[i - 1], in_h = k.scale_h[i - 1];
            const uint c0 = 2 * ox - gl_WorkGroupID.x * in_t, r0 = 2 * oy - gl_WorkGroupID.y * in_t;
            const uint c1 = min(2 * ox + 1, in_w - 1) - gl_WorkGroupID.x * in_t;
            const uint r1 = min(2 * oy + 1, in_h - 1) - gl_WorkGroupID.y * in_t;
            for (uint pic = 0; pic < 2; pic++)
                for (uint c = 0; c < 3; c++) {
                    const uint pl = from + (pic * 3 + c) * in_t * in_t;
                    avg[pic][c] = average(level[pl + r0 * in_t + c0], level[pl + r0 * in_t + c1],
                                          level[pl + r1 * in_t + c0], level[pl + r1 * in_t + c1]);
                }
        }
        // The second scale's planes overwrite the full size's: every read
        // of those is done first.
        if (i == 1) barrier();
        if (mine) {
            for (uint pic = 0; pic < 2; pic++)
                for (uint c = 0; c < 3; c++) level[to + (pic * 3 + c) * t * t + (lid / t) * t + lid % t] = avg[pic][c];
            store_scale(i, ox, oy, avg[0], avg[1]);
        }
    }
}
