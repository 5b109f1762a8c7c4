#version 450
// PSNR-HVS: each block's step (psnr_hvs_sum.glsl) in the binades the plane's
// serial float sum may be in when it reaches the block: kHvsCandidates of them
// from the lowest one the estimate allows (its prefix in double, less the
// worst relative error of k float additions, k * 2^-24). One thread per block,
// all planes in one flat range.
//
// Summary of a block (kHvsSummaryWords uints): word 0 the lowest binade, with
// bit 31 set when the block's errors are all zero; then each binade's step.
#include "psnr_hvs_tables.glsl"
#include "psnr_hvs_sum.glsl"

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Terms { float v[]; } terms;
layout(std430, set = 0, binding = 1) readonly buffer Sums { double v[]; } sums;
layout(std430, set = 0, binding = 2) writeonly buffer Summaries { uint v[]; } summaries;

layout(push_constant) uniform Params {
    uvec4 first_block;  // each plane's first block (x, y, z)
    uint total_blocks;
} p;

void main()
{
    const uint block = gl_GlobalInvocationID.x;
    if (block >= p.total_blocks) return;
    const uint plane = block >= p.first_block.z ? 2u : block >= p.first_block.y ? 1u : 0u;
    const double before = sums.v[p.total_blocks + block];
    const double terms_before = double(block - p.first_block[plane]) * 64.0;
    const double low = before * (1.0 - min(0.5, (terms_before + 64.0) * (1.0 / 16777216.0)));
    const uint lowest = max(sum_binade(floatBitsToUint(float(low))), 1u);
    uvec2 st[kHvsCandidates];
    for (int c = 0; c < kHvsCandidates; c++) st[c] = kStepIdentity;
    for (uint k = 0; k < 64; k++) {
        const float t = terms.v[k * p.total_blocks + block];
        for (int c = 0; c < kHvsCandidates; c++) st[c] = step_then(st[c], term_step(t, lowest + uint(c)));
    }
    const uint base = block * kHvsSummaryWords;
    summaries.v[base] = lowest | (sums.v[block] == 0.0 ? kParityBit : 0u);
    for (int c = 0; c < kHvsCandidates; c++) {
        summaries.v[base + 1 + 2 * c] = st[c].x;
        summaries.v[base + 2 + 2 * c] = st[c].y;
    }
}
