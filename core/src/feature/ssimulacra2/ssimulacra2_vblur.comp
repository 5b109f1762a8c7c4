// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: the recursive Gaussian down the columns of the 15 planes of
// `temp` (column id = plane * w + column): the blurred XYB of both pictures
// into `blurred` (6 planes), the blurred products back into their own planes
// of `work`: y_n = n2 s - d1 y_{n-1} - y_{n-2} for each of the three terms,
// s the sum of the rows N + 1 up and N - 1 down (zero outside), as
// ssimulacra2_kernels_tmpl.h's blur_column_step.
// A workgroup takes 32 columns; each column's three terms run in three
// invocations of their own (invocation / 32 being the term, so each subgroup
// of 32 follows one term), three times the invocations a column per
// invocation would have. Every kBatch rows the terms meet in shared memory and
// the workgroup adds each output's three (o0 + (o1 + o2), the CPU's order)
// and stores the sums, neighbouring invocations storing neighbouring columns.
// The inputs of a batch are loaded before they are used, so that their loads
// are in flight together rather than one step's after another's.
#extension GL_EXT_control_flow_attributes : require
#include "ssimulacra2_common.glsl"

const uint kColumns = 32;  // columns of a workgroup (ssimulacra2_vk.cpp's kBlurColumns)
const uint kTerms = 3;
const int kBatch = 8;      // rows between the terms' meetings
layout(local_size_x = 96) in;  // kColumns * kTerms

layout(std430, set = 0, binding = 1) restrict readonly buffer Temp { float v[]; } temp;
layout(std430, set = 0, binding = 2) restrict writeonly buffer Blurred { float v[]; } blurred;
layout(std430, set = 0, binding = 3) restrict buffer Work { float v[]; } work;

shared float part[kTerms * kBatch * kColumns];  // term t's output of row j, column c at (t * kBatch + j) * kColumns + c

void main()
{
    const uint col = gl_LocalInvocationID.x % kColumns, term = gl_LocalInvocationID.x / kColumns;
    const uint first = gl_WorkGroupID.x * kColumns, columns = 15 * p.w;
    const uint id = first + col;
    const bool mine = id < columns;
    // Invocations past the last column keep to the barriers and do nothing else.
    const uint base = mine ? (id / p.w) * scratch_plane() + id % p.w : 0u;
    const int N = k.radius, ysize = int(p.h);
    const float n2 = k.n2[term], neg_d1 = -k.d1[term];
    precise float a = 0.0, b = 0.0;
    for (int n0 = -N + 1; n0 < ysize; n0 += kBatch) {
        // Rows N + 1 up and N - 1 down of steps n0 to n0 + kBatch - 1 (0 where
        // a row is outside the plane; those are not added below).
        float top[kBatch], bottom[kBatch];
        [[unroll]] for (int j = 0; j < kBatch; j++) {
            const int t = n0 + j - N - 1, bo = n0 + j + N - 1;
            top[j] = mine && t >= 0 && t < ysize ? temp.v[base + uint(t) * p.w] : 0.0;
            bottom[j] = mine && bo < ysize ? temp.v[base + uint(bo) * p.w] : 0.0;
        }
        for (int j = 0; j < kBatch; j++) {
            const int n = n0 + j;
            if (n >= ysize) break;
            const int t = n - N - 1, bo = n + N - 1;
            precise float sum = 0.0;
            if (bo < ysize) sum = bottom[j];
            if (t >= 0) sum = top[j] + sum;
            precise float y = madd(n2, sum, madd(neg_d1, a, -b));
            b = a;
            a = y;
            part[(term * kBatch + uint(j)) * kColumns + col] = y;
        }
        barrier();
        // The batch's outputs (rows n0 to n0 + kBatch - 1 that exist and are >= 0).
        for (uint i = gl_LocalInvocationID.x; i < uint(kBatch) * kColumns; i += kColumns * kTerms) {
            const uint j = i / kColumns, c = i % kColumns, out_id = first + c;
            const int n = n0 + int(j);
            if (n < 0 || n >= ysize || out_id >= columns) continue;
            precise float out_ = part[j * kColumns + c] +
                                 (part[(kBatch + j) * kColumns + c] + part[(2 * kBatch + j) * kColumns + c]);
            const uint plane = out_id / p.w, at = plane * scratch_plane() + out_id % p.w + uint(n) * p.w;
            if (plane < 6) blurred.v[at] = out_;
            else work.v[at] = out_;
        }
        barrier();
    }
}
