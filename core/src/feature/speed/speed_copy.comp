// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// speed_temporal: this frame's luma planes (raw words) into the history
// buffer, for the next frame's differences.
#include "speed_common.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Params {
    uint src, dst, count;  // words
} p;

void main()
{
    const uint step = gl_NumWorkGroups.x * 256u;
    for (uint i = gl_GlobalInvocationID.x; i < p.count; i += step) hist.words[p.dst + i] = planes.words[p.src + i];
}
