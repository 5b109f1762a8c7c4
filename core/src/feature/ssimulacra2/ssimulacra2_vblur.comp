// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: the recursive Gaussian down the columns, one invocation per
// column of the 15 planes of `temp` (gl_GlobalInvocationID.x = plane * w +
// column): the blurred XYB of both pictures into `blurred` (6 planes), the
// blurred products back into their own planes of `work`: y_n = n2 s - d1 y_{n-1} - y_{n-2}
// for each of the three terms, s the sum of the rows N + 1 up and N - 1 down
// (zero outside), as ssimulacra2_kernels_tmpl.h's blur_column_step.
#include "ssimulacra2_common.glsl"

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 1) readonly buffer Temp { float v[]; } temp;
layout(std430, set = 0, binding = 2) writeonly buffer Blurred { float v[]; } blurred;
layout(std430, set = 0, binding = 3) buffer Work { float v[]; } work;

void main()
{
    const uint id = gl_GlobalInvocationID.x;
    if (id >= 15 * p.w) return;
    const uint plane = id / p.w, base = plane * p.plane + id % p.w;
    const int N = k.radius, ysize = int(p.h);
    precise float a[3] = float[3](0.0, 0.0, 0.0), b[3] = float[3](0.0, 0.0, 0.0);
    for (int n = -N + 1; n < ysize; ++n) {
        const int t = n - N - 1, bo = n + N - 1;
        precise float sum = 0.0;
        if (bo < ysize) sum = temp.v[base + uint(bo) * p.w];
        if (t >= 0) sum = temp.v[base + uint(t) * p.w] + sum;
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
