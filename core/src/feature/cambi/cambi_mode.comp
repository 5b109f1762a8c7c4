// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// CAMBI, step 3 (per scale): the scale's picture (the previous scale's
// filtered picture, or the loaded one, taken every `step` samples), its 3x3
// separable mode filter (first and last rows as they are, end columns of the
// horizontal pass copied), and the histogram key of every sample: sample -
// band base where the mask (the encode-size mask at (x, y) << mask_shift) is
// set and the sample is in the band, else kNoKey. Each workgroup also
// writes the smallest and largest key of its 16x16 tile (kNoKey and 0 where it
// has none), which the c-value step reads to size its histograms.
#include "cambi_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(push_constant) uniform Params {
    uint in_offset, in_stride, step;
    uint width, height;          // of this scale
    uint out_offset, key_offset;
    uint mask_offset, mask_stride, mask_shift;
    uint band_base, band_size;
    uint tile_offset;            // the tiles' key ranges in `work` (lo, hi per tile, row-major)
} p;

shared uint part_lo[256], part_hi[256];
shared uint tile_lo, tile_hi;

uint at(uint x, uint y) { return uint(work.v[p.in_offset + y * p.step * p.in_stride + x * p.step]); }

// The most common of three, or the smallest when all differ.
uint mode3(uint a, uint b, uint c)
{
    uint r = min(min(a, b), c);
    r = b == c ? b : r;
    return a == b || a == c ? a : r;
}

uint row_mode(uint x, uint y)
{
    if (x == 0u || x + 1u >= p.width) return at(x, y);
    return mode3(at(x - 1u, y), at(x, y), at(x + 1u, y));
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    const uint t = gl_LocalInvocationIndex;
    uint key = kNoKey;
    if (x < p.width && y < p.height) {
        uint v;
        if (y == 0u || y + 1u >= p.height)
            v = at(x, y);
        else
            v = mode3(row_mode(x, y - 1u), row_mode(x, y), row_mode(x, y + 1u));
        work.v[p.out_offset + y * p.width + x] = uint16_t(v);
        const bool masked =
            uint(mask.v[p.mask_offset + (y << p.mask_shift) * p.mask_stride + (x << p.mask_shift)]) != 0u;
        const uint compact = v - p.band_base;  // wraps below the band
        key = masked && compact < p.band_size ? compact : kNoKey;
        work.v[p.key_offset + y * p.width + x] = uint16_t(key);
    }
    // The tile's key range: per row of 16, then over the rows.
    part_lo[t] = key;
    part_hi[t] = key == kNoKey ? 0u : key;
    if (t == 0u) {
        tile_lo = kNoKey;
        tile_hi = 0u;
    }
    barrier();
    if (t < 16u) {
        uint l = kNoKey, h = 0u;
        for (uint i = 0u; i < 16u; i++) {
            l = min(l, part_lo[t * 16u + i]);
            h = max(h, part_hi[t * 16u + i]);
        }
        atomicMin(tile_lo, l);
        atomicMax(tile_hi, h);
    }
    barrier();
    if (t == 0u) {
        const uint i = p.tile_offset + 2u * (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
        work.v[i] = uint16_t(tile_lo);
        work.v[i + 1u] = uint16_t(tile_hi);
    }
}
