// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// CAMBI, step 6 (every scale): the exact sum, in units of 2^-24, of the
// c-values above the selected bin (a 64-bit partial per workgroup), and the
// histogram of the lower 16 bits of those in it; then, in the last
// workgroup of each slot, the slot's result.
//
// Sum: each thread takes kPer adjacent values and counts runs of equal ones
// with one atomic, as banded areas repeat the same value.
//
// Result (cambi_vk.cpp: ScaleResult): the exact sum of the k largest, the
// partials plus the r largest values of the selected bin from its
// lower-16-bit histogram; the biased exponent of the smallest nonzero value
// pooled (0: none), and the error bits.
#include "cambi_common.glsl"
#include "cambi_last.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Params {
    uint slots;         // in use
    uint result_index;  // words into `results`
    uint error_word;    // this frame's (cambi_gpu_layout.h: kErrorAt)
} p;

const uint kPer = kValuesPerThread;
shared int64_t part[256];

// The workgroup's total, in thread 0.
int64_t add_up(int64_t v)
{
    const uint t = gl_LocalInvocationID.x;
    part[t] = v;
    barrier();
    for (uint n = 128u; n > 0u; n >>= 1) {
        if (t < n) part[t] += part[t + n];
        barrier();
    }
    return part[0];
}

void sum_above(SlotJob job, int bin)
{
    const uint t = gl_LocalInvocationID.x;
    const uint first = ((gl_WorkGroupID.x - job.first) * 256u + t) * kPer;
    const uint last = min(first + kPer, job.count);
    int64_t total = 0;
    uint run_low = 0u, run = 0u;
    for (uint i = first; i < last; i++) {
        const uint bits = floatBitsToUint(cvalues.v[job.cvalue_offset + i]);
        if (bits == 0u) continue;
        const int b = int(bits >> 16) - int(kTopBase);
        if (b > bin) {
            total += units_of(bits);
        } else if (b == bin) {
            const uint low = bits & 0xffffu;
            if (run != 0u && low != run_low) {
                atomicAdd(counts.v[low_index(job.slot, run_low)], run);
                run = 0u;
            }
            run_low = low;
            run++;
        }
    }
    if (run != 0u) atomicAdd(counts.v[low_index(job.slot, run_low)], run);
    const int64_t sum = add_up(total);
    if (t == 0u) partials.v[gl_WorkGroupID.x] = sum;
}

const uint kChunk = kLowBins / 256u;
shared uint chunk[256];
shared int boundary;
shared uint boundary_above;

void pool(SlotJob job, int bin)
{
    const uint s = job.slot;
    const uint t = gl_LocalInvocationID.x;
    const uint r = counts_now.v[sel_index(s, 1u)];
    int64_t total = 0;
    for (uint i = t; i < job.groups; i += 256u) total += partials_now.v[job.first + i];

    if (bin >= 0) {
        // Chunk t holds bins [t kChunk, (t + 1) kChunk); the largest values
        // come first from the top chunk down.
        uint n = 0u;
        for (uint i = 0u; i < kChunk; i++) n += counts_now.v[low_index(s, t * kChunk + i)];
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
            for (uint i = 0u; i < kChunk; i++) {
                const uint b = t * kChunk + i;
                total += int64_t(counts_now.v[low_index(s, b)]) * units_of(high | b);
            }
        } else if (int(t) == boundary) {
            uint left = r - boundary_above;
            for (int i = int(kChunk) - 1; i >= 0 && left > 0u; i--) {
                const uint b = t * kChunk + uint(i);
                const uint take = min(counts_now.v[low_index(s, b)], left);
                total += int64_t(take) * units_of(high | b);
                left -= take;
            }
        }
        // Only this thread reads its chunk: it zeroes the chunk for the next
        // frame once done with it (a chunk without counts is zero already).
        if (n != 0u)
            for (uint i = 0u; i < kChunk; i++) counts.v[low_index(s, t * kChunk + i)] = 0u;
    }
    const uint64_t v = uint64_t(add_up(total));
    if (t == 0u) {
        const uint at = p.result_index + s * 4u;
        results.v[at] = uint(v);
        results.v[at + 1u] = uint(v >> 32);
        results.v[at + 2u] = counts_now.v[sel_index(s, 2u)];
        results.v[at + 3u] = counts_now.v[kErrorAt + p.error_word];
    }
    // Zero for the next frame the rest of what this frame's passes of the
    // slot wrote: the upper histogram (read by the top pass's selection), the
    // two passes' counts of finished workgroups, and the next frame's error
    // word (every slot's pool reads this frame's). The pool reads none of
    // these, so no barrier waits for it.
    for (uint i = t; i < kTopBins; i += 256u) counts.v[top_index(s, i)] = 0u;
    if (t == 0u) {
        counts.v[sel_index(s, kSelTopDone)] = 0u;
        counts.v[sel_index(s, kSelSumDone)] = 0u;
        counts.v[kErrorAt + (p.error_word ^ 1u)] = 0u;
    }
}

void main()
{
    const SlotJob job = slot_job(p.slots);
    const int bin = int(counts.v[sel_index(job.slot, 0u)]);
    sum_above(job, bin);
    if (last_to_arrive(job, kSelSumDone)) pool(job, bin);
}
