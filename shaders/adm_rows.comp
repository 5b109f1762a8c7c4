#version 450
// Integer ADM: the per-scale sums from adm_scale.glsl's partials.
//
// A partial is one tile's sum over one band row of one quantity (reference
// energy, DLM or AIM; h, v or d). As on the CPU, each band row's sum is
// completed first (its tiles added), then rounded and shifted, then the rows
// are added. One workgroup per scale and quantity writes the 64-bit total;
// integers throughout, so the order of the additions is free.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 256) in;

const int kScales = 4;
const int kQuantities = 9;  // energy h v d, DLM h v d, AIM h v d

layout(std430, set = 0, binding = 0) readonly buffer Partials { uint64_t v[]; } partials;
layout(std430, set = 0, binding = 1) writeonly buffer Results { uint64_t v[]; } results;

layout(push_constant) uniform Params {
    uint part_base[kScales];  // first partial of the scale
    uint rows[kScales];       // band rows in the score rectangle (0: scale not scored)
    uint tiles[kScales];      // tiles per band row
    uint den_shift[kScales];  // row shift of the energy (unsigned)
    uint num_shift[kScales];  // row shift of the masked sums (signed)
    uint out_index;           // the frame's results, in 64-bit words
} p;

shared uint64_t lane[256];

void main()
{
    const uint tid = gl_LocalInvocationID.x;
    const uint scale = gl_WorkGroupID.x / kQuantities, q = gl_WorkGroupID.x - scale * kQuantities;
    const uint rows = p.rows[scale], tiles = p.tiles[scale];
    const bool energy = q < 3u;
    const uint shift = energy ? p.den_shift[scale] : p.num_shift[scale];
    const uint64_t round = shift == 0u ? 0ul : (1ul << (shift - 1u));
    uint64_t acc = 0ul;
    for (uint r = tid; r < rows; r += 256u) {
        const uint at = p.part_base[scale] + (q * rows + r) * tiles;
        uint64_t s = 0ul;
        for (uint t = 0u; t < tiles; t++) s += partials.v[at + t];
        acc += energy ? (s + round) >> shift : uint64_t((int64_t(s) + int64_t(round)) >> shift);
    }
    lane[tid] = acc;
    barrier();
    for (uint n = 128u; n > 0u; n >>= 1) {
        if (tid < n) lane[tid] += lane[tid + n];
        barrier();
    }
    if (tid == 0u) results.v[p.out_index + gl_WorkGroupID.x] = lane[0];
}
