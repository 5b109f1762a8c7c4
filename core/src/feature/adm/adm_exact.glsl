// SPDX-License-Identifier: BSD-2-Clause-Patent
// The two floating-point steps of integer ADM's decoupling, in integers,
// bit-exact to the CPU's IEEE arithmetic (round to nearest even):
//
//   - the one-degree test: float(o·t) ≥ 0 and
//       double(float(o·t))² ≥ double(cos²1°) · double(float(|o|²)) · double(float(|t|²))
//     where the dot products are integers; the only inexact steps are the
//     conversions to float and the last double product;
//   - the enhanced restored value: double(r) · gain_limit, rounded to an
//     integer to nearest even or toward zero.
//
// GPUs need not have doubles, and Vulkan leaves the rounding of float
// conversions open, so both are done here on integer mantissas: a value is
// m·2^e with an integer m; products are formed exactly in 128 bits and rounded
// once to 24 or 53 significant bits, ties to even.
//
// This file is written in the common subset of GLSL (with
// GL_EXT_shader_explicit_arithmetic_types_int64) and C++20, so that a host
// test can check it against the CPU's float and double code on millions of
// inputs; the test supplies uint and findMSB().
#ifndef ADM_EXACT_GLSL
#define ADM_EXACT_GLSL

#include "feature/common/cxx_constructors.glsl"

// m·2^e, m ≥ 0.
struct AdmFloat {
    uint64_t m;
    int e;
    CXX_CONSTRUCTOR2(AdmFloat, uint64_t, m, int, e)
};

// An unsigned 128-bit integer.
struct AdmU128 {
    uint64_t hi;
    uint64_t lo;
    CXX_CONSTRUCTOR2(AdmU128, uint64_t, hi, uint64_t, lo)
};

int adm_msb64(uint64_t v)
{
    const uint hi = uint(v >> 32);
    return hi != 0u ? 32 + findMSB(hi) : findMSB(uint(v & 0xfffffffful));
}

uint64_t adm_magnitude(int64_t v)
{
    return v < 0l ? 0ul - uint64_t(v) : uint64_t(v);
}

// a·b exactly.
AdmU128 adm_mul(uint64_t a, uint64_t b)
{
    const uint64_t a_lo = a & 0xfffffffful, a_hi = a >> 32;
    const uint64_t b_lo = b & 0xfffffffful, b_hi = b >> 32;
    const uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
    // The middle column, with the carries of its three 32-bit parts.
    const uint64_t mid = (ll >> 32) + (lh & 0xfffffffful) + (hl & 0xfffffffful);
    return AdmU128(hh + (lh >> 32) + (hl >> 32) + (mid >> 32), (mid << 32) | (ll & 0xfffffffful));
}

// x rounded to `bits` significant bits (at most 63), ties to even: m·2^e with
// m < 2^bits.
AdmFloat adm_round(AdmU128 x, int bits)
{
    const int msb = x.hi != 0ul ? 64 + adm_msb64(x.hi) : (x.lo != 0ul ? adm_msb64(x.lo) : 0);
    const int s = msb - (bits - 1);  // bits to drop
    if (s <= 0) return AdmFloat(x.lo, 0);
    uint64_t m;
    bool round_bit, sticky;
    if (s < 64) {
        m = (x.lo >> s) | (x.hi << (64 - s));
        round_bit = ((x.lo >> (s - 1)) & 1ul) != 0ul;
        sticky = s > 1 && (x.lo << (65 - s)) != 0ul;
    } else if (s == 64) {
        m = x.hi;
        round_bit = (x.lo >> 63) != 0ul;
        sticky = (x.lo << 1) != 0ul;
    } else {
        m = x.hi >> (s - 64);
        round_bit = ((x.hi >> (s - 65)) & 1ul) != 0ul;
        sticky = x.lo != 0ul || (s > 65 && (x.hi << (129 - s)) != 0ul);
    }
    int e = s;
    if (round_bit && (sticky || (m & 1ul) != 0ul)) {
        m += 1ul;
        if (m == (1ul << bits)) {
            m >>= 1;
            e += 1;
        }
    }
    return AdmFloat(m, e);
}

// The float nearest to the integer |v|.
AdmFloat adm_to_float(uint64_t v)
{
    return adm_round(AdmU128(0ul, v), 24);
}

// a·2^ea >= b·2^eb, for integers a, b >= 0 below 2^63.
bool adm_not_less(uint64_t a, int ea, uint64_t b, int eb)
{
    if (b == 0ul) return true;
    if (a == 0ul) return false;
    const int ma = adm_msb64(a), mb = adm_msb64(b);
    if (ma + ea != mb + eb) return ma + ea > mb + eb;
    // Same binade: compare the mantissas aligned at bit 62.
    return (a << (62 - ma)) >= (b << (62 - mb));
}

// The CPU's one-degree test on the exact integer dot products dot = o·t,
// oo = o·o, tt = t·t (with whatever wrap-around the CPU's integer type gave
// them); cos1 is cos²(1°) as a float.
bool adm_within_one_degree(int64_t dot, int64_t oo, int64_t tt, AdmFloat cos1)
{
    if (dot < 0l) return false;  // float(dot) < 0
    // A right-hand side of zero or below never exceeds a square.
    if (oo == 0l || tt == 0l || ((oo < 0l) != (tt < 0l))) return true;
    const AdmFloat d = adm_to_float(uint64_t(dot));
    const AdmFloat o = adm_to_float(adm_magnitude(oo));
    const AdmFloat t = adm_to_float(adm_magnitude(tt));
    // cos1·o is exact in 48 bits; times t it is rounded once to a double.
    const AdmFloat rhs = adm_round(adm_mul(cos1.m * o.m, t.m), 53);
    return adm_not_less(d.m * d.m, 2 * d.e, rhs.m, rhs.e + cos1.e + o.e + t.e);
}

// |double(r) · limit| rounded to an integer, to nearest even (`nearest`) or
// toward zero, from r's magnitude (the caller applies the sign: both
// roundings are symmetric); limit = limit_m·2^limit_e with limit_m < 2^53,
// |r| < 2^63. Results of 2^62 and beyond are returned as 2^62: the caller
// clamps them to a 32-bit value anyway.
uint64_t adm_enhanced_magnitude(uint64_t r, bool nearest, uint64_t limit_m, int limit_e)
{
    const AdmFloat g = adm_round(adm_mul(r, limit_m), 53);
    const int e = g.e + limit_e;
    if (e >= 0) return e + adm_msb64(g.m) >= 62 ? (1ul << 62) : g.m << e;
    if (e < -53) return 0ul;  // below 2^-1: rounds to zero either way
    const int k = -e;
    uint64_t q = g.m >> k;
    const uint64_t rest = g.m & ((1ul << k) - 1ul), tie = 1ul << (k - 1);
    if (nearest && (rest > tie || (rest == tie && (q & 1ul) != 0ul))) q += 1ul;
    return q;
}

#endif  // ADM_EXACT_GLSL
