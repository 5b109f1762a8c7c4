// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: the recursive Gaussian along the rows, one invocation per row
// of the 15 planes of `work` (gl_GlobalInvocationID.x = plane * h + row),
// into the same place in `temp`: libjxl's FastGaussian1D as
// ssimulacra2_kernels_tmpl.h's blur_row, one output at a time at the edges
// and four at a time (each lane with its own multipliers) in between.
#include "ssimulacra2_common.glsl"

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 1) readonly buffer Work { float v[]; } work;
layout(std430, set = 0, binding = 2) writeonly buffer Temp { float v[]; } temp;

void main()
{
    const uint id = gl_GlobalInvocationID.x;
    if (id >= 15 * p.h) return;
    const uint base = (id / p.h) * p.plane + (id % p.h) * p.w;
    const int N = k.radius, xsize = int(p.w);
    precise float prev[3] = float[3](0.0, 0.0, 0.0), prev2[3] = float[3](0.0, 0.0, 0.0);
    int n = -N + 1;
    const int first_aligned = (N + 1 + 3) / 4 * 4;
    for (; n < min(first_aligned, xsize); ++n) {
        const int left = n - N - 1, right = n + N - 1;
        precise float sum = (left >= 0 ? work.v[base + left] : 0.0) + (right < xsize ? work.v[base + right] : 0.0);
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
        if (n >= 0) temp.v[base + n] = out_;
    }
    for (; n < xsize - N + 1 - 3; n += 4) {
        precise float s[4];
        for (int j = 0; j < 4; j++) s[j] = work.v[base + n - N - 1 + j] + work.v[base + n + N - 1 + j];
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
            temp.v[base + n + j] = out_;
        }
    }
    for (; n < xsize; ++n) {
        const int left = n - N - 1, right = n + N - 1;
        precise float sum = (left >= 0 ? work.v[base + left] : 0.0) + (right < xsize ? work.v[base + right] : 0.0);
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
        temp.v[base + n] = out_;
    }
}
