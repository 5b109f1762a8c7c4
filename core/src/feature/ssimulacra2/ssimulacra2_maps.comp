// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: the SSIM and edge-difference maps of one row of one channel
// per workgroup (gl_WorkGroupID.x = row, gl_WorkGroupID.y = channel), their
// per-pixel terms as ssimulacra2_kernels_tmpl.h's ssim_terms and edge_terms.
// Invocation i takes the pixels i, i + 256, ... of the row (neighbouring
// invocations read neighbouring words), adding its terms in double in that
// order; the workgroup then adds its 256 partial sums in a fixed tree, the
// same on every run. Writes 6 doubles at result (row_base + row) * 18 +
// channel * 6: SSIM d and d^4, artifact and its 4th power, detail lost and
// its 4th power. The host adds the rows in order.
#include "ssimulacra2_common.glsl"

const uint kLanes = 256;  // ssimulacra2_vk.cpp's kMapLanes
layout(local_size_x = kLanes) in;

layout(std430, set = 0, binding = 1) restrict readonly buffer Work { float v[]; } work;        // XYB of both, s11, s22, s12
layout(std430, set = 0, binding = 2) restrict readonly buffer Blurred { float v[]; } blurred;  // mu1, mu2
layout(std430, set = 0, binding = 3) restrict writeonly buffer Results { double v[]; } results;

shared double partial[6 * kLanes];

void main()
{
    const uint y = gl_WorkGroupID.x, c = gl_WorkGroupID.y, lane = gl_LocalInvocationID.x;
    const uint row = y * p.w, P = scratch_plane();
    precise double sum[6] = double[6](0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for (uint x = lane; x < p.w; x += kLanes) {
        const uint i = row + x;
        const float mu1 = blurred.v[c * P + i], mu2 = blurred.v[(3 + c) * P + i];
        const float s11 = work.v[(6 + c) * P + i], s22 = work.v[(9 + c) * P + i];
        const float s12 = work.v[(12 + c) * P + i];
        precise float mu11 = mu1 * mu1, mu22 = mu2 * mu2, mu12 = mu1 * mu2;
        precise float dm = mu1 - mu2;
        precise float dm2 = dm * dm;
        precise float num_m = float(1.0lf - double(dm2));
        precise float num_s = 2.0 * (s12 - mu12) + k.c2;
        precise float denom_s = (s11 - mu11) + (s22 - mu22) + k.c2;
        precise float nm = num_m * num_s;
        precise float q = div_once(nm, denom_s);
        precise double v = 1.0lf - double(q);
        v = max(v, 0.0lf);
        sum[0] += v;
        v *= v;
        v *= v;
        sum[1] += v;

        const float img1 = work.v[c * P + i], img2 = work.v[(3 + c) * P + i];
        precise float e2 = abs(img2 - mu2), e1 = abs(img1 - mu1);
        precise double d1 = (1.0lf + double(e2)) / (1.0lf + double(e1)) - 1.0lf;
        precise double a = max(d1, 0.0lf);
        sum[2] += a;
        a *= a;
        a *= a;
        sum[3] += a;
        precise double l = max(-d1, 0.0lf);
        sum[4] += l;
        l *= l;
        l *= l;
        sum[5] += l;
    }
    for (uint j = 0; j < 6; j++) partial[j * kLanes + lane] = sum[j];
    // Lane i adds lane i + s's sum to its own, s halving: a fixed order.
    for (uint s = kLanes / 2; s > 0; s /= 2) {
        barrier();
        if (lane < s)
            for (uint j = 0; j < 6; j++) {
                precise double t = partial[j * kLanes + lane] + partial[j * kLanes + lane + s];
                partial[j * kLanes + lane] = t;
            }
    }
    if (lane != 0) return;
    const uint at = p.out_word + (p.row_base + y) * 18 + c * 6;
    for (uint j = 0; j < 6; j++) results.v[at + j] = partial[j * kLanes];
}
