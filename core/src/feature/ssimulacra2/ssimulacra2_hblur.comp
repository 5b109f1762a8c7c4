// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: the recursive Gaussian along the rows, one invocation per row
// of the 15 planes of `work` (gl_GlobalInvocationID.x = plane * h + row),
// into the same place in `temp`: libjxl's FastGaussian1D as
// ssimulacra2_kernels_tmpl.h's blur_row, one output at a time at the edges
// and four at a time (each lane with its own multipliers) in between.
// The workgroup's 32 rows go through shared memory both ways: it loads 48
// columns of all its rows at a time into a ring of 64 per row, and stores 48
// columns of outputs at a time, neighbouring invocations reading or writing
// neighbouring words of one row (one invocation per row would touch words a
// row apart). Each row's recursion reads the same values in the same order
// as from the buffer.
#include "ssimulacra2_common.glsl"

const uint kRows = 32;  // rows of a workgroup, one per invocation (ssimulacra2_vk.cpp's kBlurRows)
const uint kRing = 64;  // input columns held per row
const uint kFill = 48;  // input columns loaded at a time: 2 * radius + 3 <= kRing - kFill
const uint kOut = 48;   // output columns stored at a time, a multiple of 4
const uint kPitch = kOut + 1;  // odd: the rows' same column in different banks
layout(local_size_x = kRows) in;

layout(std430, set = 0, binding = 1) restrict readonly buffer Work { float v[]; } work;
layout(std430, set = 0, binding = 2) restrict writeonly buffer Temp { float v[]; } temp;

shared float ring[kRows * kRing];
shared float stage[kRows * kPitch];
shared uint row_at[kRows];  // first float of each row of the workgroup

uint g_row;   // this invocation's row in the workgroup
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

// Makes input columns up to `need` available. A fill overwrites the oldest
// kFill columns, none of which is read again. `need` and g_hi are the same in
// every invocation, so are the barriers.
void ensure(int need, int xsize)
{
    while (need >= g_hi && g_hi < xsize) {
        barrier();
        for (uint i = gl_LocalInvocationID.x; i < kRows * kFill; i += kRows) {
            const uint r = i / kFill;
            const int x = g_hi + int(i % kFill);
            ring[slot(r, x)] = r < g_rows && x < xsize ? work.v[row_at[r] + uint(x)] : 0.0;
        }
        barrier();
        g_hi += int(kFill);
    }
}

void put(int n, float v)
{
    if (n >= 0) stage[g_row * kPitch + uint(n - g_lo)] = v;
}

// After output column n (the same in every invocation): stores the stage once
// it is full or n is the row's last column.
void flush_after(int n, int xsize)
{
    if (n + 1 != g_lo + int(kOut) && n + 1 != xsize) return;
    barrier();
    const uint count = uint(n + 1 - g_lo);
    for (uint i = gl_LocalInvocationID.x; i < kRows * kOut; i += kRows) {
        const uint r = i / kOut, x = i % kOut;
        if (r < g_rows && x < count) temp.v[row_at[r] + uint(g_lo) + x] = stage[r * kPitch + x];
    }
    barrier();
    g_lo += int(kOut);
}

void main()
{
    const uint first = gl_WorkGroupID.x * kRows, total = 15 * p.h;
    g_rows = min(kRows, total - first);
    g_row = gl_LocalInvocationID.x;
    const uint id = first + g_row;
    row_at[g_row] = g_row < g_rows ? (id / p.h) * p.plane + (id % p.h) * p.w : 0u;
    g_hi = 0;
    g_lo = 0;
    barrier();
    const int N = k.radius, xsize = int(p.w);
    precise float prev[3] = float[3](0.0, 0.0, 0.0), prev2[3] = float[3](0.0, 0.0, 0.0);
    int n = -N + 1;
    const int first_aligned = (N + 1 + 3) / 4 * 4;
    for (; n < min(first_aligned, xsize); ++n) {
        const int left = n - N - 1, right = n + N - 1;
        ensure(min(right, xsize - 1), xsize);
        precise float sum = (left >= 0 ? at(left) : 0.0) + (right < xsize ? at(right) : 0.0);
        precise float o[3];
        for (int c = 0; c < 3; c++) {
            precise float v = sum * k.mul_in[c * 4];
            v = madd(k.mul_prev2[c * 4], prev2[c], v);
            prev2[c] = prev[c];
            v = madd(k.mul_prev[c * 4], prev[c], v);
            prev[c] = v;
            o[c] = v;
        }
        precise float out_ = o[0] + (o[1] + o[2]);
        put(n, out_);
        flush_after(n, xsize);
    }
    for (; n < xsize - N + 1 - 3; n += 4) {
        ensure(n + N + 2, xsize);
        precise float s[4];
        for (int j = 0; j < 4; j++) s[j] = at(n - N - 1 + j) + at(n + N - 1 + j);
        precise float o[3][4];
        for (int c = 0; c < 3; c++)
            for (int j = 0; j < 4; j++) {
                precise float v = s[0] * k.mul_in[c * 4 + j];
                for (int m = 1; m < 4; m++) v = madd(k.mul_in_shifted[(c * 4 + m) * 4 + j], s[m], v);
                v = madd(k.mul_prev2[c * 4 + j], prev2[c], v);
                v = madd(k.mul_prev[c * 4 + j], prev[c], v);
                o[c][j] = v;
            }
        for (int c = 0; c < 3; c++) {
            prev2[c] = o[c][2];
            prev[c] = o[c][3];
        }
        for (int j = 0; j < 4; j++) {
            precise float out_ = o[0][j] + (o[1][j] + o[2][j]);
            put(n + j, out_);
        }
        flush_after(n + 3, xsize);
    }
    for (; n < xsize; ++n) {
        const int left = n - N - 1, right = n + N - 1;
        ensure(min(right, xsize - 1), xsize);
        precise float sum = (left >= 0 ? at(left) : 0.0) + (right < xsize ? at(right) : 0.0);
        precise float o[3];
        for (int c = 0; c < 3; c++) {
            precise float v = sum * k.mul_in[c * 4];
            v = madd(k.mul_prev2[c * 4], prev2[c], v);
            prev2[c] = prev[c];
            v = madd(k.mul_prev[c * 4], prev[c], v);
            prev[c] = v;
            o[c] = v;
        }
        precise float out_ = o[0] + (o[1] + o[2]);
        put(n, out_);
        flush_after(n, xsize);
    }
}
