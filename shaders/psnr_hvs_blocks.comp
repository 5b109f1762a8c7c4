#version 450
// PSNR-HVS: the masked, CSF-weighted squared DCT errors of every 8x8 block
// (a new block every 7 samples) of the three planes, in one dispatch.
//
// Two threads per block (below): z picks the plane, y the row of blocks, x
// the blocks within the row. Each block mirrors psnr_hvs_cpu.cpp: the
// variance ratio of each picture's block in float (the sums in the CPU's
// order), the integer lifting DCT (bit-identical: 32-bit wrapping products,
// arithmetic shifts, halving toward zero), the masking strength, and the 64
// weighted squared errors. Every float expression is `precise` (no contraction
// into fma, no reassociation). Float divisions and the square root are taken
// in double and rounded to float, which gives the correctly rounded float
// result the CPU computes (the float midpoints are out of reach of the double
// error).
//
// Out: the 64 errors of each block in the CPU's order (the terms of the
// plane's serial float sum, psnr_hvs_sum.glsl), and their sum in double (for
// the estimate of where the serial sum stands, psnr_hvs_prefix.comp). Blocks
// are numbered plane by plane, row by row, as the CPU visits them.
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require

#include "psnr_hvs_tables.glsl"

layout(local_size_x = 64) in;
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

// 8x8 transform in place (psnr_hvs::fdct8x8): columns, then rows of the result;
// b[8 * v + u] ends as coefficient [v][u].
void fdct8x8(inout int b[64])
{
    int cols[64];  // cols[8 * x + v]: coefficient v of column x
    for (int x = 0; x < 8; x++) {
        int t[8];
        for (int k = 0; k < 8; k++) t[k] = b[8 * k + x];
        fdct8(t);
        for (int k = 0; k < 8; k++) cols[8 * x + k] = t[k];
    }
    for (int v = 0; v < 8; v++) {
        int t[8];
        for (int k = 0; k < 8; k++) t[k] = cols[8 * k + v];
        fdct8(t);
        for (int k = 0; k < 8; k++) b[8 * v + k] = t[k];
    }
}

// The correctly rounded float quotient a / b.
float fdiv(float a, float b) { return float(double(a) / double(b)); }

// Variance ratio of a block (the CPU's variance_ratio, same order of sums).
float variance_ratio(const int b[64])
{
    precise float mean = 0.0;
    precise float qmean[4] = float[4](0.0, 0.0, 0.0, 0.0);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            const int q = int(i >= 4) + 2 * int(j >= 4);
            mean += float(b[i * 8 + j]);
            qmean[q] += float(b[i * 8 + j]);
        }
    mean *= 1.0 / 64.0;  // exact, as the CPU's / 64
    for (int q = 0; q < 4; q++) qmean[q] *= 1.0 / 16.0;
    precise float var = 0.0;
    precise float qvar[4] = float[4](0.0, 0.0, 0.0, 0.0);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            const int q = int(i >= 4) + 2 * int(j >= 4);
            const precise float s = float(b[i * 8 + j]);
            var += (s - mean) * (s - mean);
            qvar[q] += (s - qmean[q]) * (s - qmean[q]);
        }
    var *= uintBitsToFloat(kHvsBlockScaleBits);
    for (int q = 0; q < 4; q++) qvar[q] *= uintBitsToFloat(kHvsQuadScaleBits);
    if (var > 0.0) {
        const precise float quads = qvar[0] + qvar[1] + qvar[2] + qvar[3];
        var = fdiv(quads, var);
    }
    return var;
}

// Masking strength of a transformed block (the CPU's mask_strength).
float mask_strength(const int c[64], float ratio, uint table)
{
    precise float energy = 0.0;
    for (int k = 1; k < 64; k++) {
        const int sq = int(uint(c[k]) * uint(c[k]));  // wrapping, as the reference's
        energy += float(sq) * uintBitsToFloat(kHvsMaskBits[table + k]);
    }
    const precise float scaled = energy * ratio;
    return float(sqrt(double(scaled)) / 32.0);
}

// Two threads per block (even lane: reference, odd lane: distorted), 32 blocks
// per workgroup: each thread does its picture's variance ratio, transform and
// masking strength; the pair then shares the coefficients and each thread
// scores half of them.
const uint kBlocksPerGroup = gl_WorkGroupSize.x / 2;
shared int coef[kBlocksPerGroup][2][64];
shared float pic_strength[kBlocksPerGroup][2];
shared double half_sum[kBlocksPerGroup][2];

void main()
{
    const uint plane = gl_WorkGroupID.z;
    const uint lane = gl_LocalInvocationID.x;
    const uint pic = lane & 1u, slot = lane >> 1;
    const Plane pl = p.plane[plane];
    const uint bx = gl_WorkGroupID.x * kBlocksPerGroup + slot;
    const uint by = gl_WorkGroupID.y;
    // The dispatch covers the largest plane; whole workgroups past this one's end leave.
    if (gl_WorkGroupID.x * kBlocksPerGroup >= pl.blocks_x || by >= pl.blocks_y) return;
    const bool in_plane = bx < pl.blocks_x;
    const uint table = plane * 64;

    if (in_plane) {
        const uint x0 = bx * kHvsStep, y0 = by * kHvsStep;
        const uint base = pic == 0u ? pl.ref : pl.dist;
        int b[64];
        for (uint i = 0; i < 8; i++) {
            const uint row = base + (y0 + i) * pl.stride + x0;
            for (uint j = 0; j < 8; j++) b[i * 8 + j] = sample_at(row + j);
        }
        const float ratio = variance_ratio(b);
        fdct8x8(b);
        pic_strength[slot][pic] = mask_strength(b, ratio, table);
        for (int k = 0; k < 64; k++) coef[slot][pic][k] = b[k];
    }
    barrier();
    if (in_plane) {
        // The reference's strength, or the distorted one's when larger (the CPU's rule).
        float strength = pic_strength[slot][0];
        const float d_strength = pic_strength[slot][1];
        if (d_strength > strength) strength = d_strength;
        const uint block = pl.first_block + by * pl.blocks_x + bx;
        double sum = 0.0;
        for (uint k = pic * 32u; k < pic * 32u + 32u; k++) {
            precise float err = float(abs(coef[slot][0][k] - coef[slot][1][k]));
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
        half_sum[slot][pic] = sum;
    }
    barrier();
    if (in_plane && pic == 0u) {
        const uint block = pl.first_block + by * pl.blocks_x + bx;
        sums.v[block] = half_sum[slot][0] + half_sum[slot][1];
    }
}
