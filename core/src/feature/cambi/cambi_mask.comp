// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// CAMBI, step 2: the spatial mask. A sample is flat when it equals its right
// and lower neighbours (a missing one counts as equal); the mask is 1 where
// more than `threshold` samples of the 7x7 square around it (clipped to the
// picture) are flat. A 16x16 tile per workgroup, its flags in shared memory.
#include "cambi_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
const int kFilter = kMaskFilterSize;

layout(push_constant) uniform Params {
    uint offset;  // the loaded picture in `work`
    uint width, height;
    uint threshold;
    uint mask_offset;
} p;

const int kHalf = kFilter / 2;
const int kTile = 16 + 2 * kHalf;
shared uint flat_flags[kTile * kTile];

uint at(int x, int y) { return uint(work.v[p.offset + uint(y) * p.width + uint(x)]); }

void main()
{
    const int x0 = int(gl_WorkGroupID.x) * 16 - kHalf, y0 = int(gl_WorkGroupID.y) * 16 - kHalf;
    const int w = int(p.width), h = int(p.height);
    for (uint i = gl_LocalInvocationIndex; i < uint(kTile * kTile); i += 256u) {
        const int x = x0 + int(i % uint(kTile)), y = y0 + int(i / uint(kTile));
        uint f = 0u;
        if (x >= 0 && y >= 0 && x < w && y < h) {
            const uint v = at(x, y);
            const bool right = x + 1 >= w || at(x + 1, y) == v;
            const bool below = y + 1 >= h || at(x, y + 1) == v;
            f = right && below ? 1u : 0u;
        }
        flat_flags[i] = f;
    }
    barrier();
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= p.width || y >= p.height) return;
    const uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint sum = 0u;
    for (int dy = 0; dy < kFilter; dy++)
        for (int dx = 0; dx < kFilter; dx++) sum += flat_flags[(ly + uint(dy)) * uint(kTile) + lx + uint(dx)];
    mask.v[p.mask_offset + y * p.width + x] = uint8_t(sum > p.threshold ? 1u : 0u);
}
