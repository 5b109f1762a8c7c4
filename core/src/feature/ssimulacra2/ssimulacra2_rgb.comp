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
// row or column of an odd size included. Invocation (a, b) converts the
// full size's pixels (2a, 2b) to (2a + 1, 2b + 1) and averages them into
// pixel (a, b) of the second scale; each later scale is averaged from the one
// before in shared memory. No linear plane goes through device memory.
#include "ssimulacra2_common.glsl"

const uint kHalf = 16;  // the second scale's tile, the invocations' side
layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 1) const uint kBytesPerSample = 1;
layout(constant_id = 2) const uint kSsX = 0;
layout(constant_id = 3) const uint kSsY = 0;

layout(std430, set = 0, binding = 1) restrict readonly buffer Planes { uint words[]; } planes;
layout(std430, set = 0, binding = 2) restrict writeonly buffer Work { float v[]; } work;
layout(std430, set = 0, binding = 3) restrict writeonly buffer Xyb { float v[]; } xyb;  // this frame's copy

#include "ssimulacra2_xyb.glsl"

// The six linear planes (R, G, B of the reference, then of the distorted) of
// the tiles of the second scale and after: scale i's tile (side t = 32 >> i)
// at level_at(i), plane c's row y at + (c * t + y) * t.
shared float level[6 * (256 + 64 + 16 + 4 + 1)];

uint level_at(uint i)
{
    // 6 * (256 + 64 + ... for the scales from the second to i - 1)
    uint at = 0;
    for (uint j = 1; j < i; j++) at += 6 * (1024u >> (2 * j));
    return at;
}

const uint kSamplesPerWord = 4 / kBytesPerSample;

double sample_at(uint base, uint stride, uint x, uint y)
{
    const uint w = planes.words[base + y * stride + x / kSamplesPerWord];
    const uint shift = (x % kSamplesPerWord) * 8 * kBytesPerSample;
    return double((w >> shift) & ((1u << (8 * kBytesPerSample)) - 1u));
}

float clamp01(double v)
{
    precise float r = float(min(max(v, 0.0lf), 1.0lf));
    return r;
}

// libjxl's TF_SRGB::DisplayFromEncoded for x in [0, 1].
float srgb_to_linear(float x)
{
    precise float pp = k.srgb_p[4], q = k.srgb_q[4];
    for (int i = 3; i >= 0; i--) {
        pp = madd(pp, x, k.srgb_p[i]);
        q = madd(q, x, k.srgb_q[i]);
    }
    precise float high = div_once(pp, q);
    precise float low = x * k.srgb_low_div_inv;
    return x > k.srgb_threshold ? high : low;
}

// Picture pic's pixel (x, y) of the full size in linear RGB.
vec3 linear_rgb(uint pic, uint x, uint y)
{
    const uint o = pic * 3;
    const double ys = sample_at(p.off[o], p.stride[0], x, y);
    const double us = sample_at(p.off[o + 1], p.stride[1], x >> kSsX, y >> kSsY);
    const double vs = sample_at(p.off[o + 2], p.stride[1], x >> kSsX, y >> kSsY);
    precise double yn = (ys - k.conv[0]) / k.conv[1];
    precise double cb = (us - k.conv[2]) / k.conv[3];
    precise double cr = (vs - k.conv[2]) / k.conv[3];
    precise double r = yn + k.conv[4] * cr;
    precise double g = yn - k.conv[5] * cb - k.conv[6] * cr;
    precise double b = yn + k.conv[7] * cb;
    return vec3(srgb_to_linear(clamp01(r)), srgb_to_linear(clamp01(g)), srgb_to_linear(clamp01(b)));
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
    const uint a = gl_LocalInvocationID.x, b = gl_LocalInvocationID.y;
    const uint w = k.scale_w[0], h = k.scale_h[0];
    const uint x = gl_WorkGroupID.x * 32 + 2 * a, y = gl_WorkGroupID.y * 32 + 2 * b;
    // The full size's 2x2 block, the last column or row repeated past the
    // edge (where only the second scale reads it).
    vec3 lin[8];  // the reference's (0, 0), (1, 0), (0, 1), (1, 1), then the distorted's
    if (x < w && y < h) {
        for (uint j = 0; j < 4; j++) {
            const uint xj = x + (j & 1u), yj = y + (j >> 1);
            if (xj < w && yj < h) {
                lin[j] = linear_rgb(0, xj, yj);
                lin[4 + j] = linear_rgb(1, xj, yj);
                store_scale(0, xj, yj, lin[j], lin[4 + j]);
            } else {
                const uint from = xj < w ? j - 2 : j - 1;  // the row above, else the column left
                lin[j] = lin[from];
                lin[4 + j] = lin[4 + from];
            }
        }
    }
    if (k.scales < 2) return;
    // The second scale's pixel (a, b) of the tile.
    const uint x1 = gl_WorkGroupID.x * kHalf + a, y1 = gl_WorkGroupID.y * kHalf + b;
    if (x < w && y < h) {
        vec3 avg[2];
        for (uint pic = 0; pic < 2; pic++) {
            const uint o = pic * 4;
            for (uint c = 0; c < 3; c++) {
                avg[pic][c] = average(lin[o][c], lin[o + 1][c], lin[o + 2][c], lin[o + 3][c]);
                level[(pic * 3 + c) * kHalf * kHalf + b * kHalf + a] = avg[pic][c];
            }
        }
        store_scale(1, x1, y1, avg[0], avg[1]);
    }
    // The later scales, each from the one before in shared memory.
    const uint lid = gl_LocalInvocationIndex;
    for (uint i = 2; i < k.scales; i++) {
        barrier();
        const uint t = 32u >> i, in_t = 2 * t, from = level_at(i - 1), to = level_at(i);
        const uint ox = gl_WorkGroupID.x * t + lid % t, oy = gl_WorkGroupID.y * t + lid / t;
        if (lid < t * t && ox < k.scale_w[i] && oy < k.scale_h[i]) {
            // Scale i - 1's columns and rows of the block, in the tile.
            const uint in_w = k.scale_w[i - 1], in_h = k.scale_h[i - 1];
            const uint c0 = 2 * ox - gl_WorkGroupID.x * in_t, r0 = 2 * oy - gl_WorkGroupID.y * in_t;
            const uint c1 = min(2 * ox + 1, in_w - 1) - gl_WorkGroupID.x * in_t;
            const uint r1 = min(2 * oy + 1, in_h - 1) - gl_WorkGroupID.y * in_t;
            vec3 avg[2];
            for (uint pic = 0; pic < 2; pic++)
                for (uint c = 0; c < 3; c++) {
                    const uint pl = from + (pic * 3 + c) * in_t * in_t;
                    avg[pic][c] = average(level[pl + r0 * in_t + c0], level[pl + r0 * in_t + c1],
                                          level[pl + r1 * in_t + c0], level[pl + r1 * in_t + c1]);
                    level[to + (pic * 3 + c) * t * t + (lid / t) * t + lid % t] = avg[pic][c];
                }
            store_scale(i, ox, oy, avg[0], avg[1]);
        }
    }
}
