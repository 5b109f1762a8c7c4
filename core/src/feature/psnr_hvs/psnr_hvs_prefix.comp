// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// PSNR-HVS: where each plane's serial float sum stands before each run of
// kRun blocks, approximately: the exclusive prefix sums, in double, of the
// blocks' sums (psnr_hvs_blocks.comp), one per run; psnr_hvs_steps.comp adds
// the run's own earlier blocks and picks from that the binades it works each
// block out for. An estimate a little off only costs time
// (psnr_hvs_walk.comp then takes that block term by term), never exactness.
//
// Two dispatches (push constant `pass`):
//   0. each run's sum: a workgroup takes kRunsPerGroup runs (x) of a plane (z),
//      64 threads a run, added as a tree;
//   1. one workgroup per plane (z): each thread takes a span of consecutive
//      runs, the workgroup scans the spans' totals, and each thread turns its
//      runs' sums into their exclusive prefixes, in place.
layout(local_size_x = 256) in;

// Block sums, then (from total_blocks) a value per run: its sum, then its prefix.
layout(std430, set = 0, binding = 0) buffer Sums { double v[]; } sums;

const uint kRun = 64;  // psnr_hvs_steps.comp's workgroup
const uint kRunsPerGroup = gl_WorkGroupSize.x / kRun;

struct Plane {
    uint first_block, blocks, first_run, pad_;
};
layout(push_constant) uniform Params {
    Plane plane[3];
    uint total_blocks;  // where the runs' values start in `sums`
    uint pass;
} p;

shared double part[gl_WorkGroupSize.x];

void main()
{
    const Plane pl = p.plane[gl_WorkGroupID.z];
    const uint lane = gl_LocalInvocationID.x;
    const uint runs = (pl.blocks + kRun - 1) / kRun;
    if (p.pass == 0u) {
        if (gl_WorkGroupID.x * kRunsPerGroup >= runs) return;  // past this plane's end (whole workgroups)
        const uint b = gl_WorkGroupID.x * gl_WorkGroupSize.x + lane;
        part[lane] = b < pl.blocks ? sums.v[pl.first_block + b] : 0.0;
        barrier();
        for (uint w = 1u; w < kRun; w *= 2u) {
            if ((lane & (2u * w - 1u)) == 0u) part[lane] += part[lane + w];
            barrier();
        }
        const uint run = gl_WorkGroupID.x * kRunsPerGroup + lane / kRun;
        if (lane % kRun == 0u && run < runs) sums.v[p.total_blocks + pl.first_run + run] = part[lane];
        return;
    }
    const uint per_lane = (runs + gl_WorkGroupSize.x - 1) / gl_WorkGroupSize.x;
    const uint begin = min(lane * per_lane, runs), end = min(begin + per_lane, runs);
    const uint at0 = p.total_blocks + pl.first_run;
    double total = 0.0;
    for (uint r = begin; r < end; r++) total += sums.v[at0 + r];
    part[lane] = total;
    barrier();
    // Inclusive scan of the spans' totals.
    for (uint off = 1; off < gl_WorkGroupSize.x; off *= 2) {
        const double other = lane >= off ? part[lane - off] : 0.0;
        barrier();
        part[lane] += other;
        barrier();
    }
    double at = part[lane] - total;
    for (uint r = begin; r < end; r++) {
        const double s = sums.v[at0 + r];
        sums.v[at0 + r] = at;
        at += s;
    }
}
