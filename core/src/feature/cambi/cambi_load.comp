// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// CAMBI, step 1: the luma plane as 10-bit samples at the encode size
// (nearest-sample resampling by the host's maps, which follow libvmaf's float
// stepping), then, for encodes below 10 bits, the anti-dithering average of
// each sample with its right, lower and lower-right neighbours. One thread per
// output sample (the grid also covers the picture, whose samples are
// checked against the bit depth); the CPU's in-place pass reads only unchanged samples, so
// this out-of-place form is the same.
#include "cambi_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const uint kBytesPerSample = 1;

layout(push_constant) uniform Params {
    uint in_offset, in_stride;  // samples
    uint width, height;         // the encode size
    uint up, down, round;       // to 10 bits: ((v << up) + round) >> down
    uint anti_dither;
    uint scaled;                // 1: decimate through the maps
    uint out_offset;            // in `work`
    uint map_offset;            // this picture's maps in `consts`
    uint in_width, in_height;   // the picture's luma size
    uint max_sample;            // larger samples are an error (0: none can be)
    uint error_word;            // this frame's (cambi_gpu_layout.h: kErrorAt)
} p;

uint sample_at(uint x, uint y)
{
    uint sx = x, sy = y;
    if (p.scaled != 0u) {
        sx = consts.v[p.map_offset + x];
        sy = consts.v[p.map_offset + p.width + y];
    }
    const uint i = p.in_offset + sy * p.in_stride + sx;
    const uint v = kBytesPerSample == 1u ? uint(planes8.v[i]) : uint(planes16.v[i]);
    return ((v << p.up) + p.round) >> p.down;
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    // Every sample of the picture is checked, as the CPU does, whatever is scored.
    if (p.max_sample != 0u && x < p.in_width && y < p.in_height &&
        uint(planes16.v[p.in_offset + y * p.in_stride + x]) > p.max_sample)
        atomicOr(counts.v[kErrorAt + p.error_word], kErrorSample);
    if (x >= p.width || y >= p.height) return;
    uint v = sample_at(x, y);
    if (p.anti_dither != 0u) {
        const bool right = x + 1u < p.width, below = y + 1u < p.height;
        if (below && right)
            v = (v + sample_at(x + 1u, y) + sample_at(x, y + 1u) + sample_at(x + 1u, y + 1u)) >> 2;
        else if (below)
            v = (v + sample_at(x, y + 1u)) >> 1;
        else if (right)
            v = (v + sample_at(x + 1u, y)) >> 1;
    }
    work.v[p.out_offset + y * p.width + x] = uint16_t(v);
}
