// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// PSNR-HVS: each plane's serial float sum of its weighted errors, to the bit of
// the CPU's (psnr_hvs_sum.glsl), from the blocks' steps (psnr_hvs_steps.comp).
//
// One workgroup of 64 threads per plane (z). The sum goes forward in rounds,
// all threads agreeing on where it stands (the sum's bits, the next block, the
// next term); each round is one scan of steps across the threads:
//   - runs: each thread takes the step of one run of kRun consecutive blocks
//     (composed by psnr_hvs_steps.comp; runs start at multiples of kRun) in
//     the sum's binade; every run before the first one that would leave the
//     binade (or has no step for it) is taken at once;
//   - blocks: each thread takes one block, up to the next run's start; the
//     blocks before the first that would leave are taken;
//   - terms: each thread takes one of that block's remaining errors; the
//     additions before the first that leaves are taken, and that one is done
//     as a float addition, as the CPU does it; the block goes on from the next.
// The CPU's 64 * blocks additions so take about blocks / (kThreads * kRun)
// rounds, plus about three for each binade the sum passes through.
#extension GL_EXT_control_flow_attributes : require

#include "psnr_hvs_tables.glsl"
#include "psnr_hvs_sum.glsl"

layout(local_size_x = 64) in;
const uint kThreads = gl_WorkGroupSize.x;
const uint kRun = 64;  // blocks of a run: psnr_hvs_steps.comp's workgroup (at most kThreads)

layout(std430, set = 0, binding = 0) readonly buffer Terms { float v[]; } terms;
layout(std430, set = 0, binding = 1) readonly buffer Summaries { uint v[]; } summaries;
layout(std430, set = 0, binding = 2) writeonly buffer Sums { uint v[]; } out_sums;
layout(std430, set = 0, binding = 3) readonly buffer RunSummaries { uint v[]; } run_summaries;

layout(push_constant) uniform Params {
    uvec4 first_block;  // each plane's first block (x, y, z)
    uvec4 blocks;       // each plane's block count
    uvec4 first_run;    // each plane's first run
    uint total_blocks;  // term k of block b is at k * total_blocks + b
    uint out_index;     // where plane 0's sum goes in out_sums; the others follow
} p;

shared uvec2 scan_buf[kThreads];
shared uvec2 suffix_buf[kThreads];
shared uint first_out;

// A block's step in `binade`: kStepLeave when it has none for it.
uvec2 block_step(uint block, uint binade)
{
    const uint base = block * kHvsSummaryWords;
    const uint head = summaries.v[base];
    if (binade == 0u) return (head & kParityBit) != 0u ? kStepIdentity : kStepLeave;  // a sum still 0
    const uint c = binade - (head & ~kParityBit);
    if (c >= uint(kHvsCandidates)) return kStepLeave;  // also binade < lowest (wraps)
    return uvec2(summaries.v[base + 1 + 2 * c], summaries.v[base + 2 + 2 * c]);
}

// The same for a run of blocks.
uvec2 run_step(uint run, uint binade)
{
    const uint base = run * kHvsSummaryWords;
    const uint head = run_summaries.v[base];
    if (binade == 0u) return (head & kParityBit) != 0u ? kStepIdentity : kStepLeave;
    const uint c = binade - (head & ~kParityBit);
    if (c >= uint(kHvsCandidates)) return kStepLeave;
    return uvec2(run_summaries.v[base + 1 + 2 * c], run_summaries.v[base + 2 + 2 * c]);
}

// A term's step in `binade` (0: the sum is still 0, which only zero keeps).
uvec2 add_step(float t, uint binade)
{
    if (binade == 0u) return t == 0.0 ? kStepIdentity : kStepLeave;
    return term_step(t, binade);
}

// Scans the threads' steps from a sum of `units`: returns how many threads'
// steps are taken (those before the first whose scanned step leaves the
// binade; kThreads when none does) and sets *units to the sum after them.
// With `suffix`, also scans the threads' steps `w` from the end: suffix_buf[i]
// is then thread i's step followed by all later threads' steps.
uint scan_steps(uvec2 v, inout uint units, bool suffix, uvec2 w)
{
    const uint lane = gl_LocalInvocationID.x;
    barrier();  // the previous round's readers are done
    scan_buf[lane] = v;
    if (suffix) suffix_buf[lane] = w;
    if (lane == 0u) first_out = kThreads;
    barrier();
    [[unroll]] for (uint off = 1u; off < kThreads; off *= 2u) {
        const uvec2 before = lane >= off ? scan_buf[lane - off] : kStepIdentity;
        uvec2 after = kStepIdentity;
        if (suffix && lane + off < kThreads) after = suffix_buf[lane + off];
        barrier();
        v = step_then(before, v);
        scan_buf[lane] = v;
        if (suffix) {
            w = step_then(w, after);
            suffix_buf[lane] = w;
        }
        barrier();
    }
    if (units + step_inc(v, units & 1u) >= kBinadeTop) atomicMin(first_out, lane);
    barrier();
    const uint taken = first_out;
    if (taken > 0u) units += step_inc(scan_buf[taken - 1u], units & 1u);
    return taken;
}

void main()
{
    const uint plane = gl_WorkGroupID.z;
    const uint lane = gl_LocalInvocationID.x;
    const uint first = p.first_block[plane], blocks = p.blocks[plane];
    uint s = 0u;      // the sum so far, as float bits
    uint block = 0u;  // the next block (of this plane)
    uint term = 0u;   // the next term in it
    // 0: runs of blocks, 1: single blocks (to a run's start, or in a leaving run),
    // 2: terms (a leaving block)
    uint level = 0u;
    while (block < blocks) {
        const uint binade = sum_binade(s);
        uint units = binade == 0u ? 0u : sum_units(s);
        if (level == 0u) {
            // At a run's start: one run per thread.
            const uint start = block + lane * kRun;
            const uvec2 run = start < blocks ? run_step(p.first_run[plane] + start / kRun, binade) : kStepIdentity;
            const uint taken = scan_steps(run, units, false, kStepIdentity);
            block = min(blocks, block + taken * kRun);
            if (taken < kThreads) level = 1u;
        } else if (level == 1u) {
            // Single blocks up to the next run's start (or the plane's end).
            const uint count = min(kRun - block % kRun, blocks - block);
            const uvec2 st = lane < count ? block_step(first + block + lane, binade) : kStepIdentity;
            const uint taken = scan_steps(st, units, false, kStepIdentity);
            if (taken >= count) {
                block += count;  // none leaves: on with whole runs
                level = 0u;
            } else {
                block += taken;
                level = 2u;
                term = 0u;
            }
        } else {
            // Also scanned from the end in the next binade up, where the sum
            // usually goes: the terms after the leaving one then take no round
            // of their own unless the sum leaves that binade too.
            const uint k = term + lane;
            const uint at = first + block;
            const float t = k < 64u ? terms.v[k * p.total_blocks + at] : 0.0;
            const uvec2 st = k < 64u ? add_step(t, binade) : kStepIdentity;
            const bool ahead = binade != 0u;
            const uvec2 st_up = k < 64u && ahead ? term_step(t, binade + 1u) : kStepIdentity;
            const uint taken = scan_steps(st, units, ahead, st_up);
            if (binade != 0u) s = sum_bits(binade, units);
            if (term + taken >= 64u) {
                term = 64u;
            } else {
                // The addition that leaves the binade, as the CPU does it.
                const uint leaving = term + taken;
                const precise float sum = uintBitsToFloat(s) + terms.v[leaving * p.total_blocks + at];
                s = floatBitsToUint(sum);
                term = leaving + 1u;
                if (ahead && term < 64u && sum_binade(s) == binade + 1u) {
                    const uint up_units = sum_units(s);
                    const uint rest = up_units + step_inc(suffix_buf[taken + 1u], up_units & 1u);
                    if (rest < kBinadeTop) {
                        s = sum_bits(binade + 1u, rest);
                        term = 64u;
                    }
                }
            }
            if (term == 64u) {
                block++;
                term = 0u;
                level = block % kRun == 0u ? 0u : 1u;
            }
            continue;
        }
        if (binade != 0u) s = sum_bits(binade, units);
    }
    if (lane == 0u) out_sums.v[p.out_index + plane] = s;
}
