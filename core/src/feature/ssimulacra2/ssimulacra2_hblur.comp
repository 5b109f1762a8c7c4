// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: the recursive Gaussian along the rows of the 15 planes of
// every scale's region of `work` (one grid for all the scales, each scale's
// workgroups after the one before: row id = plane * h + row within the
// scale), into the same place in `temp`: libjxl's
// FastGaussian1D as ssimulacra2_kernels_tmpl.h's blur_row, one output at a
// time at the edges and four at a time (each lane with its own multipliers)
// in between. A workgroup takes 32 rows; each row's three recursions (the
// terms k = 1, 3, 5, which depend only on their own past) run in three
// invocations of their own, invocation / 32 being the term: a row's work is
// spread over three times the invocations, and each subgroup of 32 follows
// one term. The terms meet in shared memory, added in the CPU's order
// (o0 + (o1 + o2)) when a stretch of outputs is stored.
// The workgroup's rows go through shared memory both ways: it loads 48
// columns of all its rows at a time into a ring of 64 per row, which all
// three terms read (each fill's columns read from the buffer during the
// fill before), and stores kOut columns of outputs at a time,
// neighbouring invocations reading or writing neighbouring words of one row
// (one invocation per row would touch words a row apart). Each recursion
// reads the same values in the same order as from the buffer.
#extension GL_EXT_control_flow_attributes : require
#include "ssimulacra2_common.glsl"

const uint kRows = 32;  // rows of a workgroup (ssimulacra2_vk.cpp's kBlurRows)
const uint kTerms = 3;  // invocations per row, one per term
const uint kRing = 64;  // input columns held per row
const uint kFill = 48;  // input columns loaded at a time: 2 * radius + 3 <= kRing - kFill
// Output columns stored at a time, a multiple of 4. 24 keeps the workgroup's
// shared memory at 17.5 KiB: on an H100 a 1080p frame took 0.677 ms with 24,
// 0.696 with 32 and 0.760 with 48 (ADR 0093). ssimulacra2_vk.cpp's kBlurOut.
const uint kOut = 24;
const uint kPitch = kOut + 1;  // odd: the rows' same column in different banks
layout(local_size_x = 96) in;  // kRows * kTerms

layout(std430, set = 0, binding = 1) restrict readonly buffer Work { float v[]; } work;
layout(std430, set = 0, binding = 2) restrict writeonly buffer Temp { float v[]; } temp;

shared float ring[kRows * kRing];
shared float stage[kTerms * kRows * kPitch];  // term t's row r at (t * kRows + r) * kPitch
shared uint row_at[kRows];  // first float of each row of the workgroup

uint g_row;   // this invocation's row in the workgroup
uint g_term;  // this invocation's term
uint g_rows;  // rows of the workgroup that exist
int g_hi;     // input columns [0, g_hi) loaded, the last kRing of them held
int g_lo;     // the stage's first output column

// Row r's column x in the ring, rotated by r so that the rows' same column
// falls in different banks.
uint slot(uint r, int x)
{
    return r * kRing + ((uint(x) + r) & (kRing - 1u));
}

float at(int x)
{
    return ring[slot(g_row, x)];
}

// The next kFill input columns of the workgroup's rows, kAhead of them per
// invocation, read from the buffer one fill ahead: the reads are under way
// while the recursions use the columns before them.
const uint kAhead = kRows * kFill / (kRows * kTerms);
float g_ahead[kAhead];

void read_ahead(int from, int xsize)
{
    [[unroll]] for (uint j = 0; j < kAhead; j++) {
        const uint i = gl_LocalInvocationID.x + j * kRows * kTerms;
        const uint r = i / kFill;
        const int x = from + int(i % kFill);
        g_ahead[j] = r < g_rows && x < xsize ? work.v[row_at[r] + uint(x)] : 0.0;
    }
}

// Makes input columns up to `need` available. A fill overwrites the oldest
// kFill columns, none of which is read again, with the columns read ahead,
// then reads the next ones. `need` and g_hi are the same in every invocation,
// so are the barriers.
void ensure(int need, int xsize)
{
    while (need >= g_hi && g_hi < xsize) {
        barrier();
        [[unroll]] for (uint j = 0; j < kAhead; j++) {
            const uint i = gl_LocalInvocationID.x + j * kRows * kTerms;
            ring[slot(i / kFill, g_hi + int(i % kFill))] = g_ahead[j];
        }
        barrier();
        g_hi += int(kFill);
        if (g_hi < xsize) read_ahead(g_hi, xsize);
    }
}

void put(int n, float v)
{
    if (n >= 0) stage[(g_term * kRows + g_row) * kPitch + uint(n - g_lo)] = v;
}

// After output column n (the same in every invocation): once the stage is
// full or n is the row's last column, adds each output's three terms and
// stores the sums.
void flush_after(int n, int xsize)
{
    if (n + 1 != g_lo + int(kOut) && n + 1 != xsize) return;
    barrier();
    const uint count = uint(n + 1 - g_lo);
    for (uint i = gl_LocalInvocationID.x; i < kRows * kOut; i += kRows * kTerms) {
        const uint r = i / kOut, x = i % kOut;
        if (r < g_rows && x < count) {
            precise float out_ = stage[r * kPitch + x] +
                                 (stage[(kRows + r) * kPitch + x] + stage[(2 * kRows + r) * kPitch + x]);
            temp.v[row_at[r] + uint(g_lo) + x] = out_;
        }
    }
    barrier();
    g_lo += int(kOut);
}

// One output of the term at the edges: its recursion on the sum of the
// inputs N + 1 left and N - 1 right (zero outside the row).
void one_step(int n, int xsize, inout float prev, inout float prev2)
{
    const int N = k.radius, left = n - N - 1, right = n + N - 1;
    const uint c = g_term;
    ensure(min(right, xsize - 1), xsize);
    precise float sum = (left >= 0 ? at(left) : 0.0) + (right < xsize ? at(right) : 0.0);
    precise float v = sum * k.mul_in[c * 4];
    v = madd(k.mul_prev2[c * 4], prev2, v);
    prev2 = prev;
    v = madd(k.mul_prev[c * 4], prev, v);
    prev = v;
    put(n, v);
    flush_after(n, xsize);
}

void main()
{
    const uint group = p.group_base + gl_WorkGroupID.x, s = scale_of(group, true);
    use_scale(s);
    const uint first = (group - k.row_groups[s]) * kRows, total = 15 * s_h;
    g_rows = min(kRows, total - first);
    g_row = gl_LocalInvocationID.x % kRows;
    g_term = gl_LocalInvocationID.x / kRows;
    if (g_term == 0) {
        const uint id = first + g_row;
        row_at[g_row] = s_at + (g_row < g_rows ? id * s_w : 0u);  // the planes packed
    }
    g_hi = 0;
    g_lo = 0;
    barrier();
    const int N = k.radius, xsize = int(s_w);
    read_ahead(0, xsize);
    const uint c = g_term;
    precise float prev = 0.0, prev2 = 0.0;
    int n = -N + 1;
    const int first_aligned = (N + 1 + 3) / 4 * 4;
    for (; n < min(first_aligned, xsize); ++n) one_step(n, xsize, prev, prev2);
    // The term's multipliers of the four lanes, read once: lane j of
    // mul_in, of mul_in_shifted's m = 1 to 3, of mul_prev2 and mul_prev.
    const uint b = c * 4;
    const vec4 m_in = vec4(k.mul_in[b], k.mul_in[b + 1], k.mul_in[b + 2], k.mul_in[b + 3]);
    vec4 m_shift[3];
    [[unroll]] for (uint m = 1; m < 4; m++) {
        const uint o = (b + m) * 4;
        m_shift[m - 1] = vec4(k.mul_in_shifted[o], k.mul_in_shifted[o + 1], k.mul_in_shifted[o + 2],
                              k.mul_in_shifted[o + 3]);
    }
    const vec4 m_prev2 = vec4(k.mul_prev2[b], k.mul_prev2[b + 1], k.mul_prev2[b + 2], k.mul_prev2[b + 3]);
    const vec4 m_prev = vec4(k.mul_prev[b], k.mul_prev[b + 1], k.mul_prev[b + 2], k.mul_prev[b + 3]);
    const int end4 = xsize - N + 1 - 3;  // the four-wide steps: n < end4
    while (n < end4) {
        ensure(n + N + 2, xsize);
        // The steps before the next fill, store or the row's edge, which run
        // without a barrier: every column they read is in the ring (the last
        // one's need, n + N + 2, below g_hi), and their outputs fit the stage
        // (n - g_lo is a multiple of 4, as the stage's length).
        const int run = min(min((end4 - n + 3) / 4, (g_lo + int(kOut) - n) / 4), (g_hi - n - N - 2 + 3) / 4);
        for (int i = 0; i < run; i++, n += 4) {
            const int l = n - N - 1, r = n + N - 1;
            precise float s0 = at(l) + at(r);
            precise float s1 = at(l + 1) + at(r + 1);
            precise float s2 = at(l + 2) + at(r + 2);
            precise float s3 = at(l + 3) + at(r + 3);
            precise vec4 v = s0 * m_in;
            v = madd4(m_shift[0], vec4(s1), v);
            v = madd4(m_shift[1], vec4(s2), v);
            v = madd4(m_shift[2], vec4(s3), v);
            v = madd4(m_prev2, vec4(prev2), v);
            v = madd4(m_prev, vec4(prev), v);
            prev2 = v.z;
            prev = v.w;
            const uint at4 = (g_term * kRows + g_row) * kPitch + uint(n - g_lo);
            stage[at4] = v.x;
            stage[at4 + 1] = v.y;
            stage[at4 + 2] = v.z;
            stage[at4 + 3] = v.w;
        }
        flush_after(n - 1, xsize);
    }
    for (; n < xsize; ++n) one_step(n, xsize, prev, prev2);
}
