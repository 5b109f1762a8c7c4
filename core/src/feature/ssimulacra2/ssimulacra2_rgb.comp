// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2, first step: each pixel of both pictures to RGB as
// ssimulacra2_kernels_tmpl.h's rgb_row (double, clamped to [0, 1], rounded to
// float), then sRGB -> linear. Writes planes R, G, B of the reference, then of
// the distorted, to `lin` (for the next scale), and the full size's XYB and
// products to `work` (ssimulacra2_xyb.glsl), saving a pass over `lin`.
#include "ssimulacra2_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 1) const uint kBytesPerSample = 1;
layout(constant_id = 2) const uint kSsX = 0;
layout(constant_id = 3) const uint kSsY = 0;

layout(std430, set = 0, binding = 1) restrict readonly buffer Planes { uint words[]; } planes;
layout(std430, set = 0, binding = 2) restrict writeonly buffer Lin { float v[]; } lin;
layout(std430, set = 0, binding = 3) restrict writeonly buffer Work { float v[]; } work;

#include "ssimulacra2_xyb.glsl"

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

// Picture pic's pixel (x, y) in linear RGB, also written to `lin`.
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
    const vec3 rgb = vec3(srgb_to_linear(clamp01(r)), srgb_to_linear(clamp01(g)), srgb_to_linear(clamp01(b)));
    const uint i = o * p.plane + y * p.w + x;
    lin.v[i] = rgb.x;
    lin.v[i + p.plane] = rgb.y;
    lin.v[i + 2 * p.plane] = rgb.z;
    return rgb;
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= p.w || y >= p.h) return;
    const vec3 r = linear_rgb(0, x, y), d = linear_rgb(1, x, y);
    vec3 a, b;
    to_xyb(r, a);
    to_xyb(d, b);
    store_xyb(y * p.w + x, a, b);
}
