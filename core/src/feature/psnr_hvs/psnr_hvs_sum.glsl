// SPDX-License-Identifier: BSD-2-Clause-Patent
// PSNR-HVS: the CPU's serial float sum of a plane's weighted errors, exactly,
// without adding them one by one.
//
// While a float sum s stays in one binade (exponent E), every addition
// s + t rounds to a multiple of that binade's ulp; with s = S * ulp (S an
// integer, 2^23 <= S < 2^24, or below 2^23 in the subnormal binade, counted as
// E = 1), fl(s + t) = (S + q) * ulp where q is t / ulp rounded to nearest,
// ties to even, and the tie goes by the parity of S + floor(t / ulp). So a run
// of additions that stays in the binade is an integer sum plus a parity rule:
// its effect on S is a "step" (the increment and the final parity, for each
// parity of the starting S), and steps compose associatively (a scan). A run
// stays in the binade exactly when the integer result stays under 2^24; the
// addition that leaves it is done as a float addition (correctly rounded, as
// the CPU's). Terms are never negative, so S only grows and the first
// addition that reaches 2^24 is easy to find.
//
// A step is a uvec2: x for an even start, y for an odd one; bits 0..30 hold the
// increment (saturated at kStepFull: anything that large leaves the binade),
// bit 31 the parity after the run.

const uint kStepFull = 1u << 30;
const uint kBinadeTop = 1u << 24;  // S reaching this has left the binade
const uint kParityBit = 1u << 31;
const uvec2 kStepIdentity = uvec2(0u, kParityBit);  // no increment, parity kept
const uvec2 kStepLeave = uvec2(kStepFull, kStepFull | kParityBit);  // certainly leaves

uint step_inc(uvec2 st, uint parity) { return (parity == 0u ? st.x : st.y) & ~kParityBit; }
uint step_parity(uvec2 st, uint parity) { return (parity == 0u ? st.x : st.y) >> 31; }

// Run a, then run b.
uvec2 step_then(uvec2 a, uvec2 b)
{
    uvec2 r;
    for (uint p = 0u; p < 2u; p++) {
        const uint mid = step_parity(a, p);
        const uint inc = min(step_inc(a, p) + step_inc(b, mid), kStepFull);
        const uint word = inc | (step_parity(b, mid) << 31);
        if (p == 0u) r.x = word; else r.y = word;
    }
    return r;
}

// The step of adding t (>= 0) to a sum in binade E (the biased exponent, >= 1).
uvec2 term_step(float t, uint binade)
{
    const uint bits = floatBitsToUint(t);
    uint te = bits >> 23;
    uint mant = bits & 0x7fffffu;
    if (te != 0u) mant |= 0x800000u; else te = 1u;
    uint q = 0u;
    uint round_class = 0u;  // 0: round down, 1: tie, 2: round up
    if (te > binade) {
        if (te - binade >= 2u) return kStepLeave;
        q = mant << 1;  // at least 2^24: leaves the binade
    } else {
        const uint sh = binade - te;
        if (sh == 0u) {
            q = mant;
        } else if (sh <= 24u) {
            q = mant >> sh;
            const uint rem = mant & ((1u << sh) - 1u);
            const uint half_ulp = 1u << (sh - 1u);
            round_class = rem < half_ulp ? 0u : rem == half_ulp ? 1u : 2u;
        }  // else below half an ulp: q = 0, round down
    }
    if (round_class == 2u) q += 1u;
    if (round_class == 1u) {
        // Even start: S + q rounds to even; either way the result is even.
        const uint even_inc = q + (q & 1u), odd_inc = q + ((q + 1u) & 1u);
        return uvec2(even_inc, odd_inc);
    }
    return uvec2(q | ((q & 1u) << 31), q | (((q + 1u) & 1u) << 31));
}

// The binade of a sum (the biased exponent, 1 for subnormals), 0 for zero.
uint sum_binade(uint s_bits) { return s_bits == 0u ? 0u : max(s_bits >> 23, 1u); }
// S: the sum in units of its binade's ulp.
uint sum_units(uint s_bits) { return (s_bits & 0x7fffffu) | ((s_bits >> 23) != 0u ? 0x800000u : 0u); }
// The sum back from its binade and units (units under 2^24, in the binade).
uint sum_bits(uint binade, uint units)
{
    if (units < 0x800000u) return units;  // subnormal (binade 1)
    return (binade << 23) | (units & 0x7fffffu);
}
