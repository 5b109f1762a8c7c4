// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// The 25 window means of a prepared plane (speed_engine.cpp's covariance()):
// window (r, c) is sw x sh samples from row r, column c, summed in float row
// by row in order, divided by sw * sh (correctly rounded). One thread per
// window, one workgroup per plane.
#include "speed_common.glsl"
#include "feature/common/ssim_round.glsl"

layout(local_size_x = 32) in;

layout(push_constant) uniform Params {
    uint dec_at, mean_at;  // floats in the scratch
    uint dw, sw, sh;
} p;

void main()
{
    const uint t = gl_LocalInvocationID.x;
    if (t >= uint(kSpeedBlockElems)) return;
    const uint r = t / uint(kSpeedBlock), c = t % uint(kSpeedBlock);
    precise float sum = 0.0;
    for (uint i = 0; i < p.sh; i++) {
        const uint row = p.dec_at + (r + i) * p.dw + c;
        // Loads of 8 ahead of their additions (the additions stay in order):
        // the chain waits on the adder, not on memory.
        uint j = 0;
        for (; j + 8u <= p.sw; j += 8u) {
            float v[8];
            for (uint k = 0; k < 8u; k++) v[k] = scratch.v[row + j + k];
            for (uint k = 0; k < 8u; k++) sum = sum + v[k];
        }
        for (; j < p.sw; j++) sum = sum + scratch.v[row + j];
    }
    const float n = float(p.sw * p.sh);
    scratch.v[p.mean_at + t] = div_rn_from(sum, n, sum / n);
}
