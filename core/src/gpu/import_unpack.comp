// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Imported pictures: one plane from its raw device copy into the engine's plane
// layout. Picks one component of interleaved chroma (NV12, P010) and shifts
// msb-aligned 16-bit samples (P010, the X6/X4 formats) down to their bpc bits, so
// the features see exactly the samples a host picture of the same frame holds.
//
// One invocation writes one 32-bit word of a destination row: four 8-bit or two
// 16-bit samples. Samples past the row's width are written as zero (the row's
// padding, which no feature reads).

layout(local_size_x = 64, local_size_y = 4) in;

layout(std430, set = 0, binding = 0) readonly buffer Raw { uint words[]; } raw;
layout(std430, set = 0, binding = 1) writeonly buffer Planes { uint words[]; } planes;

layout(push_constant) uniform Params {
    uint src_offset;   // bytes: the plane's first row in `raw`
    uint src_pitch;    // bytes from row to row in `raw`
    uint dst_word;     // the plane's first word in `planes`
    uint dst_stride;   // words from row to row in `planes`
    uint width;        // samples in a row
    uint height;       // rows
    uint components;   // samples per pixel in `raw`: 1, or 2 for interleaved chroma
    uint component;    // which one to take
    uint bytes;        // bytes per sample, source and destination: 1 or 2
    uint shift;        // right shift of each sample
} p;

uint load_sample(uint byte_offset)
{
    const uint word = raw.words[byte_offset >> 2];
    const uint bits = 8u * p.bytes;
    return (word >> (8u * (byte_offset & 3u))) & ((1u << bits) - 1u);
}

void main()
{
    const uint wx = gl_GlobalInvocationID.x;
    const uint y = gl_GlobalInvocationID.y;
    const uint per_word = 4u / p.bytes;
    if (y >= p.height || wx * per_word >= p.width) return;

    const uint row = p.src_offset + y * p.src_pitch;
    uint out_word = 0u;
    for (uint k = 0u; k < per_word; k++) {
        const uint x = wx * per_word + k;
        if (x >= p.width) break;
        const uint at = row + (x * p.components + p.component) * p.bytes;
        out_word |= (load_sample(at) >> p.shift) << (8u * p.bytes * k);
    }
    planes.words[p.dst_word + y * p.dst_stride + wx] = out_word;
}
