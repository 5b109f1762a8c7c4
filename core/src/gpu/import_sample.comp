// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
#extension GL_EXT_control_flow_attributes : require
// Imported pictures read in place: one plane, sampled through an R8/R16 (or
// R8G8/R16G16) UNORM view, into the engine's plane layout. The texel's value is
// c / (2^bits - 1) for the stored code c of `bits` bits (8 or 16; X6/X4 planes are
// viewed as R16, padding bits included), so c comes back exactly as
// round(value * (2^bits - 1)): the codes are spaced far wider than a float's
// error at 16 bits. Then the same component pick and right shift as
// import_unpack.comp, so the features see exactly the samples a copy gives.
//
// One invocation writes 16 bytes of two destination rows: 16 8-bit or eight
// 16-bit samples of each, samples past the row's width as zero (planes start
// 16-byte aligned and their rows are whole multiples of 16 bytes: kBindAlign,
// kRowAlign). It reads them with gathers, each of which brings the 2x2 texels
// around a corner (the footprint of linear filtering, whatever the sampler's
// filter).

layout(local_size_x = 64, local_size_y = 4) in;

layout(std430, set = 0, binding = 0) writeonly buffer Planes { uvec4 v[]; } planes;
layout(set = 0, binding = 1) uniform sampler2D plane;

layout(push_constant) uniform Params {
    uint dst_word;    // the plane's first word in `planes`
    uint dst_stride;  // words from row to row in `planes`
    uint width;       // samples in a row
    uint height;      // rows
    uint component;   // 0: the texel's first component, 1: its second
    uint max_code;    // 2^bits - 1 of the view's format
    uint bytes;       // bytes per destination sample: 1 or 2
    uint shift;       // right shift of each code
} p;

uint code_of(float v) { return uint(v * float(p.max_code) + 0.5) >> p.shift; }

void main()
{
    const uint wx = 4u * gl_GlobalInvocationID.x;  // the first of four words
    const uint y = 2u * gl_GlobalInvocationID.y;
    const uint per_word = 4u / p.bytes;
    if (y >= p.height || wx * per_word >= p.width) return;

    const vec2 size = vec2(textureSize(plane, 0));
    uvec4 row0 = uvec4(0u), row1 = uvec4(0u);
    [[unroll]] for (uint w = 0u; w < 4u; w++) {
        uint r0 = 0u, r1 = 0u;
        for (uint k = 0u; k < per_word; k += 2u) {
            const uint x = (wx + w) * per_word + k;
            if (x >= p.width) break;
            // The corner between texels (x, y) and (x + 1, y + 1), half a
            // texel from any other: the gather's footprint is exactly those
            // four, clamped at the image's edge (such samples are past the row
            // and not written).
            const vec2 at = vec2(float(x + 1u), float(y + 1u)) / size;
            // Components: x (x, y + 1), y (x + 1, y + 1), z (x + 1, y), w (x, y).
            const vec4 t = p.component == 0u ? textureGather(plane, at, 0) : textureGather(plane, at, 1);
            const uint lo = 8u * p.bytes * k, hi = lo + 8u * p.bytes;
            r0 |= code_of(t.w) << lo;
            r1 |= code_of(t.x) << lo;
            if (x + 1u < p.width) {
                r0 |= code_of(t.z) << hi;
                r1 |= code_of(t.y) << hi;
            }
        }
        row0[w] = r0;
        row1[w] = r1;
    }
    planes.v[(p.dst_word + y * p.dst_stride + wx) / 4u] = row0;
    if (y + 1u < p.height) planes.v[(p.dst_word + (y + 1u) * p.dst_stride + wx) / 4u] = row1;
}
