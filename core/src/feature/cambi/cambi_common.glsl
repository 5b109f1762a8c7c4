// SPDX-License-Identifier: BSD-2-Clause-Patent
// Shared declarations of the CAMBI kernels (cambi_*.comp): the buffers every
// kernel of the feature binds, in one layout (core/src/feature/cambi/cambi_vk.cpp).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require

// The Engine's picture planes: raw 8-bit or 16-bit samples.
layout(std430, set = 0, binding = 0) readonly buffer Planes8 { uint8_t v[]; } planes8;
layout(std430, set = 0, binding = 0) readonly buffer Planes16 { uint16_t v[]; } planes16;
// 10-bit working pictures: the loaded picture, each scale's mode-filtered
// picture and each scale's histogram keys (sample - band base where the
// sample is masked and in the band, else kNoKey).
layout(std430, set = 0, binding = 1) buffer Work { uint16_t v[]; } work;
// The spatial mask at the encode size.
layout(std430, set = 0, binding = 2) buffer Mask { uint8_t v[]; } mask;
// Tables from the host: reciprocals (float bits), TVI limits, contrast
// weights, decimation maps (cambi_vk.cpp: Consts).
layout(std430, set = 0, binding = 3) readonly buffer Consts { uint v[]; } consts;
// Each scale's c-values.
layout(std430, set = 0, binding = 4) buffer CValues { float v[]; } cvalues;
// Counters: per scale the histogram of the c-values' upper 16 bits, the
// selection, and the histogram of the lower 16 bits in the selected bin.
layout(std430, set = 0, binding = 5) buffer Counts { uint v[]; } counts;
// Per scale and workgroup of the sum pass: the exact sum in units of 2^-24.
layout(std430, set = 0, binding = 6) buffer Partials { int64_t v[]; } partials;
// The feature's results (cambi_vk.cpp: ScaleResult per scale).
layout(std430, set = 0, binding = 7) buffer Results { uint v[]; } results;

#include "cambi_tables.glsl"

const uint kNoKey = 0xffffu;  // a sample without a histogram key

uint top_index(uint slot, uint bin) { return slot * kTopBins + bin; }
uint sel_index(uint slot, uint word) { return kSelAt + slot * kSelWords + word; }
uint low_index(uint slot, uint bin) { return kLowAt + slot * kLowBins + bin; }

// A c-value's bits in units of 2^-24: exact (every nonzero c-value is at
// least 1/2, hence a multiple of 2^-24).
int64_t units_of(uint bits)
{
    const uint e = bits >> 23;  // biased exponent, >= 126
    const int64_t m = int64_t((bits & 0x7fffffu) | 0x800000u);
    return m << (e - 126u);
}
