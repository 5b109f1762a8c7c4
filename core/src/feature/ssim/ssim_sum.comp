// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// The frame sums of one ssim_terms.comp dispatch: its workgroups' four doubles
// (sums of l c s, l, c and s) added in a fixed order, so that only four doubles
// per scale reach the host. Thread t adds workgroups t, t + kThreads, ... in turn;
// a fixed tree adds the threads'. One workgroup.
#include "ssim_common.glsl"

const uint kThreads = uint(kSsimSumThreads);
layout(local_size_x = kThreads) in;

layout(push_constant) uniform Params {
    uint first;   // the dispatch's first double in the partials buffer
    uint groups;  // its workgroups (four doubles each)
    uint out_index;  // where the four sums go in the results (doubles)
} p;

shared double tree[4][kThreads];

void main()
{
    const uint tid = gl_LocalInvocationIndex;
    precise double acc[4] = double[4](0.0, 0.0, 0.0, 0.0);
    // Four workgroups' sums loaded at a time (independent loads in flight),
    // then added in the same order as one at a time.
    const uint kBatch = 4u;
    for (uint g0 = tid; g0 < p.groups; g0 += kBatch * kThreads) {
        double v[kBatch][4];
        for (uint b = 0u; b < kBatch; b++) {
            const uint g = g0 + b * kThreads;
            for (uint k = 0u; k < 4u; k++) v[b][k] = g < p.groups ? partials.v[p.first + 4u * g + k] : 0.0;
        }
        for (uint b = 0u; b < kBatch; b++)
            if (g0 + b * kThreads < p.groups)
                for (uint k = 0u; k < 4u; k++) acc[k] += v[b][k];
    }
    for (uint k = 0u; k < 4u; k++) tree[k][tid] = acc[k];
    barrier();
    for (uint half_ = kThreads / 2u; half_ > 0u; half_ /= 2u) {
        if (tid < half_)
            for (uint k = 0u; k < 4u; k++) {
                precise double s = tree[k][tid] + tree[k][tid + half_];
                tree[k][tid] = s;
            }
        barrier();
    }
    if (tid < 4u) results.v[p.out_index + tid] = tree[tid][0];
}
