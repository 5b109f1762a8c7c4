// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// CAMBI, step 5 (every scale): the histogram of the c-values' upper 16 bits
// (zeros left out); then, in the last workgroup, the selection of the values
// the pooling takes.
//
// Histogram: the workgroup stages its block of kPer x 256 values in shared
// memory (loads by consecutive threads); each thread then takes kPer
// adjacent ones and counts runs of equal bins with one shared atomic, as
// banded areas repeat the same value; the workgroup adds its nonzero bins to
// the scale's histogram.
//
// Selection: the k largest of a scale are those whose upper 16 bits
// (non-negative floats order as their bits) lie above the bin of the k-th
// largest, and the r largest of that bin. The last workgroup finds the bin
// (kSelBin, -1 when the k-th largest is a zero) and r; the sum pass then adds
// the values above the bin and histograms the lower 16 bits of those in it.
// It also keeps the biased exponent of the smallest nonzero value pooled,
// which the host needs for libvmaf's exactness rule (cambi_pool.h). Thread t
// counts chunk t (kChunk bins); a scan gives every chunk the count of the
// values from it up, so the one chunk that holds the k-th largest is known at
// once, and only its thread walks bins.
#extension GL_EXT_control_flow_attributes : require
#include "cambi_common.glsl"
#include "cambi_last.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Params {
    uint slots;       // in use
    uint error_word;  // this frame's (cambi_gpu_layout.h: kErrorAt)
} p;

const uint kPer = kValuesPerThread;
const uint kRowWords = kPer + 1u;  // a thread's values, one word apart from the next's: no bank conflicts
shared uint block[256u * kRowWords];
shared uint top[kTopBins];

void histogram(SlotJob job)
{
    const uint t = gl_LocalInvocationID.x;
    for (uint i = t; i < kTopBins; i += 256u) top[i] = 0u;
    const uint first = (gl_WorkGroupID.x - job.first) * 256u * kPer;
    [[unroll]] for (uint n = 0u; n < kPer; n++) {
        const uint j = n * 256u + t, i = first + j;
        block[(j / kPer) * kRowWords + j % kPer] = i < job.count ? floatBitsToUint(cvalues.v[job.cvalue_offset + i]) : 0u;
    }
    barrier();
    uint run_bin = 0u, run = 0u;
    bool error = false;
    [[unroll]] for (uint n = 0u; n < kPer; n++) {
        const uint bits = block[t * kRowWords + n];
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
    if (error) atomicOr(counts.v[kErrorAt + p.error_word], kErrorCValue);
    barrier();
    for (uint i = t; i < kTopBins; i += 256u)
        if (top[i] != 0u) atomicAdd(counts.v[top_index(job.slot, i)], top[i]);
}

const uint kChunk = kTopBins / 256u;
shared uint from[256];  // values in chunks t and above
shared int chosen_bin;
shared uint chosen_r;
shared uint lowest;     // the lowest chunk with a nonzero value; 256: none

void write_selection(uint s, int bin, uint r, int low)
{
    counts.v[sel_index(s, 0u)] = uint(bin);
    counts.v[sel_index(s, 1u)] = r;
    counts.v[sel_index(s, 2u)] = low < 0 ? 0u : ((uint(low) + kTopBase) >> 7) & 0xffu;
}

void select_values(uint s, uint k)
{
    const uint t = gl_LocalInvocationID.x;
    uint own = 0u;
    for (uint i = 0u; i < kChunk; i++) own += counts_now.v[top_index(s, t * kChunk + i)];
    from[t] = own;
    if (t == 0u) {
        chosen_bin = -1;
        chosen_r = 0u;
        lowest = 256u;
    }
    barrier();
    if (own != 0u) atomicMin(lowest, t);
    for (uint d = 1u; d < 256u; d <<= 1) {
        const uint add = t + d < 256u ? from[t + d] : 0u;
        barrier();
        from[t] += add;
        barrier();
    }
    // The chunk of the k-th largest: those above it hold fewer than k values,
    // it and those above at least k.
    if (from[t] >= k && (t == 255u || from[t + 1u] < k)) {
        uint above = t == 255u ? 0u : from[t + 1u];
        for (int b = int(t * kChunk + kChunk) - 1;; b--) {
            const uint n = counts_now.v[top_index(s, uint(b))];
            if (above + n >= k) {
                chosen_bin = b;
                chosen_r = k - above;
                break;
            }
            above += n;
        }
    }
    barrier();
    const int bin = chosen_bin;
    if (bin >= 0) {
        // The smallest nonzero value pooled is in the bin.
        if (t == 0u) write_selection(s, bin, chosen_r, bin);
        return;
    }
    // Every nonzero value is pooled: the smallest is in the lowest nonzero bin.
    if (lowest == 256u) {
        if (t == 0u) write_selection(s, -1, 0u, -1);
    } else if (t == lowest) {
        for (uint b = t * kChunk;; b++)
            if (counts_now.v[top_index(s, b)] != 0u) {
                write_selection(s, -1, 0u, int(b));
                break;
            }
    }
}

void main()
{
    const SlotJob job = slot_job(p.slots);
    histogram(job);
    if (last_to_arrive(job, kSelTopDone)) select_values(job.slot, job.k);
}
