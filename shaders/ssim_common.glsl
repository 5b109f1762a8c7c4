// The float SSIM family's shared kernel code (ssim_box.comp, ssim_lpf.comp,
// ssim_terms.comp): reading a plane as libvmaf's float picture, and the few
// float operations whose rounding Vulkan leaves open (the double-to-float
// conversion, float division and square root), done so that they give the
// correctly rounded result the CPU gets, from additions, multiplications and
// comparisons alone where those are exact.
//
// Bindings: 0 the Engine's planes (words), 1 this feature's float scratch
// planes, 2 the Engine's results (doubles), 3 this feature's workgroup sums
// (doubles) on their way to ssim_sum.comp.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "ssim_tables.glsl"

// 0: the input is a float plane of the scratch buffer; 1: 8-bit samples of the
// Engine's planes; 2: 16-bit samples.
layout(constant_id = 0) const uint kInput = 1;
// 1 / 2^(bpc - 8) (exact): the float picture's sample / scaler.
layout(constant_id = 1) const float kInvScaler = 1.0;

layout(std430, set = 0, binding = 0) readonly buffer Planes { uint words[]; } planes;
layout(std430, set = 0, binding = 1) buffer Scratch { float v[]; } scratch;
layout(std430, set = 0, binding = 2) buffer Results { double v[]; } results;
layout(std430, set = 0, binding = 3) buffer Partials { double v[]; } partials;

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

// The adjacent float of f towards +inf (up) or -inf.
float next_float(float f, bool up)
{
    const uint b = floatBitsToUint(f);
    if ((b & 0x7fffffffu) == 0u) return uintBitsToFloat(up ? 1u : 0x80000001u);
    return uintBitsToFloat(((b >> 31) == 0u) == up ? b + 1u : b - 1u);
}

bool is_even(float f) { return (floatBitsToUint(f) & 1u) == 0u; }

// float(d), rounded to nearest even whether the device's conversion rounds so
// or towards zero. d - double(f) is exact: the two are within a float ulp.
float to_float(double d)
{
    float f = float(d);
    precise double e = d - double(f);
    if (e == 0.0 || isnan(e)) return f;
    const float g = next_float(f, e > 0.0);
    precise double e2 = double(g) - d;
    const double a = abs(e), b = abs(e2);
    return b < a || (b == a && is_even(g)) ? g : f;
}

// The correctly rounded float square root (sqrtf). The candidate moves until v
// lies between the squares of its midpoints with its neighbours; a midpoint has
// 25 significant bits, so its square is exact in double and never equals v.
float sqrt_rn(float v)
{
    if (!(v > 0.0)) return v;  // 0, -0 (their own roots) and NaN
    const double dv = double(v);
    float s = sqrt(v);
    for (int i = 0; i < 8; i++) {
        const float up = next_float(s, true);
        precise double m = (double(s) + double(up)) * 0.5;
        precise double mm = m * m;
        if (mm < dv) {
            s = up;
            continue;
        }
        const float dn = next_float(s, false);
        m = (double(s) + double(dn)) * 0.5;
        mm = m * m;
        if (mm > dv) {
            s = dn;
            continue;
        }
        break;
    }
    return s;
}

// The correctly rounded float quotient a / b for b > 0, the same way: a
// midpoint (25 bits) times b (24 bits) is exact in double.
float div_rn(float a, float b)
{
    const double da = double(a), db = double(b);
    float q = a / b;
    for (int i = 0; i < 8; i++) {
        const float up = next_float(q, true);
        precise double m = (double(q) + double(up)) * 0.5;
        precise double p = m * db;
        if (p < da || (p == da && is_even(up))) {
            q = up;
            continue;
        }
        const float dn = next_float(q, false);
        m = (double(q) + double(dn)) * 0.5;
        p = m * db;
        if (p > da || (p == da && is_even(dn))) {
            q = dn;
            continue;
        }
        break;
    }
    return q;
}
