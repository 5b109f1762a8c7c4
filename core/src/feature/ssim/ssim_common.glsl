// SPDX-License-Identifier: BSD-2-Clause-Patent
// The float SSIM family's shared kernel code (ssim_box.comp, ssim_lpf.comp,
// ssim_terms.comp): reading a plane as libvmaf's float picture, and the few
// float operations whose rounding Vulkan leaves open (the double-to-float
// conversion, float division and square root), done so that they give the
// correctly rounded result the CPU gets, from additions, multiplications and
// comparisons alone where those are exact.
//
// Bindings: 0 the Engine's planes (words), 1 the float scratch plane pair a
// kernel reads, 2 the Engine's results (doubles), 3 this feature's workgroup
// sums (doubles) on their way to ssim_sum.comp, 4 the float scratch plane
// pair a kernel writes. Each dispatch binds only its own regions of the
// scratch and sums buffers (ssim_vk.cpp), so the dispatches of a stage need
// no barrier between them.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "ssim_tables.glsl"

// 0: the input is a float plane of the scratch buffer; 1: 8-bit samples of the
// Engine's planes; 2: 16-bit samples.
layout(constant_id = 0) const uint kInput = 1;
// 1 / 2^(bpc - 8) (exact): the float picture's sample / scaler.
layout(constant_id = 1) const float kInvScaler = 1.0;

layout(std430, set = 0, binding = 0) readonly buffer Planes { uint words[]; } planes;
layout(std430, set = 0, binding = 1) readonly buffer Scratch { float v[]; } scratch;
layout(std430, set = 0, binding = 2) buffer Results { double v[]; } results;
layout(std430, set = 0, binding = 3) buffer Partials { double v[]; } partials;
layout(std430, set = 0, binding = 4) writeonly buffer ScratchOut { float v[]; } scratch_out;

// Sample i (a sample index of the bound input) as libvmaf's float picture
// holds it: float(sample) / 2^(bpc - 8), the division exact as a product.
float load_sample(uint i)
{
    if (kInput == 0u) return scratch.v[i];
    uint s;
    if (kInput == 1u)
        s = (planes.words[i >> 2] >> ((i & 3u) * 8u)) & 0xffu;
    else
        s = (planes.words[i >> 1] >> ((i & 1u) * 16u)) & 0xffffu;
    precise float f = float(s) * kInvScaler;
    return f;
}

// libvmaf's symmetric boundary (ssim_kernel.h's mirror()).
int ssim_mirror(int i, int n)
{
    if (i < 0) return -1 - i;
    if (i >= n) return n - (i - n) - 1;
    return i;
}

float gauss_tap(int k) { return uintBitsToFloat(kSsimGaussianBits[k]); }

#include "feature/common/ssim_round.glsl"

// The device's results, corrected (the conversion from d's bits alone).
float to_float(double d) { return to_float_rn(d); }
float sqrt_rn(float v) { return sqrt_rn_from(v, sqrt(v)); }
float div_rn(float a, float b) { return div_rn_from(a, b, a / b); }
double div_rn_d(double n, double d) { return div_rn_d_from(n, d, abs(n) / d); }
