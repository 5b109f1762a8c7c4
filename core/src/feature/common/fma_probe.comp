// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Whether this device's fma() rounds once: fma_native() of each triple of
// `probe`, into `result` (native_fma_vk.cpp's run_fma_probe() compares them
// with the CPU's fmaf). Vulkan lets fma() round twice; where a device's does
// not, the kernels of the features that follow libjxl's multiply-adds use
// fma_native() instead of the emulation in double (fma_once).
#include "fma_once.glsl"

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) restrict readonly buffer Probe { float v[]; } probe;
layout(std430, set = 0, binding = 1) restrict writeonly buffer Result { float v[]; } result;

layout(push_constant) uniform Params { uint n; } p;

void main()
{
    const uint i = gl_GlobalInvocationID.x;
    if (i >= p.n) return;
    result.v[i] = fma_native(probe.v[3 * i], probe.v[3 * i + 1], probe.v[3 * i + 2]);
}
