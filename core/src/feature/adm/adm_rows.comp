// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Integer ADM: the per-scale sums from adm_scale.glsl's partials.
//
// A partial is one tile's sum over one band row of one quantity (reference
// energy, DLM or AIM; h, v or d). As on the CPU, each band row's sum is
// completed first (its tiles added), then rounded and shifted, and only then
// added to the other rows. A workgroup takes 32 band rows of one scale (0 to
// 2: the host completes scale 3's few rows) and quantity, eight threads per
// row, and writes the sum of its shifted rows; the host adds the workgroups
// of each scale and quantity. Offsets count from the start of the partials
// it binds (those of one frame, adm_vk.cpp). Integers throughout,
// so the order of the additions is free.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

const int kScales = 4;
const uint kLanes = 8;                     // threads per band row
const uint kRowsPerGroup = 256u / kLanes;  // band rows per workgroup

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Partials { uint64_t v[]; } partials;
layout(std430, set = 0, binding = 1) writeonly buffer Results { uint64_t v[]; } results;

layout(push_constant) uniform Params {
    uint part_base[kScales];    // the scale's first partial
    uint rows[kScales];         // band rows of its score rectangle
    uint tiles[kScales];        // tiles per band row
    uint den_shift[kScales];    // row shift of the energy (unsigned)
    uint num_shift[kScales];    // row shift of the masked sums (signed)
    uint first_group[kScales];  // its first workgroup; 9 quantities x `chunks` follow
    uint chunks[kScales];       // workgroups per quantity (0: scale not scored)
    uint out_index;             // the frame's results, in 64-bit words
} p;

shared uint64_t lane_sum[256];

void main()
{
    const uint tid = gl_LocalInvocationID.x, group = gl_WorkGroupID.x;
    int scale = kScales - 1;
    while (scale > 0 && group < p.first_group[scale]) scale--;
    const uint local = group - p.first_group[scale];
    const uint q = local / p.chunks[scale], chunk = local - q * p.chunks[scale];
    const uint rows = p.rows[scale], tiles = p.tiles[scale];
    const uint row = chunk * kRowsPerGroup + tid / kLanes, lane = tid % kLanes;

    // This row's tiles, eight threads apart.
    uint64_t s = 0ul;
    if (row < rows) {
        const uint at = p.part_base[scale] + (q * rows + row) * tiles;
        for (uint t = lane; t < tiles; t += kLanes) s += partials.v[at + t];
    }
    lane_sum[tid] = s;
    barrier();
    // The complete row, rounded and shifted.
    uint64_t shifted = 0ul;
    if (lane == 0u && row < rows) {
        uint64_t sum = 0ul;
        for (uint l = 0u; l < kLanes; l++) sum += lane_sum[tid + l];
        const bool energy = q < 3u;
        const uint shift = energy ? p.den_shift[scale] : p.num_shift[scale];
        const uint64_t round = shift == 0u ? 0ul : (1ul << (shift - 1u));
        shifted = energy ? (sum + round) >> shift : uint64_t((int64_t(sum) + int64_t(round)) >> shift);
    }
    barrier();
    lane_sum[tid] = shifted;
    barrier();
    for (uint n = 128u; n > 0u; n >>= 1) {
        if (tid < n) lane_sum[tid] += lane_sum[tid + n];
        barrier();
    }
    if (tid == 0u) results.v[p.out_index + group] = lane_sum[0];
}
