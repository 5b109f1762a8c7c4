// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Integer motion's row sums: each row's tile sums (motion_sad.comp) added
// modulo 2^32, as libvmaf's 32-bit row sum wraps, into the feature's results.
// One thread per row.

layout(local_size_x_id = 0) in;  // rows per workgroup (motion_vk.cpp)

layout(std430, set = 0, binding = 0) readonly buffer Tiles { uint sums[]; } tiles;
layout(std430, set = 0, binding = 1) writeonly buffer Rows { uint sums[]; } rows;

layout(push_constant) uniform Params {
    uint height;
    uint tiles_per_row;
    uint out_index;  // where row 0's sum goes in `rows`
} p;

void main()
{
    const uint y = gl_GlobalInvocationID.x;
    if (y >= p.height) return;
    uint sum = 0u;
    for (uint t = 0u; t < p.tiles_per_row; t++) sum += tiles.sums[y * p.tiles_per_row + t];
    rows.sums[p.out_index + y] = sum;
}
