// SPDX-License-Identifier: BSD-2-Clause-Patent
// SpEED's shared kernel code (speed_copy, speed_blur, speed_local, speed_mean,
// speed_cov): the bindings, reading a plane as the CPU's float picture
// (feature/common/float_picture.h, offset kPixelOffset) and float_vif's edge
// mirroring. Every float operation the CPU does separately is `precise` here
// (no contraction into fma, no reassociation), in the CPU's order; the one
// division whose rounding Vulkan leaves open (a window mean) is made correctly
// rounded with ssim_round.glsl.
//
// Bindings: 0 the Engine's planes (words), 1 speed_temporal's copies of the
// previous frame's luma planes (words; speed_chroma binds the planes again),
// 2 this feature's float scratch (blurred planes, prepared planes, means),
// 3 the Engine's results (words), 4 speed_prescale's tables (per output
// column, then per output row: nearest and bilinear the input samples i1, i2
// and the weight d of i2, from float_vif_scale.h's nearest_index and
// bilinear_tap; bicubic and lanczos4 the K input samples, then their K
// weights, from its bicubic_axis and lanczos_axis).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "speed_tables.glsl"

// 1: 8-bit samples; 2: 16-bit samples.
layout(constant_id = 0) const uint kInput = 1;
// 1 / 2^(bpc - 8) (exact): the float picture's sample / scaler.
layout(constant_id = 1) const float kInvScaler = 1.0;
layout(constant_id = 2) const int kAaTaps = 9;
layout(constant_id = 3) const int kLocalTaps = 3;
// speed_temporal: the blurred plane is of the previous frame minus this one.
layout(constant_id = 4) const bool kTemporal = false;
// speed_prescale: 0 none, 1 nearest, 2 bilinear, 3 bicubic, 4 lanczos4
// (speed_vk.cpp's Resample).
layout(constant_id = 5) const uint kResample = 0;

layout(std430, set = 0, binding = 0) readonly buffer Planes { uint words[]; } planes;
layout(std430, set = 0, binding = 1) buffer History { uint words[]; } hist;
layout(std430, set = 0, binding = 2) buffer Scratch { float v[]; } scratch;
layout(std430, set = 0, binding = 3) writeonly buffer Results { uint words[]; } results;
layout(std430, set = 0, binding = 4) readonly buffer Resampling { uint words[]; } resampling;

uint sample_of(uint word, uint i)
{
    if (kInput == 1u) return (word >> ((i & 3u) * 8u)) & 0xffu;
    return (word >> ((i & 1u) * 16u)) & 0xffffu;
}
uint word_of(uint i) { return kInput == 1u ? i >> 2 : i >> 1; }

// float(sample) / scaler + kPixelOffset, as picture_to_float (the division
// by a power of two exact as a product).
float picture_float(uint s)
{
    precise float f = float(s) * kInvScaler;
    precise float g = f + uintBitsToFloat(kSpeedPixelOffsetBits);
    return g;
}
float plane_sample(uint i) { return picture_float(sample_of(planes.words[word_of(i)], i)); }
float history_sample(uint i) { return picture_float(sample_of(hist.words[word_of(i)], i)); }

// float_vif's mirror(): -1 -> 1, n -> n - 2.
int speed_mirror(int i, int n)
{
    return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}
