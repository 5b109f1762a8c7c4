#version 450
// Imported pictures read in place: one plane, sampled through an R8/R16 (or
// R8G8/R16G16) UNORM view, into the engine's plane layout. The texel's value is
// c / (2^bits - 1) for the stored code c of `bits` bits (8 or 16; X6/X4 planes are
// viewed as R16, padding bits included), so c comes back exactly as
// round(value * (2^bits - 1)): the codes are spaced far wider than a float's
// error at 16 bits. Then the same component pick and right shift as
// import_unpack.comp, so the features see exactly the samples a copy gives.
//
// One invocation writes one 32-bit word of a destination row: four 8-bit or two
// 16-bit samples; samples past the row's width are written as zero.

layout(local_size_x = 64, local_size_y = 4) in;

layout(std430, set = 0, binding = 0) writeonly buffer Planes { uint words[]; } planes;
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

void main()
{
    const uint wx = gl_GlobalInvocationID.x;
    const uint y = gl_GlobalInvocationID.y;
    const uint per_word = 4u / p.bytes;
    if (y >= p.height || wx * per_word >= p.width) return;

    const float scale = float(p.max_code);
    uint out_word = 0u;
    for (uint k = 0u; k < per_word; k++) {
        const uint x = wx * per_word + k;
        if (x >= p.width) break;
        const vec4 t = texelFetch(plane, ivec2(x, y), 0);
        const float v = p.component == 0u ? t.r : t.g;
        const uint code = uint(v * scale + 0.5);
        out_word |= (code >> p.shift) << (8u * p.bytes * k);
    }
    planes.words[p.dst_word + y * p.dst_stride + wx] = out_word;
}
