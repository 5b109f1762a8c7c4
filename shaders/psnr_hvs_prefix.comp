#version 450
// PSNR-HVS: where each plane's serial float sum stands before each block,
// approximately: the exclusive prefix sums, in double, of the blocks' sums
// (psnr_hvs_blocks.comp). psnr_hvs_steps.comp picks from it the binades it
// works each block out for; an estimate a little off only costs time
// (psnr_hvs_walk.comp then takes that block term by term), never exactness.
//
// One workgroup per plane (z): each thread adds a run of consecutive blocks,
// the workgroup scans the runs' totals, and each thread writes its run's prefixes.
layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) buffer Sums { double v[]; } sums;  // block sums, then prefixes

struct Plane {
    uint first_block, blocks, pad0_, pad1_;
};
layout(push_constant) uniform Params {
    Plane plane[3];
    uint total_blocks;  // where the prefixes start in `sums`
} p;

shared double run_total[gl_WorkGroupSize.x];

void main()
{
    const Plane pl = p.plane[gl_WorkGroupID.z];
    const uint lane = gl_LocalInvocationID.x;
    const uint per_lane = (pl.blocks + gl_WorkGroupSize.x - 1) / gl_WorkGroupSize.x;
    const uint begin = min(lane * per_lane, pl.blocks), end = min(begin + per_lane, pl.blocks);
    double total = 0.0;
    for (uint b = begin; b < end; b++) total += sums.v[pl.first_block + b];
    run_total[lane] = total;
    barrier();
    // Inclusive scan of the runs' totals.
    for (uint off = 1; off < gl_WorkGroupSize.x; off *= 2) {
        const double other = lane >= off ? run_total[lane - off] : 0.0;
        barrier();
        run_total[lane] += other;
        barrier();
    }
    double at = run_total[lane] - total;
    for (uint b = begin; b < end; b++) {
        const double s = sums.v[pl.first_block + b];
        sums.v[p.total_blocks + pl.first_block + b] = at;
        at += s;
    }
}
