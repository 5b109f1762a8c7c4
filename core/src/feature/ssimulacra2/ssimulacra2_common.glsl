// SPDX-License-Identifier: BSD-2-Clause-Patent
// What the ssimulacra2 kernels share: the constants (binding 0, written by
// ssimulacra2_vk.cpp from ssimulacra2_tables.h and the CPU's own set-up), the
// push constants, and libjxl's multiply-add rounded once or twice as the
// option libjxl_fma says. Every float expression whose value a score depends
// on is `precise`: the compiler may neither fuse nor reorder it. Every
// buffer of the kernels is `restrict` (no two bindings of a dispatch share
// memory), so that a compiler may keep the constants in registers or its
// constant cache across the stores of a loop instead of reading them again.
#include "feature/common/libjxl_math.glsl"

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
    // The scales (ssimulacra2_vk.cpp's scales_of()): their number, sizes,
    // regions of the scratch buffers (the first float of each, its 15
    // planes packed) and of each copy of the XYB planes (6 planes packed),
    // the columns before each in the results, and the first workgroup of
    // each in the row blur's and the column blur's grids (one more entry:
    // the grid's size).
    uint scales;
    uint scale_w[6];
    uint scale_h[6];
    uint scale_at[6];
    uint xyb_at[6];
    uint sum_base[6];
    uint row_groups[7];
    uint column_groups[7];
} k;

layout(push_constant) uniform Params {
    uint off[6];     // words: the reference's Y, U, V planes, then the distorted's
    uint stride[2];  // words from row to row: luma, chroma
    uint out_word;   // first double of this frame's results
    uint group_base; // the blurs: the dispatch's first workgroup in the grid of all the scales
} p;

// The scale this workgroup works on: its size and its region of the scratch
// buffers (use_scale()).
uint s_w, s_h, s_at;

void use_scale(uint s)
{
    s_w = k.scale_w[s];
    s_h = k.scale_h[s];
    s_at = k.scale_at[s];
}

// The scale of workgroup g of the row blur's grid (rows) or of the column
// blur's, which take the scales one after another (a dispatch may hold
// some of them: its workgroup g is the grid's p.group_base + g).
uint scale_of(uint g, bool rows)
{
    uint s = 0;
    while (s + 1 < k.scales && g >= (rows ? k.row_groups[s + 1] : k.column_groups[s + 1])) s++;
    return s;
}

// Floats from one scratch plane of this scale to the next.
uint scratch_plane()
{
    return s_w * s_h;
}

// madd() on each lane, written out: the kernels' loops are not unrolled by
// glslc (whose unroller drops `precise` from the copies it makes), so a lane
// loop's arrays would live in memory; vectors with constant lanes stay in
// registers.
vec4 madd4(vec4 a, vec4 b, vec4 c)
{
    return vec4(madd(a.x, b.x, c.x), madd(a.y, b.y, c.y), madd(a.z, b.z, c.z), madd(a.w, b.w, c.w));
}
