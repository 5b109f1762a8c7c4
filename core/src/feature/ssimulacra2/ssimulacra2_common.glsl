// SPDX-License-Identifier: BSD-2-Clause-Patent
// What the ssimulacra2 kernels share: the constants (binding 0, written by
// ssimulacra2_vk.cpp from ssimulacra2_tables.h and the CPU's own set-up), the
// push constants, and libjxl's multiply-add rounded once or twice as the
// option libjxl_fma says. Every float expression whose value a score depends
// on is `precise`: the compiler may neither fuse nor reorder it. Every
// buffer of the kernels is `restrict` (no two bindings of a dispatch share
// memory), so that a compiler may keep the constants in registers or its
// constant cache across the stores of a loop instead of reading them again.
#include "ssimulacra2_fma.glsl"

layout(constant_id = 10) const bool kFused = true;
// The device's fma() passed the probe (ssimulacra2_vk.cpp's run_fma_probe()):
// libjxl's fused multiply-add is fma_native(), else fma_once().
layout(constant_id = 11) const bool kNativeFma = false;

layout(std430, set = 0, binding = 0) restrict readonly buffer Consts {
    double conv[8];  // y_off, y_scale, c_off, c_scale, cr_r, cb_g, cr_g, cb_b
    float srgb_p[5];
    float srgb_q[5];
    float srgb_threshold;
    float srgb_low_div_inv;
    float opsin[9];
    float opsin_bias;
    float neg_bias_cbrt;
    float k13;
    float k43;
    float x_scale;
    float x_offset;
    float y_offset;
    float b_offset;
    float c2;
    float n2[3];
    float d1[3];
    float mul_prev[12];
    float mul_prev2[12];
    float mul_in[12];
    float mul_in_shifted[48];
    int radius;
    int cbrt_exp_bias;
    int cbrt_exp_mul;
} k;

layout(push_constant) uniform Params {
    uint off[6];     // words: the reference's Y, U, V planes, then the distorted's
    uint stride[2];  // words from row to row: luma, chroma
    uint w;          // this scale's size
    uint h;
    uint plane;      // floats from one linear plane to the next (the full size's)
    uint in_w;       // the previous scale's size (downsampling)
    uint in_h;
    uint out_word;   // first double of this frame's results
    uint sum_base;   // columns of the scales before this one (their sums come first)
} p;

// Floats from one scratch plane of this scale to the next: each scale has
// its own region of the scratch buffers (bound to the scale's descriptor
// sets), its planes packed.
uint scratch_plane()
{
    return p.w * p.h;
}

// a / b rounded once. Vulkan lets a float division be 2.5 units in the last
// place off; in double, then rounded to float, the quotient of two floats is
// the correctly rounded one (53 >= 2 * 24 + 2 bits) as the CPU's.
float div_once(float a, float b)
{
    precise float r = float(double(a) / double(b));
    return r;
}

// libjxl's multiply-add: fused (libjxl_fma=1) or a product and a sum.
float madd(float a, float b, float c)
{
    if (kFused) return kNativeFma ? fma_native(a, b, c) : fma_once(a, b, c);
    precise float pr = a * b;
    precise float r = pr + c;
    return r;
}

// madd() on each lane, written out: the kernels' loops are not unrolled by
// glslc (whose unroller drops `precise` from the copies it makes), so a lane
// loop's arrays would live in memory; vectors with constant lanes stay in
// registers.
vec4 madd4(vec4 a, vec4 b, vec4 c)
{
    return vec4(madd(a.x, b.x, c.x), madd(a.y, b.y, c.y), madd(a.z, b.z, c.z), madd(a.w, b.w, c.w));
}
