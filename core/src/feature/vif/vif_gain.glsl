// SPDX-License-Identifier: BSD-2-Clause-Patent
// The gain step of integer VIF in integers, bit-exact to its IEEE doubles.
//
// Per pixel above the noise floor, with σ12 > 0 and σ2² > 0, the CPU (and
// libvmaf) computes in double precision, rounding to nearest even after every
// operation:
//
//     g  = σ12 / (σ1² + eps)                 d = σ1² + eps is itself rounded
//     sv = σ2² - g·σ12      sv_sq = sv > 0 ? trunc(sv) : 0
//     g  = min(g, gain_limit)
//     numer1 = sv_sq + σn²  numer2 = trunc((g·g)·σ1²) + numer1
//
// GPUs need not have doubles, and Vulkan does not promise a correctly rounded
// double division, so each step is redone here on integer mantissas: a
// positive double is m·2^e with m in [2^52, 2^53); products are formed exactly
// in 128 bits and rounded once; the quotient is found by long division with an
// exact remainder; the subtraction is decided exactly from the integer and
// fractional parts of g·σ12. The results are the CPU's integers, not
// approximations of them.
//
// This file is written in the common subset of GLSL (with
// GL_EXT_shader_explicit_arithmetic_types_int64) and C++20, so that a host
// test can check it against the double arithmetic itself on many millions of
// inputs; the test supplies uint, findMSB() and the f-suffixed float literal
// semantics GLSL has.
#ifndef VIF_GAIN_GLSL
#define VIF_GAIN_GLSL

#include "feature/common/cxx_constructors.glsl"

// m·2^e; m in [2^52, 2^53) (a positive normal double).
struct VifDouble {
    uint64_t m;
    int e;
    CXX_CONSTRUCTOR2(VifDouble, uint64_t, m, int, e)
};

// An unsigned 128-bit integer.
struct VifU128 {
    uint64_t hi;
    uint64_t lo;
    CXX_CONSTRUCTOR2(VifU128, uint64_t, hi, uint64_t, lo)
};

struct VifGain {
    uint numer1;      // sv_sq + σn²
    uint64_t numer2;  // trunc(g·g·σ1²) + numer1
    CXX_CONSTRUCTOR2(VifGain, uint, numer1, uint64_t, numer2)
};

int vif_msb64(uint64_t v)
{
    const uint hi = uint(v >> 32);
    return hi != 0u ? 32 + findMSB(hi) : findMSB(uint(v & 0xfffffffful));
}

// a·b exactly, for a, b < 2^53.
VifU128 vif_mul(uint64_t a, uint64_t b)
{
    const uint64_t a_lo = a & 0xfffffffful, a_hi = a >> 32;
    const uint64_t b_lo = b & 0xfffffffful, b_hi = b >> 32;
    const uint64_t ll = a_lo * b_lo;
    const uint64_t mid = a_lo * b_hi + a_hi * b_lo;  // each term < 2^53
    const uint64_t lo = ll + (mid << 32);
    const uint64_t carry = lo < ll ? 1ul : 0ul;
    return VifU128(a_hi * b_hi + (mid >> 32) + carry, lo);
}

// x·2^e rounded to 53 significant bits, ties to even; x > 0.
VifDouble vif_round(VifU128 x, int e)
{
    const int msb = x.hi != 0ul ? 64 + vif_msb64(x.hi) : vif_msb64(x.lo);
    // Move the leading one to bit 127: the mantissa is then the top 53 bits of
    // hi, the rounding bit the next one, and everything below is sticky.
    const int up = 127 - msb;
    uint64_t hi = x.hi, lo = x.lo;
    if (up >= 64) {
        hi = lo << (up - 64);
        lo = 0ul;
    } else if (up > 0) {
        hi = (hi << up) | (lo >> (64 - up));
        lo = lo << up;
    }
    uint64_t m = hi >> 11;
    const bool round_bit = ((hi >> 10) & 1ul) != 0ul;
    const bool sticky = (hi & 0x3fful) != 0ul || lo != 0ul;
    int ex = e + msb - 52;
    if (round_bit && (sticky || (m & 1ul) != 0ul)) m += 1ul;
    if (m == (1ul << 53)) {
        m = 1ul << 52;
        ex += 1;
    }
    return VifDouble(m, ex);
}

// n / d rounded to nearest even, for an integer 0 < n < 2^31.
VifDouble vif_div(uint n, VifDouble d)
{
    const int bn = findMSB(n);
    const uint64_t mn = uint64_t(n) << (52 - bn);
    // q = floor(mn·2^54 / d.m), 54 or 55 bits (mn / d.m is in (1/2, 2)): the
    // leading bit, then three chunks of 18 bits. Each chunk's digit is
    // estimated in float and corrected against the exact remainder, which
    // stays in [0, d.m); the wrapping 64-bit arithmetic is exact because the
    // true intermediate values lie within a few d.m of zero.
    uint64_t q = mn >= d.m ? 1ul : 0ul;
    uint64_t r = mn - q * d.m;
    const float step = 262144.0f / float(d.m);
    const int64_t dm = int64_t(d.m);
    for (int i = 0; i < 3; i++) {
        uint64_t digit = uint64_t(float(r) * step);
        int64_t rem = int64_t((r << 18) - digit * d.m);
        while (rem < 0l) {
            digit -= 1ul;
            rem += dm;
        }
        while (rem >= dm) {
            digit += 1ul;
            rem -= dm;
        }
        q = (q << 18) | digit;
        r = uint64_t(rem);
    }
    // One more bit, set when the remainder is not zero, keeps the rounding exact.
    const uint64_t sticky = r != 0ul ? 1ul : 0ul;
    return vif_round(VifU128(0ul, (q << 1) | sticky), (bn - 52) - d.e - 55);
}

// trunc(s2 - p) as the CPU gets it: max(int32(double(s2) - p), 0), s2 > 0.
uint vif_sv_sq(uint s2, VifDouble p)
{
    if (p.e >= 0) return 0u;  // p >= 2^52 > s2
    const int t = -p.e;
    const uint64_t whole = t >= 64 ? 0ul : p.m >> t;
    const uint64_t frac = t >= 64 ? p.m : p.m & ((1ul << t) - 1ul);
    if (whole >= uint64_t(s2)) return 0u;  // s2 - p <= 0
    const uint n = s2 - uint(whole);
    if (frac == 0ul) return n;
    // s2 - p = n - f with f = frac·2^-t in (0, 1). Its rounding is n - 1 or n,
    // n exactly when f is at most half the spacing of doubles below n,
    // 2^(E-53) with E = floor(log2(n - f)) = findMSB(n - 1) (-1 for n = 1);
    // a tie goes to n, whose mantissa is even.
    const int z = findMSB(n - 1u) - 53 + t;  // is frac <= 2^z?
    const bool to_n = z >= 63 || (z >= 0 && frac <= (1ul << z));
    return to_n ? n : n - 1u;
}

// trunc(v) for v < 2^63.
uint64_t vif_trunc(VifDouble v)
{
    if (v.e >= 0) return v.m << v.e;
    return -v.e >= 64 ? 0ul : v.m >> (-v.e);
}

bool vif_less(VifDouble a, VifDouble b)
{
    return a.e < b.e || (a.e == b.e && a.m < b.m);
}

// What one pixel's gain step computes before the limit: the gain g and numer1.
struct VifGainBase {
    VifDouble g;
    uint numer1;
    CXX_CONSTRUCTOR2(VifGainBase, VifDouble, g, uint, numer1)
};

// The limit-free part of the gain step: s1 >= σn², s2 > 0, s12 > 0 (int32
// values), d the double s1 + eps.
VifGainBase vif_gain_base(uint s2, uint s12, VifDouble d)
{
    const VifDouble g = vif_div(s12, d);
    const VifDouble p = vif_round(vif_mul(g.m, uint64_t(s12)), g.e);
    return VifGainBase(g, vif_sv_sq(s2, p) + uint(kVifSigmaNsq));
}

// min(g, limit).
VifDouble vif_capped(VifDouble g, VifDouble limit)
{
    return vif_less(limit, g) ? limit : g;
}

// numer2 for the capped gain gc: trunc(gc·gc·s1) + numer1.
uint64_t vif_numer2(VifDouble gc, uint s1, uint numer1)
{
    const VifDouble gg = vif_round(vif_mul(gc.m, gc.m), 2 * gc.e);
    const VifDouble t = vif_round(vif_mul(gg.m, uint64_t(s1)), gg.e);
    return vif_trunc(t) + uint64_t(numer1);
}

// The gain terms of one pixel for one limit (the gain limit as a double).
VifGain vif_gain(uint s1, uint s2, uint s12, VifDouble d, VifDouble limit)
{
    const VifGainBase b = vif_gain_base(s2, s12, d);
    return VifGain(b.numer1, vif_numer2(vif_capped(b.g, limit), s1, b.numer1));
}

// The same steps in double precision, for devices with 64-bit floats: Vulkan's
// double addition, subtraction and multiplication are correctly rounded, its
// conversions to integers truncate, and min() returns an operand, so each step
// below is the CPU's operation on the CPU's operands (`precise`: no fused
// multiply-add). The division, whose rounding Vulkan leaves open, is the
// device's, then checked against the exact remainder (vif_div_checked()). A
// kernel defines VIF_GAIN_FP64 to compile these.
#ifdef VIF_GAIN_FP64
// m·2^e as a double: a positive normal, so the bits are the exponent and m's
// lower 52.
double vif_to_double(VifDouble v)
{
    return uint64BitsToDouble((uint64_t(v.e + 52 + 1023) << 52) | (v.m & ((1ul << 52) - 1ul)));
}

// n / d rounded to nearest even, from q0, a positive normal double within an
// ulp of it (the device's division); n < 2^31 as in vif_div(). With
// q0 = Q·2^e, the exact quotient is (Q + R/d.m)·2^e for the integer remainder
// R = n·2^-(e + d.e) - Q·d.m, so Q is the rounded quotient when |2R| < d.m (or
// equals it, Q even), else Q ± 1 is, when it passes the same test. At
// Q = 2^52 the doubles below are twice as dense: Q is nearest for R down to
// -d.m/4 (a tie goes to Q, the even one). Anything else takes vif_div(): a
// division further off, a step out of Q's binade, or a quotient rounding to the
// binade below.
double vif_div_checked(uint n, VifDouble d, double q0)
{
    const uint64_t kMant = (1ul << 52) - 1ul;
    const uint64_t bits = doubleBitsToUint64(q0);
    uint64_t q = (bits & kMant) | (1ul << 52);
    const int k = 1075 - int(bits >> 52) - d.e;  // -(e + d.e)
    if (k > 0 && k < 128) {
        const uint64_t wide = uint64_t(n);
        const VifU128 num = k >= 64 ? VifU128(wide << (k - 64), 0ul) : VifU128(wide >> (64 - k), wide << k);
        const VifU128 qd = vif_mul(q, d.m);
        const uint64_t lo = num.lo - qd.lo;
        const uint64_t hi = num.hi - qd.hi - (num.lo < qd.lo ? 1ul : 0ul);
        // R within ±2^62: hi is the sign extension of lo.
        if ((hi == 0ul && lo < (1ul << 62)) || (hi == ~0ul && lo > ~0ul - (1ul << 62))) {
            const int64_t dm = int64_t(d.m);
            int64_t r2 = 2l * int64_t(lo);
            const bool odd = (q & 1ul) != 0ul;
            if (r2 > dm || (r2 == dm && odd)) {
                q += 1ul;
                r2 -= 2l * dm;
            } else if (r2 < -dm || (r2 == -dm && odd)) {
                q -= 1ul;
                r2 += 2l * dm;
            }
            const bool nearest = (r2 < dm && r2 > -dm) || ((r2 == dm || r2 == -dm) && (q & 1ul) == 0ul);
            const bool binade = (q >> 52) == 1ul && (q != (1ul << 52) || r2 >= 0l || 2l * r2 >= -dm);
            if (nearest && binade) return uint64BitsToDouble((bits & ~kMant) | (q & kMant));
        }
    }
    return vif_to_double(vif_div(n, d));
}

// n / d rounded to nearest even: the device's division, checked.
double vif_div_f64(uint n, VifDouble d) { return vif_div_checked(n, d, double(n) / vif_to_double(d)); }

struct VifGainBaseF64 {
    double g;
    uint numer1;
    CXX_CONSTRUCTOR2(VifGainBaseF64, double, g, uint, numer1)
};

// vif_gain_base() in doubles after the division: sv = σ2² - g·σ12, truncated
// where positive (it is below 2^31).
VifGainBaseF64 vif_gain_base_f64(uint s2, uint s12, VifDouble d)
{
    const double g = vif_div_f64(s12, d);
    precise double p = g * double(s12);
    precise double sv = double(s2) - p;
    const uint sv_sq = sv > 0.0 ? uint(int(sv)) : 0u;
    return VifGainBaseF64(g, sv_sq + uint(kVifSigmaNsq));
}

// vif_capped() in doubles: min(g, limit).
double vif_capped_f64(double g, double limit) { return min(g, limit); }

// vif_numer2() in doubles: trunc(gc·gc·σ1²) + numer1.
uint64_t vif_numer2_f64(double gc, uint s1, uint numer1)
{
    precise double gg = gc * gc;
    precise double t = gg * double(s1);
    return uint64_t(int64_t(t)) + uint64_t(numer1);
}
#endif  // VIF_GAIN_FP64

#endif  // VIF_GAIN_GLSL
