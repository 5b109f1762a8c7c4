// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// PSNR-HVS: the masked, CSF-weighted squared DCT errors of every 8x8 block
// (a new block every 7 samples) of the three planes, in one dispatch.
//
// A workgroup takes 32 consecutive blocks of a row of blocks (z picks the
// plane, y the row of blocks, x the run of 32 within the row), 256 threads
// working together through shared memory (below). Each block mirrors
// psnr_hvs_cpu.cpp: the variance ratio of each picture's block in float (the
// sums in the CPU's order), the integer lifting DCT (bit-identical: 32-bit
// wrapping products, arithmetic shifts, halving toward zero), the masking
// strength, and the 64 weighted squared errors. Every float expression is
// `precise` (no contraction into fma, no reassociation). Float divisions and
// the square root are taken in double and rounded to float, which gives the
// correctly rounded float result the CPU computes (the float midpoints are out
// of reach of the double error).
//
// Out: the 64 errors of each block in the CPU's order (the terms of the
// plane's serial float sum, psnr_hvs_sum.glsl), and their sum in double (for
// the estimate of where the serial sum stands, psnr_hvs_prefix.comp). Blocks
// are numbered plane by plane, row by row, as the CPU visits them.
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_control_flow_attributes : require

#include "psnr_hvs_tables.glsl"

layout(local_size_x = 256) in;
layout(constant_id = 0) const uint kSampleBytes = 1;  // 1: 8-bit input, 2: deeper

layout(std430, set = 0, binding = 0) readonly buffer Planes8 { uint8_t v[]; } planes8;
layout(std430, set = 0, binding = 0) readonly buffer Planes16 { uint16_t v[]; } planes16;
layout(std430, set = 0, binding = 1) writeonly buffer Terms { float v[]; } terms;
layout(std430, set = 0, binding = 2) writeonly buffer Sums { double v[]; } sums;

struct Plane {
    uint ref, dist;     // first sample of each picture's plane
    uint stride;        // samples from row to row
    uint blocks_x;      // blocks in a row
    uint blocks_y;      // rows of blocks
    uint first_block;   // the number of this plane's first block
    uint pad0_, pad1_;  // 32 bytes a plane, under any packing rule
};

layout(push_constant) uniform Params {
    Plane plane[3];
    uint total_blocks;  // terms are stored coefficient-major: term k of block b at k * total_blocks + b
} p;

int sample_at(uint at)
{
    if (kSampleBytes == 1) return int(planes8.v[at]);
    return int(planes16.v[at]);
}

// round(v * mul / 2^shift), the product and rounding term wrapping in 32 bits.
int lift(int v, int mul, int shift)
{
    return int(uint(v) * uint(mul) + (1u << (shift - 1))) >> shift;
}

// v / 2 rounded toward zero.
int half_(int v) { return (v + int(uint(v) >> 31)) >> 1; }

// One 8-point forward transform in place (psnr_hvs::fdct8).
void fdct8(inout int x[8])
{
    int c0 = x[0], c4 = x[1], c2 = x[2], c6 = x[3];
    int c7 = x[4], c3 = x[5], c5 = x[6], c1 = x[7];

    c1 = c0 - c1;
    const int c1_half = half_(c1);
    c0 -= c1_half;
    c4 += c5;
    const int c4_half = half_(c4);
    c5 -= c4_half;
    c3 = c2 - c3;
    c2 -= half_(c3);
    c6 += c7;
    const int c6_half = half_(c6);
    c7 = c6_half - c7;

    c0 += c6_half;
    c6 = c0 - c6;
    c2 = c4_half - c2;
    c4 = c2 - c4;
    c0 -= lift(c4, kHvsTanPi8HalfMul, kHvsTanPi8HalfShift);
    c4 += lift(c0, kHvsSqrtHalf14Mul, kHvsSqrtHalf14Shift);
    c0 -= lift(c4, kHvsTanPi8HalfMul, kHvsTanPi8HalfShift);
    c6 -= lift(c2, kHvsDst3Pi8TanMul, kHvsDst3Pi8TanShift);
    c2 += lift(c6, kHvsDst3Pi8SinMul, kHvsDst3Pi8SinShift);
    c6 -= lift(c2, kHvsDst3Pi8TanMul, kHvsDst3Pi8TanShift);

    c3 += lift(c5, kHvsTwoMinusSqrt2Mul, kHvsTwoMinusSqrt2Shift);
    c5 += lift(c3, kHvsSqrtHalf14Mul, kHvsSqrtHalf14Shift);
    c3 -= lift(c5, kHvsSqrt2MinusHalfMul, kHvsSqrt2MinusHalfShift);
    c7 = half_(c5) - c7;
    c5 -= c7;
    c3 = c1_half - c3;
    c1 -= c3;
    c7 += lift(c1, kHvsPi16TanMul, kHvsPi16TanShift);
    c1 -= lift(c7, kHvsPi16SinMul, kHvsPi16SinShift);
    c7 += lift(c1, kHvsPi16TanMul, kHvsPi16TanShift);
    c5 += lift(c3, kHvsPi3_16TanMul, kHvsPi3_16TanShift);
    c3 -= lift(c5, kHvsPi3_16SinMul, kHvsPi3_16SinShift);
    c5 += lift(c3, kHvsPi3_16TanMul, kHvsPi3_16TanShift);

    x[0] = c0; x[1] = c1; x[2] = c2; x[3] = c3;
    x[4] = c4; x[5] = c5; x[6] = c6; x[7] = c7;
}

// The correctly rounded float quotient a / b.
float fdiv(float a, float b) { return float(double(a) / double(b)); }


// The workgroup's layout. A "pair" is one picture's block: pair = pic * 32 + slot.
const uint kThreads = gl_WorkGroupSize.x;
const uint kBlocksPerGroup = 32;
const uint kPairs = 2 * kBlocksPerGroup;
const uint kStripW = kBlocksPerGroup * kHvsStep + 1;  // samples across the run's blocks
const uint kPairStride = 65;  // words per pair's 64 values (odd: fewer bank conflicts)

// Both pictures' 8 rows under the run; once the transforms and variances are
// done, the blocks' partial sums of their terms (doubles as two words each).
shared int strip[2 * 8 * kStripW];
shared int coef[kPairs * kPairStride];  // column results, then coefficients [v][u]
shared float var_of[kPairs], quads_of[kPairs], strength_of[kPairs];

int strip_at(uint pair, uint i, uint j)
{
    return strip[((pair / kBlocksPerGroup) * 8u + i) * kStripW + (pair % kBlocksPerGroup) * kHvsStep + j];
}

// The block's variance over its 64 samples (kind 0), or its four quadrants'
// variances summed (kind 1), each a serial float sum in the CPU's order (a
// quadrant's samples row by row; the quadrants' variances from the first). The
// means are exact: the float sums of integers under 2^24 are the integer sums.
// (Loops holding `precise` arithmetic are left to the driver to unroll: an
// unrolled copy in SPIR-V may lose the NoContraction decoration.)
void variance(uint pair, uint kind)
{
    if (kind == 0u) {
        int total = 0;
        [[unroll]] for (uint i = 0; i < 8; i++)
            [[unroll]] for (uint j = 0; j < 8; j++) total += strip_at(pair, i, j);
        const precise float mean = float(total) * (1.0 / 64.0);  // exact, as the CPU's / 64
        precise float var = 0.0;
        for (uint i = 0; i < 8; i++)
            for (uint j = 0; j < 8; j++) {
                const precise float d = float(strip_at(pair, i, j)) - mean;
                var += d * d;
            }
        var *= uintBitsToFloat(kHvsBlockScaleBits);
        var_of[pair] = var;
    } else {
        precise float quads = 0.0;  // 0 + the first quadrant's variance: that variance
        for (uint q = 0; q < 4; q++) {
            // Quadrant q: +1 for the lower half, +2 for the right half.
            const uint i0 = (q & 1u) * 4u, j0 = (q >> 1) * 4u;
            int total = 0;
            [[unroll]] for (uint i = 0; i < 4; i++)
                [[unroll]] for (uint j = 0; j < 4; j++) total += strip_at(pair, i0 + i, j0 + j);
            const precise float mean = float(total) * (1.0 / 16.0);  // exact
            precise float qvar = 0.0;
            for (uint i = i0; i < i0 + 4u; i++)
                for (uint j = j0; j < j0 + 4u; j++) {
                    const precise float d = float(strip_at(pair, i, j)) - mean;
                    qvar += d * d;
                }
            qvar *= uintBitsToFloat(kHvsQuadScaleBits);
            quads += qvar;
        }
        quads_of[pair] = quads;
    }
}

void main()
{
    const uint plane = gl_WorkGroupID.z;
    const uint t = gl_LocalInvocationID.x;
    const Plane pl = p.plane[plane];
    const uint bx0 = gl_WorkGroupID.x * kBlocksPerGroup;
    const uint by = gl_WorkGroupID.y;
    // The dispatch covers the largest plane; whole workgroups past this one's end leave.
    if (bx0 >= pl.blocks_x || by >= pl.blocks_y) return;
    const uint nb = min(kBlocksPerGroup, pl.blocks_x - bx0);  // blocks of the run in the plane
    const uint table = plane * 64;

    // Both pictures' samples under the run (columns past its last block as 0).
    {
        const uint width = nb * kHvsStep + 1u;
        const uint x0 = bx0 * kHvsStep, y0 = by * kHvsStep;
        for (uint i = t; i < 2u * 8u * kStripW; i += kThreads) {
            const uint pic = i / (8u * kStripW), r = (i / kStripW) % 8u, j = i % kStripW;
            const uint base = pic == 0u ? pl.ref : pl.dist;
            strip[i] = j < width ? sample_at(base + (y0 + r) * pl.stride + x0 + j) : 0;
        }
    }
    barrier();

    // Column transforms, two per thread; half the threads also take a variance.
    [[unroll]] for (uint pass = 0; pass < 2; pass++) {
        const uint pair = pass * (kThreads / 8u) + (t >> 3), c = t & 7u;
        int x[8];
        [[unroll]] for (uint k = 0; k < 8; k++) x[k] = strip_at(pair, k, c);
        fdct8(x);
        [[unroll]] for (uint k = 0; k < 8; k++) coef[pair * kPairStride + 8u * k + c] = x[k];
    }
    // Threads 0-63 take the blocks' variances, 64-127 their quadrants' (each warp one kind).
    if (t < 2u * kPairs) variance(t % kPairs, t / kPairs);
    barrier();

    // Row transforms of the column results (coefficient v of the 8 columns), two per thread.
    int rows[2][8];
    [[unroll]] for (uint pass = 0; pass < 2; pass++) {
        const uint pair = pass * (kThreads / 8u) + (t >> 3), v = t & 7u;
        [[unroll]] for (uint k = 0; k < 8; k++) rows[pass][k] = coef[pair * kPairStride + 8u * v + k];
    }
    barrier();
    [[unroll]] for (uint pass = 0; pass < 2; pass++) {
        const uint pair = pass * (kThreads / 8u) + (t >> 3), v = t & 7u;
        int x[8] = rows[pass];
        fdct8(x);
        [[unroll]] for (uint k = 0; k < 8; k++) coef[pair * kPairStride + 8u * v + k] = x[k];
    }
    barrier();

    // Masking strength of each picture's block: its AC energy (the CPU's serial
    // float sum) times the variance ratio.
    if (t < kPairs) {
        precise float energy = 0.0;
        for (uint k = 1; k < 64; k++) {
            const int c = coef[t * kPairStride + k];
            const int sq = int(uint(c) * uint(c));  // wrapping, as the reference's
            energy += float(sq) * uintBitsToFloat(kHvsMaskBits[table + k]);
        }
        float ratio = var_of[t];
        if (ratio > 0.0) ratio = fdiv(quads_of[t], ratio);
        const precise float scaled = energy * ratio;
        strength_of[t] = float(sqrt(double(scaled)) / 32.0);
    }
    barrier();

    // Scoring: thread t takes coefficients 8 * (t / 32) .. + 7 of block t % 32,
    // so each store writes 32 consecutive blocks' terms.
    const uint slot = t % kBlocksPerGroup, kg = t / kBlocksPerGroup;
    const bool in_plane = slot < nb;
    const uint block = pl.first_block + by * pl.blocks_x + bx0 + slot;
    double sum = 0.0;
    if (in_plane) {
        // The reference's strength, or the distorted one's when larger (the CPU's rule).
        float strength = strength_of[slot];
        const float d_strength = strength_of[kBlocksPerGroup + slot];
        if (d_strength > strength) strength = d_strength;
        for (uint k = kg * 8u; k < kg * 8u + 8u; k++) {
            const int ref_c = coef[slot * kPairStride + k];
            const int dist_c = coef[(kBlocksPerGroup + slot) * kPairStride + k];
            precise float err = float(abs(ref_c - dist_c));
            if (k != 0u) {
                // An error well under the mask (by 0.1%, far beyond the few ulps of
                // the estimate) is masked whatever the exact quotient: 0, as on the
                // CPU, without the division.
                const float estimate = strength * uintBitsToFloat(kHvsMaskRecipBits[table + k]);
                if (err < 0.999 * estimate) {
                    err = 0.0;
                } else {
                    const float masked = fdiv(strength, uintBitsToFloat(kHvsMaskBits[table + k]));
                    err = err < masked ? 0.0 : err - masked;
                }
            }
            const float csf = uintBitsToFloat(kHvsCsfBits[table + k]);
            const precise float term = (err * csf) * (err * csf);
            terms.v[k * p.total_blocks + block] = term;
            sum += double(term);
        }
    }
    // The strip's last readers are done (barriers since): its words take the partial sums.
    const uvec2 words = unpackDouble2x32(sum);
    strip[2u * t] = int(words.x);
    strip[2u * t + 1u] = int(words.y);
    barrier();
    if (t < kBlocksPerGroup && in_plane) {
        double all = 0.0;
        for (uint g = 0; g < kThreads / kBlocksPerGroup; g++) {
            const uint at = 2u * (g * kBlocksPerGroup + t);
            all += packDouble2x32(uvec2(uint(strip[at]), uint(strip[at + 1u])));
        }
        sums.v[block] = all;
    }
}
