// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// The covariance sums of a prepared plane (speed_engine.cpp's covariance(),
// speed_kernel.h's CovAcc and cov_row): entry (xi, yi <= xi) sums over the
// windows at positions xi and yi (x - mx) * (y - my) in double. Each of its
// kSpeedCovLanes accumulators is a thread: lanes 0-3 (acc0) take samples
// 8b + l of every run of 8 and then sample l of the run of 4, lanes 4-7
// (acc1) samples 8b + 4 + l' of the runs of 8, each a fused multiply-add;
// lane 8 (tail) adds the last 0-3 samples' products; all row by row. collect()
// adds the lanes as CovAcc::total() does.
#include "speed_common.glsl"

layout(local_size_x = kSpeedCovThreads) in;

layout(push_constant) uniform Params {
    uint dec_at, mean_at;  // floats in the scratch
    uint dw, sw, sh;
    uint result_at;        // words in the results
} p;

float dec(uint i) { return scratch.v[p.dec_at + i]; }

void main()
{
    const uint g = gl_GlobalInvocationID.x;
    if (g >= uint(kSpeedCovEntries * kSpeedCovLanes)) return;
    const uint e = g / uint(kSpeedCovLanes), lane = g % uint(kSpeedCovLanes);
    uint xi = 0;
    while ((xi + 1u) * (xi + 2u) / 2u <= e) xi++;
    const uint yi = e - xi * (xi + 1u) / 2u;
    const uint bk = uint(kSpeedBlock);
    const uint ox = (xi / bk) * p.dw + xi % bk, oy = (yi / bk) * p.dw + yi % bk;
    const double mx = double(scratch.v[p.mean_at + xi]), my = double(scratch.v[p.mean_at + yi]);
    const uint n8 = p.sw / 8u, j4 = n8 * 8u;
    const bool run4 = p.sw - j4 >= 4u;
    const uint tail = run4 ? j4 + 4u : j4;
    precise double acc = 0.0;
    for (uint i = 0; i < p.sh; i++) {
        const uint rx = ox + i * p.dw, ry = oy + i * p.dw;
        if (lane < 8u) {
            for (uint b = 0; b < n8; b++) {
                const uint j = b * 8u + lane;
                precise double cx = double(dec(rx + j)) - mx;
                precise double cy = double(dec(ry + j)) - my;
                acc = fma(cx, cy, acc);
            }
            if (lane < 4u && run4) {
                const uint j = j4 + lane;
                precise double cx = double(dec(rx + j)) - mx;
                precise double cy = double(dec(ry + j)) - my;
                acc = fma(cx, cy, acc);
            }
        } else {
            for (uint j = tail; j < p.sw; j++) {
                precise double cx = double(dec(rx + j)) - mx;
                precise double cy = double(dec(ry + j)) - my;
                precise double q = cx * cy;
                acc = acc + q;
            }
        }
    }
    const uvec2 bits = unpackDouble2x32(acc);
    results.words[p.result_at + 2u * g] = bits.x;
    results.words[p.result_at + 2u * g + 1u] = bits.y;
}
