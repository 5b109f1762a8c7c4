// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli, first step: both pictures to linear RGB at full size (as
// feature/common/srgb.h's rgb_row and srgb_tmpl.h's srgb_to_linear), and their
// 2x2 subsamples (the comparator's SubSample2x: 0.25 times each sample added
// in row order, the last column and then the last row doubled at odd sizes).
// An invocation takes one 2x2 block: its pixels of both resolutions.
// Push: a[0..5] the planes' first words (Y, U, V of the reference, then of the
// distorted), b[0] the full size's six RGB planes, b[1] the subsample's, w, h
// the full size, u0 and u1 the luma and chroma strides (words), u2 whether the
// subsample is computed (at least 8x8).
#include "butteraugli_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 1) const uint kBytesPerSample = 1;
layout(constant_id = 2) const uint kSsX = 0;
layout(constant_id = 3) const uint kSsY = 0;

layout(std430, set = 0, binding = 2) restrict readonly buffer Planes { uint words[]; } planes;

const uint kSamplesPerWord = 4 / kBytesPerSample;

double sample_at(uint base, uint stride, uint x, uint y)
{
    const uint wd = planes.words[base + y * stride + x / kSamplesPerWord];
    const uint shift = (x % kSamplesPerWord) * 8 * kBytesPerSample;
    return double((wd >> shift) & ((1u << (8 * kBytesPerSample)) - 1u));
}

float clamp01(double v)
{
    precise float r = float(min(max(v, 0.0lf), 1.0lf));
    return r;
}

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

vec3 linear_rgb(uint pic, uint x, uint y)
{
    const uint o = pic * 3;
    const double ys = sample_at(p.a[o], p.u0, x, y);
    const double us = sample_at(p.a[o + 1], p.u1, x >> kSsX, y >> kSsY);
    const double vs = sample_at(p.a[o + 2], p.u1, x >> kSsX, y >> kSsY);
    precise double yn = (ys - k.conv[0]) / k.conv[1];
    precise double cb = (us - k.conv[2]) / k.conv[3];
    precise double cr = (vs - k.conv[2]) / k.conv[3];
    precise double r = yn + k.conv[4] * cr;
    precise double g = yn - k.conv[5] * cb - k.conv[6] * cr;
    precise double b = yn + k.conv[7] * cb;
    return vec3(srgb_to_linear(clamp01(r)), srgb_to_linear(clamp01(g)), srgb_to_linear(clamp01(b)));
}

void main()
{
    const uint sw = (p.w + 1) / 2, sh = (p.h + 1) / 2;
    const uint x1 = gl_GlobalInvocationID.x, y1 = gl_GlobalInvocationID.y;
    if (x1 >= sw || y1 >= sh) return;
    const uint n0 = p.w * p.h, n1 = sw * sh;
    for (uint pic = 0; pic < 2; pic++) {
        precise vec3 sum = vec3(0.0);
        for (uint dy = 0; dy < 2; dy++)
            for (uint dx = 0; dx < 2; dx++) {
                const uint x = 2 * x1 + dx, y = 2 * y1 + dy;
                if (x >= p.w || y >= p.h) continue;
                const vec3 c = linear_rgb(pic, x, y);
                for (uint ch = 0; ch < 3; ch++) {
                    work.v[p.b[0] + (pic * 3 + ch) * n0 + y * p.w + x] = c[ch];
                    precise float q = 0.25 * c[ch];
                    sum[ch] = sum[ch] + q;
                }
            }
        if (p.u2 == 0u) continue;
        for (uint ch = 0; ch < 3; ch++) {
            precise float v = sum[ch];
            if ((p.w & 1u) != 0u && x1 == sw - 1) v = v * 2.0;
            if ((p.h & 1u) != 0u && y1 == sh - 1) v = v * 2.0;
            work.v[p.b[1] + (pic * 3 + ch) * n1 + y1 * sw + x1] = v;
        }
    }
}
