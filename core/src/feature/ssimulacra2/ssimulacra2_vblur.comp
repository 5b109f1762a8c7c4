// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: the recursive Gaussian down the columns, one invocation per
// column of the 15 planes of `temp` (gl_GlobalInvocationID.x = plane * w +
// column): the blurred XYB of both pictures into `blurred` (6 planes), the
// blurred products back into their own planes of `work`: y_n = n2 s - d1 y_{n-1} - y_{n-2}
// for each of the three terms, s the sum of the rows N + 1 up and N - 1 down
// (zero outside), as ssimulacra2_kernels_tmpl.h's blur_column_step. The
// inputs of kAhead steps are loaded before they are used, so that their
// loads are in flight together rather than one step's after another's.
#extension GL_EXT_control_flow_attributes : require
#include "ssimulacra2_common.glsl"

const int kAhead = 8;

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 1) restrict readonly buffer Temp { float v[]; } temp;
layout(std430, set = 0, binding = 2) restrict writeonly buffer Blurred { float v[]; } blurred;
layout(std430, set = 0, binding = 3) restrict buffer Work { float v[]; } work;

void main()
{
    const uint id = gl_GlobalInvocationID.x;
    if (id >= 15 * p.w) return;
    const uint plane = id / p.w, base = plane * scratch_plane() + id % p.w;
    const int N = k.radius, ysize = int(p.h);
    precise float a[3] = float[3](0.0, 0.0, 0.0), b[3] = float[3](0.0, 0.0, 0.0);
    for (int n0 = -N + 1; n0 < ysize; n0 += kAhead) {
        // Rows N + 1 up and N - 1 down of steps n0 to n0 + kAhead - 1 (0 where
        // a row is outside the plane; those are not added below).
        float top[kAhead], bottom[kAhead];
        [[unroll]] for (int j = 0; j < kAhead; j++) {
            const int t = n0 + j - N - 1, bo = n0 + j + N - 1;
            top[j] = t >= 0 && t < ysize ? temp.v[base + uint(t) * p.w] : 0.0;
            bottom[j] = bo < ysize ? temp.v[base + uint(bo) * p.w] : 0.0;
        }
        for (int j = 0; j < kAhead; j++) {
            const int n = n0 + j;
            if (n >= ysize) break;
            const int t = n - N - 1, bo = n + N - 1;
            precise float sum = 0.0;
            if (bo < ysize) sum = bottom[j];
            if (t >= 0) sum = top[j] + sum;
            precise float y[3];
            for (int c = 0; c < 3; c++) {
                y[c] = madd(k.n2[c], sum, madd(-k.d1[c], a[c], -b[c]));
                b[c] = a[c];
                a[c] = y[c];
            }
            precise float out_ = y[0] + (y[1] + y[2]);
            if (n >= 0 && plane < 6) blurred.v[base + uint(n) * p.w] = out_;
            else if (n >= 0) work.v[base + uint(n) * p.w] = out_;
        }
    }
}
