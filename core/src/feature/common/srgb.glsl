// SPDX-License-Identifier: BSD-2-Clause-Patent
// The step the kernels of the libjxl features (ssimulacra2, butteraugli)
// begin with: a pixel of a YUV picture to linear RGB, as srgb.h's rgb_row
// (in double, clamped to [0, 1], rounded to float) and srgb_tmpl.h's
// srgb_to_linear (libjxl's TF_SRGB::DisplayFromEncoded). Included after
// libjxl_math.glsl and the kernel's `k` (its constants: conv[8], srgb_p[5],
// srgb_q[5], srgb_threshold, srgb_low_div_inv) and `planes` (the pictures'
// words) buffers. Specialization constants 1 to 3 are the samples' size and
// the chroma subsampling.

layout(constant_id = 1) const uint kBytesPerSample = 1;
layout(constant_id = 2) const uint kSsX = 0;
layout(constant_id = 3) const uint kSsY = 0;

const uint kSamplesPerWord = 4 / kBytesPerSample;

// The sample at (x, y) of the plane whose first word is `base`.
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

// Pixel (x, y) of the picture whose Y, U and V planes start at the words
// `yuv` (rows `luma` and `chroma` words apart) in linear RGB.
vec3 linear_rgb(uvec3 yuv, uint luma, uint chroma, uint x, uint y)
{
    const double ys = sample_at(yuv.x, luma, x, y);
    const double us = sample_at(yuv.y, chroma, x >> kSsX, y >> kSsY);
    const double vs = sample_at(yuv.z, chroma, x >> kSsX, y >> kSsY);
    precise double yn = (ys - k.conv[0]) / k.conv[1];
    precise double cb = (us - k.conv[2]) / k.conv[3];
    precise double cr = (vs - k.conv[2]) / k.conv[3];
    precise double r = yn + k.conv[4] * cr;
    precise double g = yn - k.conv[5] * cb - k.conv[6] * cr;
    precise double b = yn + k.conv[7] * cb;
    return vec3(srgb_to_linear(clamp01(r)), srgb_to_linear(clamp01(g)), srgb_to_linear(clamp01(b)));
}
