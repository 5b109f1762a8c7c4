#version 450
// CAMBI, step 5 (per scale): the histogram of the c-values' upper 16 bits
// (zeros left out), which the select step reads. Each thread takes kPer
// adjacent values and counts runs of equal bins with one shared atomic, as
// banded areas repeat the same value; the workgroup then adds its nonzero
// bins to the scale's histogram.
#include "cambi_common.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Params {
    uint cvalue_offset, count;
    uint slot;
} p;

const uint kPer = 16u;  // as the sum step (cambi_vk.cpp: kSumPerGroup)
shared uint top[kTopBins];

void main()
{
    const uint t = gl_LocalInvocationID.x;
    for (uint i = t; i < kTopBins; i += 256u) top[i] = 0u;
    barrier();
    const uint first = (gl_WorkGroupID.x * 256u + t) * kPer;
    const uint last = min(first + kPer, p.count);
    uint run_bin = 0u, run = 0u;
    bool error = false;
    for (uint i = first; i < last; i++) {
        const uint bits = floatBitsToUint(cvalues.v[p.cvalue_offset + i]);
        if (bits == 0u) continue;
        const uint bin = (bits >> 16) - kTopBase;
        if (bin >= kTopBins) {
            error = true;
            continue;
        }
        if (run != 0u && bin != run_bin) {
            atomicAdd(top[run_bin], run);
            run = 0u;
        }
        run_bin = bin;
        run++;
    }
    if (run != 0u) atomicAdd(top[run_bin], run);
    if (error) atomicOr(counts.v[kErrorAt], kErrorCValue);
    barrier();
    for (uint i = t; i < kTopBins; i += 256u)
        if (top[i] != 0u) atomicAdd(counts.v[top_index(p.slot, i)], top[i]);
}
