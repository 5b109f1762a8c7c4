// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ciede: CIEDE2000 of every pixel of two pictures, summed per tile.
//
// The twin of ciede_cpu.cpp's per-pixel work. A workgroup of 32 x 8 threads
// owns a tile of 32 x 32 pixels, each thread one column of four pixels (rows
// 8 apart). Per pixel: the three samples of both pictures (chroma read where
// libvmaf's upsampling reads it, see chroma()), YUV -> Lab in double with float
// results (8-bit input takes red and blue from the CPU's table), CIEDE2000
// with the CPU code's float/double mix. The pow, exp, sin, cos and atan2 the
// CPU takes from the C library come from ciede_math.glsl;
// divisions and square roots are corrected to exact rounding. Every variable
// is `precise` and every expression keeps the CPU's order of operations.
//
// A thread adds its pixels' differences in double, in row order; the
// workgroup adds its 256 sums in a fixed tree and writes the double to its
// slot, with the pixels whose difference depends on how the C library's powf
// rounds C'^7 (ciede_tables.h, gpu::kAmbiguityBits); the host settles those
// and adds the slots in tile order (ciede_vk.cpp).
#extension GL_EXT_control_flow_attributes : require

#include "ciede_math.glsl"

layout(local_size_x = 32, local_size_y = 8) in;
layout(constant_id = 0) const uint kBytesPerSample = 1;  // 1: 8-bit input, 2: deeper
const uint kTileW = kCiedeTileW, kTileH = kCiedeTileH;  // a multiple of the workgroup's height
const uint kRowsPerThread = kTileH / gl_WorkGroupSize.y;
const uint kThreads = gl_WorkGroupSize.x * gl_WorkGroupSize.y;

layout(std430, set = 0, binding = 0) readonly buffer Planes { uint words[]; } planes;
layout(std430, set = 0, binding = 1) writeonly buffer Slots { uint words[]; } slots;
// 8-bit input: the CPU's linear red of every (Y, V) and blue of every (Y, U)
// (ciede::linear_rb_table_8bit()); deeper input: unused.
layout(std430, set = 0, binding = 2) readonly buffer Linear { double v[]; } linear;

layout(push_constant) uniform Params {
    double luma_black, luma_scale, chroma_zero, chroma_scale;  // ciede::normalization
    uint ref_off[3];      // byte offsets of the reference's planes
    uint dist_off[3];     // and the distorted picture's
    uint luma_stride;     // bytes per row (both pictures)
    uint chroma_stride;
    uint width, height;
    uint chroma_w, chroma_h;  // the chroma planes' size in libvmaf (w >> 1 etc.)
    uint libvmaf_stride;  // libvmaf's chroma row pitch in samples, 0 without chroma
    uint layout_;         // 0: 4:4:4, 1: 4:2:2, 2: 4:2:0
    uint tiles_x;
    uint out_word;        // the first tile's slot in `words`
} p;

shared double lane_sum[kThreads];
// Pixels whose dE00 hangs on powf's rounding of C'^7 (at most every pixel of
// the tile): C', C'^7 taken, and dE00 with the other neighbour minus dE00 with
// it, exact in float (the two are within a few ulps: Sterbenz). 14 KiB of
// shared memory in all, under Vulkan's minimum of 16 KiB.
shared uint n_unsettled;
shared float unsettled_cbar[kTileW * kTileH], unsettled_c7[kTileW * kTileH], unsettled_change[kTileW * kTileH];

uint sample_at(uint byte_off)
{
    const uint w = planes.words[byte_off >> 2];
    if (kBytesPerSample == 1) return (w >> ((byte_off & 3u) * 8u)) & 0xffu;
    return (w >> ((byte_off & 2u) * 8u)) & 0xffffu;
}

// Chroma plane c (1 Cb, 2 Cr) at luma position (i, j), as ciede_cpu.cpp's
// LibvmafChroma reads it: for a subsampled picture the flat offset of source
// row i / 2 and column j / 2 (4:2:0) or j (4:2:2) in libvmaf's padded layout,
// where rows of Cb run on into Cr, and anything else reads as 0.
uint chroma(uint side_off1, uint side_off2, uint c, uint i, uint j)
{
    if (p.layout_ == 0u) return sample_at((c == 1u ? side_off1 : side_off2) + i * p.chroma_stride + j * kBytesPerSample);
    if (p.libvmaf_stride == 0u) return 0u;
    const uint off = (i >> 1) * p.libvmaf_stride + (p.layout_ == 2u ? j >> 1 : j);
    uint row = off / p.libvmaf_stride;
    const uint col = off - row * p.libvmaf_stride;
    if (row >= p.chroma_h) {
        if (c != 1u) return 0u;
        c = 2u;
        row -= p.chroma_h;
        if (row >= p.chroma_h) return 0u;
    }
    if (col >= p.chroma_w) return 0u;
    return sample_at((c == 1u ? side_off1 : side_off2) + row * p.chroma_stride + col * kBytesPerSample);
}

struct Lab {
    float l, a, b;
};

// ---- YUV -> Lab (ciede_cpu.cpp's yuv_to_lab) ----

double srgb_to_linear(double c)
{
    precise double v;
    if (c > kCiedeSrgbKnee) v = pow_gamma((c + kCiedeSrgbOffset) * kCiedeSrgbInvScale);
    else v = c * kCiedeSrgbInvSlope;
    return v;
}

float lab_f(double t)
{
    precise float v;
    if (t > kCiedeLabEpsilon) v = float(pow_cube_root(t));
    else v = float((kCiedeLabKappa * t + kCiedeLabLOffset) * kCiedeInv116);
    return v;
}

Lab yuv_to_lab(uint y0, uint u0, uint v0)
{
    precise double y = (double(y0) - p.luma_black) * p.luma_scale;
    precise double u = (double(u0) - p.chroma_zero) * p.chroma_scale;
    precise double v = (double(v0) - p.chroma_zero) * p.chroma_scale;

    precise double r, b;
    if (kBytesPerSample == 1) {
        r = linear.v[y0 << 8 | v0];
        b = linear.v[kCiedeLinearTableSide + (y0 << 8 | u0)];
    } else {
        r = srgb_to_linear(y + kCiedeRFromV * v);
        b = srgb_to_linear(y + kCiedeBFromU * u);
    }
    precise double g = srgb_to_linear(y - kCiedeGFromU * u - kCiedeGFromV * v);

    precise double fx = lab_f((r * kCiedeXyz[0] + g * kCiedeXyz[1] + b * kCiedeXyz[2]) * kCiedeInvWhiteX);
    precise double fy = lab_f(r * kCiedeXyz[3] + g * kCiedeXyz[4] + b * kCiedeXyz[5]);
    precise double fz = lab_f((r * kCiedeXyz[6] + g * kCiedeXyz[7] + b * kCiedeXyz[8]) * kCiedeInvWhiteZ);
    Lab o;
    precise float l = float(kCiedeLabL * fy - kCiedeLabLOffset);
    precise float a = float(kCiedeLabA * (fx - fy));
    precise float bb = float(kCiedeLabB * (fy - fz));
    o.l = l;
    o.a = a;
    o.b = bb;
    return o;
}

// ---- CIEDE2000 (ciede_cpu.cpp's ciede2000 and helpers) ----

float hue(float b, float a)
{
    if (b == 0.0 && a == 0.0) return 0.0;
    precise float h = float(atan2_d(double(b), double(a)));
    if (h < 0.0) h = float(double(h) + kCiedeTwoPi);
    return h;
}

float hue_delta(float c1, float c2, float h1, float h2)
{
    if (c1 == 0.0 || c2 == 0.0) return 0.0;
    precise float d = h2 - h1;
    precise float a = h1 - h2;
    if (double(abs(a)) <= kCiedePi) return d;
    precise float w;
    if (h2 <= h1) w = float(double(d) + kCiedeTwoPi);
    else w = float(double(d) - kCiedeTwoPi);
    return w;
}

float hue_mean(float h1, float h2)
{
    precise float m;
    precise float d = h1 - h2;
    if (abs(double(d)) > kCiedePi) m = float((double(h1 + h2) + kCiedeTwoPi) * 0.5LF);
    else m = float(double(h1 + h2) * 0.5LF);
    return m;
}

// T = 1 - T1 cos(h - pi/6) + T2 cos(2h) + T3 cos(3h + pi/30) - T4 cos(4h - 7pi/20),
// the cosines taken, as on the CPU, of the rounded double arguments. One sin
// and cos of h give the exact arguments' cosines by the angle-sum formulas;
// each is then moved to its rounded argument a - e by + e sin(a), e the
// argument's rounding error (exact from two_sum).
float hue_weight_t(float hbar)
{
    precise double h = double(hbar);
    precise double s, c;
    sincos_d(h, s, c);
    precise double c2 = c * c - s * s, s2 = 2.0 * s * c;          // 2h
    precise double c3 = c2 * c - s2 * s, s3 = s2 * c + c2 * s;     // 3h
    precise double c4 = c2 * c2 - s2 * s2, s4 = 2.0 * s2 * c2;     // 4h
    precise double arg, e;
    // h - pi/6
    two_sum(h, -kCiedePiOver6, arg, e);
    precise double k1 = (c * kCiedePhaseCos[0] + s * kCiedePhaseSin[0]) + e * (s * kCiedePhaseCos[0] - c * kCiedePhaseSin[0]);
    // 3h + pi/30 (3h is exact)
    two_sum(3.0 * h, kCiedePiOver30, arg, e);
    precise double k3 = (c3 * kCiedePhaseCos[1] - s3 * kCiedePhaseSin[1]) + e * (s3 * kCiedePhaseCos[1] + c3 * kCiedePhaseSin[1]);
    // 4h - 7pi/20 (4h is exact)
    two_sum(4.0 * h, -kCiede7PiOver20, arg, e);
    precise double k4 = (c4 * kCiedePhaseCos[2] + s4 * kCiedePhaseSin[2]) + e * (s4 * kCiedePhaseCos[2] - c4 * kCiedePhaseSin[2]);
    precise float t = float(1.0 - kCiedeT1 * k1 + kCiedeT2 * c2 + kCiedeT3 * k3 - kCiedeT4 * k4);
    return t;
}

float to_degrees(float rad)
{
    precise float v = float(double(rad) * kCiedeRadToDeg);
    return v;
}

float to_radians(float deg)
{
    precise float v = float(double(deg) * kCiedeDegToRad);
    return v;
}

// R_T = -2 sqrt(C'^7 / (C'^7 + 25^7)) sin(angle), from C'^7 and sin(angle).
float rotation(float c7, double sin_angle)
{
    precise float ratio = fdiv_rn(c7, c7 + kCiedeKnee7F);
    precise float rt = float(-2.0LF * sqrt_rn(double(ratio)) * sin_angle);
    return rt;
}

// R_T's angle, sin(60 exp(-((h - 275) / 25)^2) degrees).
double rotation_sin(float hbar)
{
    precise float t = float((double(to_degrees(hbar)) - kCiedeRtCentre) * kCiedeInvRtWidth);
    precise float t2 = t * t;  // powf(t, 2): exact in double, so correctly rounded
    precise float angle = to_radians(float(kCiedeRtAngle * exp_d(double(-t2))));
    return sin_direct(double(angle));  // angle in [0, 60 degrees]
}

double sq(float v)
{
    precise double d = double(v) * double(v);
    return d;
}

float delta_e(float L, float C, float H, float rt)
{
    precise float de = float(sqrt_rn(sq(L) + sq(C) + sq(H) + double(rt * C * H)));
    return de;
}

// A pixel the host settles (ciede_tables.h, gpu::kAmbiguityBits).
struct Unsettled {
    bool any;
    float cbar_prime, c7, de, de_other;
};

float ciede2000(Lab p1, Lab p2, out Unsettled u)
{
    precise float dl = p2.l - p1.l;
    precise float lbar = (p1.l + p2.l) * 0.5;
    precise float c1 = float(sqrt_rn(sq(p1.a) + sq(p1.b)));
    precise float c2 = float(sqrt_rn(sq(p2.a) + sq(p2.b)));
    precise float cbar = (c1 + c2) * 0.5;
    precise double cbar7 = pow7_d(cbar);
    precise double g = 1.0LF - sqrt_rn(div_rn(cbar7, cbar7 + kCiedeKnee7));
    precise float a1 = float(double(p1.a) + double(p1.a * 0.5) * g);
    precise float a2 = float(double(p2.a) + double(p2.a * 0.5) * g);
    precise float cp1 = float(sqrt_rn(sq(a1) + sq(p1.b)));
    precise float cp2 = float(sqrt_rn(sq(a2) + sq(p2.b)));
    precise float cbar_prime = (cp1 + cp2) * 0.5;
    precise float dc = cp2 - cp1;
    precise float lm = lbar - kCiedeLightnessMid;
    precise float sl = float(1.0LF + div_rn(kCiedeSl * sq(lm), sqrt_rn(kCiedeSlOffset + sq(lm))));
    precise float sc = float(1.0LF + kCiedeSc * double(cbar_prime));
    precise float h1 = hue(p1.b, a1);
    precise float h2 = hue(p2.b, a2);
    precise float dh = hue_delta(c1, c2, h1, h2);
    precise float dH = float(2.0LF * sqrt_rn(double(cp1 * cp2)) * sin_direct(double(dh) * 0.5LF));
    precise float hbar = hue_mean(h1, h2);
    precise float t = hue_weight_t(hbar);
    precise float sh = float(1.0LF + kCiedeSh * double(cbar_prime) * double(t));
    precise double sin_angle = rotation_sin(hbar);
    float c7_other;
    bool near_boundary;
    precise float c7 = pow7_f(cbar_prime, kCiedeAmbiguityBits, c7_other, near_boundary);
    precise float rt = rotation(c7, sin_angle);
    precise float L = fdiv_rn(dl, kCiedeWeightL * sl);
    precise float C = fdiv_rn(dc, kCiedeWeightC * sc);
    precise float H = fdiv_rn(dH, kCiedeWeightH * sh);
    precise float de = delta_e(L, C, H, rt);
    u.any = false;
    if (near_boundary) {
        precise float de_other = delta_e(L, C, H, rotation(c7_other, sin_angle));
        u.any = de_other != de;
        u.cbar_prime = cbar_prime;
        u.c7 = c7;
        u.de = de;
        u.de_other = de_other;
    }
    return de;
}

Lab lab_at(uint off0, uint off1, uint off2, uint i, uint j)
{
    const uint y = sample_at(off0 + i * p.luma_stride + j * kBytesPerSample);
    const uint u = chroma(off1, off2, 1u, i, j);
    const uint v = chroma(off1, off2, 2u, i, j);
    return yuv_to_lab(y, u, v);
}

void main()
{
    const uint lane = gl_LocalInvocationIndex;
    const uint tile = gl_WorkGroupID.x;
    const uint ty = tile / p.tiles_x, tx = tile - ty * p.tiles_x;
    const uint j = tx * kTileW + gl_LocalInvocationID.x;
    const uint slot = p.out_word + tile * kCiedeSlotWords;
    if (lane == 0) n_unsettled = 0;
    barrier();

    precise double acc = 0.0LF;
    if (j < p.width) {
        for (uint k = 0; k < kRowsPerThread; k++) {
            const uint i = ty * kTileH + gl_LocalInvocationID.y + k * gl_WorkGroupSize.y;
            if (i >= p.height) break;
            const Lab a = lab_at(p.ref_off[0], p.ref_off[1], p.ref_off[2], i, j);
            const Lab b = lab_at(p.dist_off[0], p.dist_off[1], p.dist_off[2], i, j);
            Unsettled u;
            acc = acc + double(ciede2000(a, b, u));
            if (u.any) {
                const uint n = atomicAdd(n_unsettled, 1u);
                unsettled_cbar[n] = u.cbar_prime;
                unsettled_c7[n] = u.c7;
                precise float change = u.de_other - u.de;
                unsettled_change[n] = change;
            }
        }
    }

    lane_sum[lane] = acc;
    barrier();
    [[unroll]] for (uint half_ = kThreads / 2; half_ > 0; half_ /= 2) {
        if (lane < half_) {
            precise double s = lane_sum[lane] + lane_sum[lane + half_];
            lane_sum[lane] = s;
        }
        barrier();
    }
    if (lane == 0) {
        const uvec2 sum = unpackDouble2x32(lane_sum[0]);
        slots.words[slot] = sum.x;
        slots.words[slot + 1] = sum.y;
        // The changes summed per value of C' (rare: usually none).
        uint keys = 0, left = 0;
        uint key_cbar[kCiedeSettleKeys];
        float key_c7[kCiedeSettleKeys];
        double key_sum[kCiedeSettleKeys];
        for (uint r = 0; r < n_unsettled; r++) {
            const uint cb = floatBitsToUint(unsettled_cbar[r]);
            uint k = 0;
            while (k < keys && key_cbar[k] != cb) k++;
            if (k == keys) {
                if (keys == kCiedeSettleKeys) {
                    left++;
                    continue;
                }
                keys++;
                key_cbar[k] = cb;
                key_c7[k] = unsettled_c7[r];
                key_sum[k] = 0.0LF;
            }
            precise double sum = key_sum[k] + double(unsettled_change[r]);
            key_sum[k] = sum;
        }
        for (uint k = 0; k < keys; k++) {
            const uint at = slot + 4 + k * kCiedeKeyWords;
            const uvec2 c = unpackDouble2x32(key_sum[k]);
            slots.words[at] = key_cbar[k];
            slots.words[at + 1] = floatBitsToUint(key_c7[k]);
            slots.words[at + 2] = c.x;
            slots.words[at + 3] = c.y;
        }
        slots.words[slot + 2] = keys;
        slots.words[slot + 3] = left;
    }
}
