#version 450
// CAMBI, step 6 (per scale): the exact sum, in units of 2^-24, of the
// c-values above the selected bin (a 64-bit partial per workgroup, added by
// the last step), and the histogram of the lower 16 bits of those in it.
// Each thread takes kPer adjacent values and counts runs of equal ones with
// one atomic, as banded areas repeat the same value.
#include "cambi_common.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Params {
    uint cvalue_offset, count;
    uint slot;
    uint partial_offset;
} p;

const uint kPer = 16u;
shared int64_t part[256];

void main()
{
    const uint t = gl_LocalInvocationID.x;
    const int bin = int(counts.v[sel_index(p.slot, 0u)]);
    const uint first = (gl_WorkGroupID.x * 256u + t) * kPer;
    const uint last = min(first + kPer, p.count);
    int64_t total = 0;
    uint run_low = 0u, run = 0u;
    for (uint i = first; i < last; i++) {
        const uint bits = floatBitsToUint(cvalues.v[p.cvalue_offset + i]);
        if (bits == 0u) continue;
        const int b = int(bits >> 16) - int(kTopBase);
        if (b > bin) {
            total += units_of(bits);
        } else if (b == bin) {
            const uint low = bits & 0xffffu;
            if (run != 0u && low != run_low) {
                atomicAdd(counts.v[low_index(p.slot, run_low)], run);
                run = 0u;
            }
            run_low = low;
            run++;
        }
    }
    if (run != 0u) atomicAdd(counts.v[low_index(p.slot, run_low)], run);
    part[t] = total;
    barrier();
    for (uint n = 128u; n > 0u; n >>= 1) {
        if (t < n) part[t] += part[t + n];
        barrier();
    }
    if (t == 0u) partials.v[p.partial_offset + gl_WorkGroupID.x] = part[0];
}
