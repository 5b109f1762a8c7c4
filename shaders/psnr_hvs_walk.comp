#version 450
// PSNR-HVS: each plane's serial float sum of its weighted errors, to the bit of
// the CPU's (psnr_hvs_sum.glsl), from the blocks' steps (psnr_hvs_steps.comp).
//
// One workgroup per plane (z). The sum goes forward in rounds, all threads
// agreeing on where it stands (the sum's bits, the next block, the next term):
//   - at a block boundary, each thread takes kRun consecutive blocks and
//     composes their steps in the sum's binade; a scan across the threads gives
//     the sum after every run, and every run before the first one that leaves
//     the binade (or that has no step for it) is taken at once. Within that
//     run, the blocks before the one that leaves are taken too.
//   - in a block that leaves the binade, each thread takes one of the block's
//     remaining errors: the scan finds the first addition that leaves, which
//     is then done as a float addition; the block goes on from the next term.
// The CPU's 64 * blocks additions so take about blocks / (kRun * threads)
// rounds, plus a round or two for each binade the sum passes through.
#include "psnr_hvs_tables.glsl"
#include "psnr_hvs_sum.glsl"

layout(local_size_x = 256) in;
const uint kThreads = gl_WorkGroupSize.x;
const uint kRun = 8;

layout(std430, set = 0, binding = 0) readonly buffer Terms { float v[]; } terms;
layout(std430, set = 0, binding = 1) readonly buffer Summaries { uint v[]; } summaries;
layout(std430, set = 0, binding = 2) writeonly buffer Sums { uint v[]; } out_sums;

layout(push_constant) uniform Params {
    uvec4 first_block;  // each plane's first block (x, y, z)
    uvec4 blocks;       // each plane's block count
    uint out_index;     // where plane 0's sum goes in out_sums; the others follow
} p;

shared uvec2 scan_buf[kThreads];
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

// A term's step in `binade` (0: the sum is still 0, which only zero keeps).
uvec2 add_step(float t, uint binade)
{
    if (binade == 0u) return t == 0.0 ? kStepIdentity : kStepLeave;
    return term_step(t, binade);
}

// The inclusive scan of the threads' steps; first_out is the first thread whose
// scanned step takes `units` out of the binade (kThreads when none does).
uvec2 scan_steps(uvec2 v, uint units)
{
    const uint lane = gl_LocalInvocationID.x;
    barrier();  // the previous round's readers are done
    scan_buf[lane] = v;
    if (lane == 0u) first_out = kThreads;
    barrier();
    for (uint off = 1u; off < kThreads; off *= 2u) {
        const uvec2 before = lane >= off ? scan_buf[lane - off] : kStepIdentity;
        barrier();
        v = step_then(before, v);
        scan_buf[lane] = v;
        barrier();
    }
    if (units + step_inc(v, units & 1u) >= kBinadeTop) atomicMin(first_out, lane);
    barrier();
    return v;
}

void main()
{
    const uint plane = gl_WorkGroupID.z;
    const uint lane = gl_LocalInvocationID.x;
    const uint first = p.first_block[plane], blocks = p.blocks[plane];
    uint s = 0u;      // the sum so far, as float bits
    uint block = 0u;  // the next block (of this plane)
    uint term = 0u;   // the next term in it; 64 > term > 0: within the block
    bool in_block = false;  // take the block term by term
    while (block < blocks) {
        const uint binade = sum_binade(s);
        const uint units = binade == 0u ? 0u : sum_units(s);
        if (!in_block) {
            // Runs of kRun blocks per thread.
            uvec2 run = kStepIdentity;
            const uint start = block + lane * kRun;
            for (uint r = 0u; r < kRun; r++)
                if (start + r < blocks) run = step_then(run, block_step(first + start + r, binade));
            scan_steps(run, units);
            const uint out_lane = first_out;
            uint at = units;
            if (out_lane > 0u) at += step_inc(scan_buf[out_lane - 1u], units & 1u);
            if (out_lane == kThreads) {
                block = min(blocks, block + kThreads * kRun);
            } else {
                // The leaving run's blocks before the one that leaves.
                block += out_lane * kRun;
                for (;;) {
                    const uvec2 st = block_step(first + block, binade);
                    if (at + step_inc(st, at & 1u) >= kBinadeTop) break;
                    at += step_inc(st, at & 1u);
                    block++;
                }
                in_block = true;
                term = 0u;
            }
            if (binade != 0u) s = sum_bits(binade, at);
        } else {
            // The block's remaining terms, one per thread.
            const uint k = term + lane;
            const uvec2 st = k < 64u ? add_step(terms.v[(first + block) * 64u + k], binade) : kStepIdentity;
            scan_steps(st, units);
            const uint out_lane = first_out;
            uint at = units;
            if (out_lane > 0u) at += step_inc(scan_buf[out_lane - 1u], units & 1u);
            if (binade != 0u) s = sum_bits(binade, at);
            if (out_lane == kThreads) {
                term = 64u;
            } else {
                // The addition that leaves the binade, as the CPU does it.
                const uint leaving = term + out_lane;
                const precise float sum = uintBitsToFloat(s) + terms.v[(first + block) * 64u + leaving];
                s = floatBitsToUint(sum);
                term = leaving + 1u;
            }
            if (term == 64u) {
                block++;
                term = 0u;
                in_block = false;
            }
        }
    }
    if (lane == 0u) out_sums.v[p.out_index + plane] = s;
}
