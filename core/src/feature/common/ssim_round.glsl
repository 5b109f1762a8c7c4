// SPDX-License-Identifier: BSD-2-Clause-Patent
// The few float operations whose rounding Vulkan leaves open, made correctly
// rounded (round to nearest, ties to even) from a candidate result the device
// computed: the double-to-float conversion, float division and square root,
// and double division by a float. Each decides from additions, subtractions,
// multiplications and comparisons that are exact, so the result is the IEEE
// one from any candidate within an ulp (the conversion: the device rounds to
// nearest or towards zero) or within a few ulps (the others).
//
// Written in the subset of GLSL and C++ both accept (with `precise` empty and
// the bit-cast built-ins defined): test_ssim_vk compiles it as C++ and checks
// it against IEEE arithmetic with perturbed candidates. Included by
// ssim_common.glsl and by SpEED's speed_blur.comp and speed_mean.comp.

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
float to_float_from(double d, float f)
{
    precise double e = d - double(f);
    if (e == 0.0 || isnan(e)) return f;
    const float g = next_float(f, e > 0.0);
    precise double e2 = double(g) - d;
    const double a = abs(e), b = abs(e2);
    return b < a || (b == a && is_even(g)) ? g : f;
}

// double(f) from f's bits alone (integer operations, no conversion) for zeros
// and normal floats: the exponent rebased from 127 to 1023 and the significand
// moved up by 29 bits. Subnormals, infinities and NaN take the conversion. The
// kernels turn some of their products to double so and the rest by
// conversion, so that both kinds of units share the work.
double to_double_bits(float f)
{
    const uint u = floatBitsToUint(f);
    const uint m = u & 0x7fffffffu;
    if (m != 0u && m - 0x00800000u >= 0x7f000000u) return double(f);
    const uint hi = (m == 0u ? 0u : (m >> 3) + 0x38000000u) | (u & 0x80000000u);
    return uint64BitsToDouble((uint64_t(hi) << 32) | uint64_t(u << 29));
}

// float(d) rounded to nearest even from d's bits alone (integer operations,
// no conversion), for d whose float is normal: the top 24 significant bits
// kept, the 29 below rounding them (more than half, or half with an odd last
// bit, round up; a carry into the exponent is the right result, up to
// infinity). Magnitudes past the floats' overflow to infinity; zero and
// results that would be subnormal take to_float_from.
float to_float_rn(double d)
{
    const uint64_t b = doubleBitsToUint64(d);
    const uint hi = uint(b >> 32), lo = uint(b & uint64_t(0xffffffffu));
    const uint e = (hi >> 20) & 0x7ffu;
    if (e > 1150u) return isnan(d) ? float(d) : uintBitsToFloat((hi & 0x80000000u) | 0x7f800000u);
    if (e < 897u) return to_float_from(d, float(d));
    uint mag = ((e - 896u) << 23) | ((hi & 0xfffffu) << 3) | (lo >> 29);
    const uint rest = lo & 0x1fffffffu;
    if (rest > 0x10000000u || (rest == 0x10000000u && (mag & 1u) != 0u)) mag += 1u;
    return uintBitsToFloat(mag | (hi & 0x80000000u));
}

// The correctly rounded float square root (sqrtf). The candidate moves until v
// lies between the squares of its midpoints with its neighbours; a midpoint has
// 25 significant bits, so its square is exact in double and never equals v.
float sqrt_rn_from(float v, float s)
{
    if (!(v > 0.0f)) return v;  // 0, -0 (their own roots) and NaN
    const double dv = double(v);
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

// The correctly rounded double quotient n / d for d > 0 with a float's
// precision (the denominators of l and c): Vulkan promises double division
// only a float's accuracy. The remainder n - q d is exact in double: q d is
// split as qh d + ql d, qh holding q's top 24 bits (48-bit product) and ql the
// rest (53-bit product), and for q within a few ulps of n / d neither
// difference loses a bit. q (a candidate for |n| / d) moves by an ulp until
// |n - q d| is at most half an ulp of q times d (ties to even), both sides
// exact; the sign is n's.
double div_rn_d_from(double n, double d, double q)
{
    if (n == 0.0 || isnan(n)) return n / d;
    const bool negative = n < 0.0;
    const double an = abs(n);
    for (int i = 0; i < 8; i++) {
        const uint64_t b = doubleBitsToUint64(q);
        const double qh = uint64BitsToDouble(b & ~((uint64_t(1) << 29) - uint64_t(1)));
        precise double ql = q - qh;
        precise double ph = qh * d;
        precise double pl = ql * d;
        precise double rh = an - ph;
        precise double r = rh - pl;
        const double up = uint64BitsToDouble(b + uint64_t(1)), dn = uint64BitsToDouble(b - uint64_t(1));
        precise double hu = (up - q) * d * 0.5;
        precise double hd = (q - dn) * d * 0.5;
        if (r > hu || (r == hu && ((b + uint64_t(1)) & uint64_t(1)) == uint64_t(0))) {
            q = up;
            continue;
        }
        if (-r > hd || (-r == hd && ((b - uint64_t(1)) & uint64_t(1)) == uint64_t(0))) {
            q = dn;
            continue;
        }
        break;
    }
    return negative ? -q : q;
}

// The correctly rounded float quotient a / b for b > 0, the same way: a
// midpoint (25 bits) times b (24 bits) is exact in double.
float div_rn_from(float a, float b, float q)
{
    const double da = double(a), db = double(b);
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
