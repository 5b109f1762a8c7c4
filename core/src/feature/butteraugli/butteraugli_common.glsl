// SPDX-License-Identifier: BSD-2-Clause-Patent
// What the butteraugli kernels share: the constants (binding 0, written by
// butteraugli_vk.cpp from butteraugli_tables.h with the CPU's own set-up), the
// push constants, the scratch buffer (binding 1: every plane of both
// resolutions, at word offsets), and the CPU's arithmetic: libjxl's
// multiply-add rounded once or twice as the option libjxl_fma says, and
// divisions and square roots rounded once as the CPU's are (Vulkan lets a
// float division be 2.5 units in the last place off, and a square root 3).
// Every float expression whose value a score depends on is `precise`: the
// compiler may neither fuse nor reorder it.
#include "feature/common/libjxl_math.glsl"

layout(std430, set = 0, binding = 0) restrict readonly buffer Consts {
    double conv[8];  // y_off, y_scale, c_off, c_scale, cr_r, cb_g, cr_g, cb_b
    double mask_y[3];     // offset, scaler, mul
    double mask_dc_y[3];  // offset, scaler, mul
    double global_scale;  // kGlobalScale (a float)
    double sub_scale;     // 1 - 0.3 * 0.5: the full map's weight beside the subsample's
    float srgb_p[5];
    float srgb_q[5];
    float srgb_threshold;
    float srgb_low_div_inv;
    float intensity_target;
    float w5[3];          // the 5-tap blur's weights (centre, 1, 2 away)
    float taps[68];       // kernels: lf (33 taps) at 0, hf (15) at 33, uhf (7) at 48, mask (13) at 55
    float scaled[36];     // each kernel's first half and centre scaled by its sum: lf 0, hf 17, uhf 25, mask 29
    float mix[12];
    float log2_p[3];
    float log2_q[3];
    float gamma_mul, gamma_add, gamma_bias, min_sensitivity, min_mixed01, min_mixed2;
    float lf_xmul, lf_ymul, lf_bmul, lf_y_to_b;
    float suppress_s, suppress_one_minus_s, suppress_yw;
    float remove_mf, add_mf, remove_hf, add_hf, remove_uhf;
    float maxclamp_hf, maxclamp_uhf, maxclamp_mul, mul_y_hf, mul_y_uhf;
    float malta_gt[6];    // norm2_0gt1 of the six Malta maps (uhf Y, uhf X, hf Y, hf X, mf Y, mf X)
    float malta_lt[6];    // norm2_0lt1
    float malta_norm1[6]; // norm1 as a float
    float asym_gt[2], asym_lt[2];  // L2DiffAsymmetric's weights of X and Y (already times 0.8)
    float l2_mf[3], l2_lf[3];
    float k04, masking_muls0, masking_muls1, masking_muls2;
    float mask_mul, mask_bias, mask_sqrt_bias, mask_to_error;
    float erosion[3];     // 0.45, 0.3, 0.25
    float sub_weight;     // 0.5
} k;

layout(push_constant) uniform Params {
    uint a[6];   // input planes (word offsets into the scratch buffer)
    uint b[6];   // output planes
    uint w, h;   // the resolution's size
    uint u0, u1, u2, u3;  // per kernel
} p;

layout(std430, set = 0, binding = 1) restrict buffer Work { float v[]; } work;

// a * b - c (Highway's MulSub): fused, a * b + (-c).
float msub(float a, float b, float c)
{
    if (kFused) return madd(a, b, -c);
    precise float pr = a * b;
    precise float r = pr - c;
    return r;
}

// sqrt(x) rounded once: a first guess through double, then the float on the
// right side of the midpoints next to it. A midpoint of two neighbouring
// floats has 25 significant bits, so its square is exact in double and never
// equal to a float x.
float sqrt_once(float x)
{
    if (!(x > 0.0) || isinf(x)) {
        precise float r = sqrt(x);
        return x == 0.0 ? x : r;
    }
    precise float s = float(sqrt(double(x)));
    const double xd = double(x);
    const float up = uintBitsToFloat(floatBitsToUint(s) + 1u);
    precise double mu = (double(s) + double(up)) * 0.5lf;
    precise double mu2 = mu * mu;
    if (mu2 < xd) return up;
    const float dn = uintBitsToFloat(floatBitsToUint(s) - 1u);
    precise double md = (double(dn) + double(s)) * 0.5lf;
    precise double md2 = md * md;
    if (md2 > xd) return dn;
    return s;
}

// libjxl's Mirror(): the edge sample repeated once, then mirrored.
int mirror(int x, int size)
{
    while (x < 0 || x >= size) x = x < 0 ? -x - 1 : 2 * size - 1 - x;
    return x;
}
