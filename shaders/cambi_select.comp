#version 450
// CAMBI, step 5 (every slot, a workgroup each): which c-values the pooling
// takes. The k largest of a scale are those whose upper 16 bits (non-negative
// floats order as their bits) lie above the bin of the k-th largest, and the
// r largest of that bin. This finds the bin from the top histogram (kSelBin,
// -1 when the k-th largest is a zero) and r; the sum pass then adds the
// values above the bin and histograms the lower 16 bits of those in it. It
// also keeps the biased exponent of the smallest nonzero value pooled, which
// the host needs for libvmaf's exactness rule (cambi_pool.h).
#include "cambi_common.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Params {
    uint k[kSlots];  // values pooled per slot
} p;

const uint kPer = kTopBins / 256u;
shared uint chunk[256];

void main()
{
    const uint s = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
    uint total = 0u;
    for (uint i = 0u; i < kPer; i++) total += counts.v[top_index(s, t * kPer + i)];
    chunk[t] = total;
    barrier();
    if (t != 0u) return;
    const uint k = p.k[s];
    uint above = 0u;
    int bin = -1;
    for (int c = 255; c >= 0 && bin < 0; c--) {
        if (above + chunk[c] < k) {
            above += chunk[c];
            continue;
        }
        for (int b = c * int(kPer) + int(kPer) - 1;; b--) {
            const uint n = counts.v[top_index(s, uint(b))];
            if (above + n >= k) {
                bin = b;
                break;
            }
            above += n;
        }
    }
    // The smallest nonzero value pooled: in the bin, or (all nonzero values
    // pooled) the lowest nonzero bin.
    int low = bin;
    if (low < 0) {
        for (uint c = 0u; c < 256u && low < 0; c++) {
            if (chunk[c] == 0u) continue;
            for (uint b = c * kPer;; b++)
                if (counts.v[top_index(s, b)] != 0u) {
                    low = int(b);
                    break;
                }
        }
    }
    counts.v[sel_index(s, 0u)] = uint(bin);
    counts.v[sel_index(s, 1u)] = bin < 0 ? 0u : k - above;
    counts.v[sel_index(s, 2u)] = low < 0 ? 0u : ((uint(low) + kTopBase) >> 7) & 0xffu;
}
