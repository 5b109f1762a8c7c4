// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// PSNR-HVS: each block's step (psnr_hvs_sum.glsl) in the binades the plane's
// serial float sum may be in when it reaches the block: kHvsCandidates of them
// from the lowest one the estimate allows (its prefix in double, less the
// worst relative error of k float additions, k * 2^-24). One thread per block;
// a workgroup per run of kHvsRun consecutive blocks of a plane (x: the run, z:
// the plane), which also composes its blocks' steps into the run's step, for
// the kHvsCandidates binades from the highest of its blocks' lowest ones
// (psnr_hvs_walk.comp takes whole runs at once).
//
// Summary of a block or a run (kHvsSummaryWords uints): word 0 the lowest
// binade, with bit 31 set when the errors are all zero; then each binade's
// step (kStepLeave where a block has none for it).
#include "psnr_hvs_tables.glsl"
#include "psnr_hvs_sum.glsl"

layout(local_size_x = 64) in;  // kHvsRun

layout(std430, set = 0, binding = 0) readonly buffer Terms { float v[]; } terms;
layout(std430, set = 0, binding = 1) readonly buffer Sums { double v[]; } sums;
layout(std430, set = 0, binding = 2) writeonly buffer Summaries { uint v[]; } summaries;
layout(std430, set = 0, binding = 3) writeonly buffer RunSummaries { uint v[]; } run_summaries;

layout(push_constant) uniform Params {
    uvec4 first_block;  // each plane's first block (x, y, z)
    uvec4 blocks;       // each plane's block count
    uvec4 first_run;    // each plane's first run
    uint total_blocks;
} p;

shared uint head_of[gl_WorkGroupSize.x];
shared double scan_buf[gl_WorkGroupSize.x];
shared uvec2 tree[gl_WorkGroupSize.x];

void main()
{
    const uint plane = gl_WorkGroupID.z, lane = gl_LocalInvocationID.x;
    const uint run = gl_WorkGroupID.x;
    if (run * gl_WorkGroupSize.x >= p.blocks[plane]) return;  // past this plane's end (whole workgroups)
    const uint i = run * gl_WorkGroupSize.x + lane;
    const bool in_plane = i < p.blocks[plane];
    const uint block = p.first_block[plane] + i;
    uvec2 st[kHvsCandidates];
    for (int c = 0; c < kHvsCandidates; c++) st[c] = kStepIdentity;
    // The estimate before this block: the run's prefix (psnr_hvs_prefix.comp)
    // and the run's earlier blocks' sums.
    const double own = in_plane ? sums.v[block] : 0.0;
    double inclusive = own;
    scan_buf[lane] = own;
    barrier();
    for (uint off = 1u; off < gl_WorkGroupSize.x; off *= 2u) {
        const double other = lane >= off ? scan_buf[lane - off] : 0.0;
        barrier();
        inclusive += other;
        scan_buf[lane] = inclusive;
        barrier();
    }
    uint head = kParityBit;  // past the plane's end: all zero, no binade asked for
    if (in_plane) {
        const double before = sums.v[p.total_blocks + p.first_run[plane] + run] + (inclusive - own);
        const double terms_before = double(i) * 64.0;
        const double low = before * (1.0 - min(0.5, (terms_before + 64.0) * (1.0 / 16777216.0)));
        const uint lowest = max(sum_binade(floatBitsToUint(float(low))), 1u);
        for (uint k = 0; k < 64; k++) {
            const float t = terms.v[k * p.total_blocks + block];
            if (t == 0.0) continue;  // adding 0 leaves the sum as it is: the identity step in any binade
            for (int c = 0; c < kHvsCandidates; c++) st[c] = step_then(st[c], term_step(t, lowest + uint(c)));
        }
        const uint base = block * kHvsSummaryWords;
        head = lowest | (own == 0.0 ? kParityBit : 0u);
        summaries.v[base] = head;
        for (int c = 0; c < kHvsCandidates; c++) {
            summaries.v[base + 1 + 2 * c] = st[c].x;
            summaries.v[base + 2 + 2 * c] = st[c].y;
        }
    }
    head_of[lane] = head;
    barrier();
    // The run's lowest binade: the highest of its blocks'; all zero when each is.
    uint run_low = 0u, zero = kParityBit;
    for (uint l = 0; l < gl_WorkGroupSize.x; l++) {
        run_low = max(run_low, head_of[l] & ~kParityBit);
        zero &= head_of[l];
    }
    const uint mine = head & ~kParityBit;
    uvec2 words[kHvsCandidates];
    for (int c = 0; c < kHvsCandidates; c++) {
        // This block's step in the run's binade c (none when outside its own candidates).
        uvec2 v = kStepIdentity;
        if (in_plane) {
            const uint own = run_low + uint(c) - mine;
            v = kStepLeave;
            for (int o = 0; o < kHvsCandidates; o++)
                if (own == uint(o)) v = st[o];
        }
        tree[lane] = v;
        barrier();
        // Composed in order, pairs of neighbours first.
        for (uint w = 1u; w < gl_WorkGroupSize.x; w *= 2u) {
            if ((lane & (2u * w - 1u)) == 0u) tree[lane] = step_then(tree[lane], tree[lane + w]);
            barrier();
        }
        words[c] = tree[0];
        barrier();
    }
    if (lane == 0u) {
        const uint base = (p.first_run[plane] + run) * kHvsSummaryWords;
        run_summaries.v[base] = run_low | zero;
        for (int c = 0; c < kHvsCandidates; c++) {
            run_summaries.v[base + 1 + 2 * c] = words[c].x;
            run_summaries.v[base + 2 + 2 * c] = words[c].y;
        }
    }
}
