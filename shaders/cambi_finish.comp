#version 450
// CAMBI, step 7 (every slot, a workgroup each): the exact sum of the k
// largest c-values in units of 2^-24: the sum pass's partials plus the r
// largest values of the selected bin, from its lower-16-bit histogram. The
// result per slot (cambi_vk.cpp: ScaleResult): the sum's two words, the
// biased exponent of the smallest nonzero value pooled (0: none), and the
// error bits.
#include "cambi_common.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Params {
    uint partial_offset[kSlots];
    uint partial_count[kSlots];
    uint result_index;  // words into `results`
} p;

const uint kPer = kLowBins / 256u;
shared uint chunk[256];
shared int64_t part[256];
shared int boundary;
shared uint boundary_above;

void main()
{
    const uint s = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
    const int bin = int(counts.v[sel_index(s, 0u)]);
    const uint r = counts.v[sel_index(s, 1u)];
    int64_t total = 0;
    for (uint i = t; i < p.partial_count[s]; i += 256u) total += partials.v[p.partial_offset[s] + i];

    if (bin >= 0) {
        // Chunk t holds bins [t kPer, (t + 1) kPer); the largest values come first
        // from the top chunk down.
        uint n = 0u;
        for (uint i = 0u; i < kPer; i++) n += counts.v[low_index(s, t * kPer + i)];
        chunk[t] = n;
        barrier();
        if (t == 0u) {
            uint above = 0u;
            int c = 255;
            for (; c >= 0; c--) {
                if (above + chunk[c] >= r) break;
                above += chunk[c];
            }
            boundary = c;
            boundary_above = above;
        }
        barrier();
        const uint high = (uint(bin) + kTopBase) << 16;
        if (int(t) > boundary) {
            for (uint i = 0u; i < kPer; i++) {
                const uint b = t * kPer + i;
                total += int64_t(counts.v[low_index(s, b)]) * units_of(high | b);
            }
        } else if (int(t) == boundary) {
            uint left = r - boundary_above;
            for (int i = int(kPer) - 1; i >= 0 && left > 0u; i--) {
                const uint b = t * kPer + uint(i);
                const uint take = min(counts.v[low_index(s, b)], left);
                total += int64_t(take) * units_of(high | b);
                left -= take;
            }
        }
    }
    part[t] = total;
    barrier();
    for (uint n = 128u; n > 0u; n >>= 1) {
        if (t < n) part[t] += part[t + n];
        barrier();
    }
    if (t == 0u) {
        const uint at = p.result_index + s * 4u;
        const uint64_t v = uint64_t(part[0]);
        results.v[at] = uint(v);
        results.v[at + 1u] = uint(v >> 32);
        results.v[at + 2u] = counts.v[sel_index(s, 2u)];
        results.v[at + 3u] = counts.v[kErrorAt];
    }
}
