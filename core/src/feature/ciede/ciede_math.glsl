// SPDX-License-Identifier: BSD-2-Clause-Patent
// Double-precision elementary functions for the ciede kernel.
//
// GLSL has pow, exp, log, sin, cos and atan for float only, and does not round
// them correctly. The CPU extractor calls the C library's double functions,
// which are correctly rounded or within a hair of it. Each function here is
// built from exactly rounded operations (every variable `precise`, so nothing
// is contracted or reassociated; fma only where written) with the argument
// reduced exactly and the leading terms carried with their rounding errors,
// and is within about one unit in the last place of the exact value. The
// kernel rounds these doubles to float (L, a, b, hue angles, the weights),
// which hides such a unit in all but about one case in 2^28 per rounding.
//
// The constants (splits of ln 2 and pi/2, series coefficients, exponent
// excesses) come from ciede_tables.glsl, computed on the host.

#extension GL_EXT_control_flow_attributes : require

#include "ciede_tables.glsl"

// a + b as hi + lo exactly (any order of magnitudes).
void two_sum(double a, double b, out double hi, out double lo)
{
    precise double s = a + b;
    precise double bb = s - a;
    precise double e = (a - (s - bb)) + (b - bb);
    hi = s;
    lo = e;
}

// a * b as hi + lo exactly.
void two_prod(double a, double b, out double hi, out double lo)
{
    precise double p = a * b;
    precise double e = fma(a, b, -p);
    hi = p;
    lo = e;
}

// a / b from a float reciprocal r and three corrections with exact residuals
// (each multiplies the relative error by that of r, at most 2^-22): below
// 2^-66 before the last rounding, so correctly rounded but where the quotient
// lies within that of a midpoint. b is a positive double within float range,
// as every divisor in this kernel.
double div_rn(double a, double b)
{
    precise double r = double(1.0 / float(b));
    precise double q = a * r;
    [[unroll]] for (int k = 0; k < 3; k++) {
        precise double e = fma(-q, b, a);
        q = fma(e, r, q);
    }
    return q;
}

// sqrt x for 0 <= x < 2^120: from GLSL's float inversesqrt (2^-22) by three
// Newton corrections with the exact residual, each multiplying the relative
// error by that of the float start: below 2^-66 before the last rounding.
// Below 2^-100 (R_T's ratio for near-grey pixels) x is scaled into float range.
double sqrt_rn(double x)
{
    if (x <= 0.0) return 0.0;
    const bool tiny = x < ldexp(1.0LF, -100);
    precise double xs = tiny ? ldexp(x, 200) : x;
    precise float r0 = inversesqrt(float(xs));
    precise double h = double(0.5 * r0);
    precise double s = xs * double(r0);
    [[unroll]] for (int k = 0; k < 3; k++) {
        precise double e = fma(-s, s, xs);
        s = fma(e, h, s);
    }
    return tiny ? ldexp(s, -100) : s;
}

// Correctly rounded a / b for floats. A quotient of floats lies at least
// 2^-49 of itself away from any midpoint between floats, so two corrections
// (error below 2^-66, then one rounding to double) leave the double on the
// exact quotient's side of every float rounding boundary.
float fdiv_rn(float a, float b)
{
    const double da = double(a), db = double(b);
    precise double r = double(1.0 / b);
    precise double q = da * r;
    [[unroll]] for (int k = 0; k < 2; k++) {
        precise double e = fma(-q, db, da);
        q = fma(e, r, q);
    }
    return float(q);
}

// e^x for results in the normal range.
double exp_d(double x)
{
    precise double n = roundEven(x * kMathInvLn2);
    // n ln2 split so that n * kMathLn2Hi is exact and x - n * kMathLn2Hi too.
    precise double r1 = fma(-n, kMathLn2Hi, x);
    precise double t = n * kMathLn2Lo;
    precise double r, rl;
    two_sum(r1, -t, r, rl);
    rl = rl - fma(n, kMathLn2Lo, -t);
    // e^r - 1 for |r| <= 0.35 (terms to r^16/16!, below 2^-60 of the result).
    precise double p = kMathInvFactorial[16];
    [[unroll]] for (int k = 15; k >= 2; k--) p = fma(p, r, kMathInvFactorial[k]);
    precise double em1 = fma(r * r, p, r);
    // e^(r + rl) = (1 + em1)(1 + rl) to far below an ulp.
    precise double s = em1 + fma(rl, em1, rl);
    precise double e = 1.0 + s;
    return ldexp(e, int(n));
}

// x^kSrgbGamma for x in [0.04, 3]: y = x^(12/5) as the root of y^5 = x^12 by
// Newton steps from GLSL's float pow (relative error e0 at most a few 1e-6),
// each step's derivative the start's, in float (so every step multiplies the
// error by about 4 e0: three steps reach 1e-20), then times
// x^(kSrgbGamma - 12/5) = 1 + excess ln x.
double pow_gamma(double x)
{
    precise float xf = float(x);
    precise float y0 = pow(xf, 2.4);
    precise float y0sq = y0 * y0;
    precise double inv = double(1.0 / (5.0 * (y0sq * y0sq)));
    precise double x2 = x * x;
    precise double x4 = x2 * x2;
    precise double x12 = (x4 * x4) * x4;
    precise double y = double(y0);
    [[unroll]] for (int k = 0; k < 3; k++) {
        precise double y2 = y * y;
        precise double y4 = y2 * y2;
        precise double res = fma(y4, y, -x12);
        y = fma(-res, inv, y);
    }
    precise double out_ = fma(y, kMathGammaExcess * double(log(xf)), y);
    return out_;
}

// t^kCubeRoot for t in [0.008, 8]: the cube root by Newton steps from GLSL's
// float pow, the derivative the start's (three steps: 1e-20), then times
// t^(kCubeRoot - 1/3) = 1 + excess ln t.
double pow_cube_root(double t)
{
    precise float tf = float(t);
    precise float y0 = pow(tf, 1.0 / 3.0);
    precise double inv = double(1.0 / (3.0 * (y0 * y0)));
    precise double y = double(y0);
    [[unroll]] for (int k = 0; k < 3; k++) {
        precise double y2 = y * y;
        precise double res = fma(y2, y, -t);
        y = fma(-res, inv, y);
    }
    precise double out_ = fma(y, kMathCubeRootExcess * double(log(tf)), y);
    return out_;
}

// x^7 of a float, as hi + lo to about 2^-104.
void pow7_dd(double x, out double hi, out double lo)
{
    precise double x2 = x * x;  // exact: 48 bits
    precise double x3h, x3l, x4h, x4l;
    two_prod(x2, x, x3h, x3l);
    two_prod(x2, x2, x4h, x4l);
    precise double ph, pl;
    two_prod(x4h, x3h, ph, pl);
    pl = pl + (x4h * x3l + x4l * x3h);
    two_sum(ph, pl, hi, lo);
}

// x^7 of a float, correctly rounded to double.
double pow7_d(float x)
{
    precise double h, l;
    pow7_dd(double(x), h, l);
    return h;
}

// x^7 of a float, correctly rounded to float: the double rounding of h is
// undone where h lies exactly between two floats. `other` is the neighbour on
// the far side of the nearest rounding boundary, and `near_boundary` says
// whether the exact power lies within 2^-ambiguity_bits of the distance
// between the two of that boundary (x^7 of a float is never exactly on it).
float pow7_f(float x, int ambiguity_bits, out float other, out bool near_boundary)
{
    precise double h, l;
    pow7_dd(double(x), h, l);
    precise float r = float(h);
    const uvec2 bits = unpackDouble2x32(h);
    if ((bits.x & 0x1fffffffu) == 0x10000000u && l != 0.0) {
        // h is a midpoint: the exact value lies on l's side of it.
        precise float below = float(h - abs(h) * 1.0e-10LF), above = float(h + abs(h) * 1.0e-10LF);
        r = l > 0.0 ? above : below;
    }
    // The exact value minus r (exact: h and r are close).
    precise double d = (h - double(r)) + l;
    const uint rb = floatBitsToUint(r);
    other = r;
    near_boundary = false;
    if (d != 0.0 && r > 0.0 && rb < 0x7f7fffffu) {
        other = uintBitsToFloat(d > 0.0 ? rb + 1u : rb - 1u);
        precise double gap = abs(double(other) - double(r));
        precise double mid = 0.5 * (double(other) + double(r));
        precise double to_mid = abs((h - mid) + l);
        near_boundary = to_mid < ldexp(gap, -ambiguity_bits);
    }
    return r;
}

// sin and cos of r + rl, |r| <= pi/4 (+ a hair), rl tiny next to r.
double sin_kernel(double r, double rl)
{
    precise double w = r * r;
    // sin r = r - r^3 q, q = 1/3! - w/5! + w^2/7! - ... (to r^17/17!).
    precise double q = kMathInvFactorial[17];
    [[unroll]] for (int k = 15; k >= 3; k -= 2) q = fma(-w, q, kMathInvFactorial[k]);
    precise double tail = (r * w) * q;
    precise double s = r - (tail - rl * (1.0 - 0.5 * w));
    return s;
}

double cos_kernel(double r, double rl)
{
    precise double wh, wl;
    two_prod(r, r, wh, wl);
    wl = wl + 2.0 * r * rl;
    // cos r = 1 - w/2 + w^2 q, q = 1/4! - w/6! + ... (to r^16/16!).
    precise double q = kMathInvFactorial[16];
    [[unroll]] for (int k = 14; k >= 4; k -= 2) q = fma(-wh, q, kMathInvFactorial[k]);
    precise double hw = 0.5 * wh;  // exact
    precise double t = 1.0 - hw;
    precise double e = (1.0 - t) - hw;  // exact: the rounding error of t
    precise double c = t + ((e - 0.5 * wl) + (wh * wh) * q);
    return c;
}

// x reduced by the nearest multiple k of pi/2: r + rl, quadrant k mod 4.
// Exact enough for |x| below a few hundred.
void reduce_pio2(double x, out double r, out double rl, out int quadrant)
{
    precise double k = roundEven(x * kMathTwoOverPi);
    precise double r1 = fma(-k, kMathPio2Hi, x);  // exact
    precise double t = k * kMathPio2Lo;
    precise double rh, e;
    two_sum(r1, -t, rh, e);
    precise double el = e - fma(k, kMathPio2Lo, -t);
    r = rh;
    rl = el;
    quadrant = int(k) & 3;
}

// sin x for |x| <= pi/2 (+ a hair) without reduction: x - x^3 q, q = 1/3! -
// x^2/5! + ... to x^25/25! (truncation below 2^-60 of the result).
double sin_direct(double x)
{
    precise double w = x * x;
    precise double q = kMathInvFactorial[25];
    [[unroll]] for (int k = 23; k >= 3; k -= 2) q = fma(-w, q, kMathInvFactorial[k]);
    precise double s = x - (x * w) * q;
    return s;
}

void sincos_d(double x, out double s, out double c)
{
    precise double r, rl;
    int q;
    reduce_pio2(x, r, rl, q);
    precise double sk = sin_kernel(r, rl), ck = cos_kernel(r, rl);
    // quadrant q: (sin, cos) = (sk, ck), (ck, -sk), (-sk, -ck), (-ck, sk)
    s = (q & 1) == 0 ? sk : ck;
    c = (q & 1) == 0 ? ck : sk;
    if (q == 1 || q == 2) c = -c;
    if (q >= 2) s = -s;
}

// atan(mn / mx) for floats 0 <= mn <= mx, mx > 0, as hi + lo (the lo carrying
// the reduction constant's tail). Above tan(pi/8) it is pi/4 +
// atan((mn - mx) / (mn + mx)), whose numerator and denominator are exact (floats
// within a factor of 3): one correctly rounded division either way, and the
// series argument u within +-tan(pi/8).
void atan_ratio(double mn, double mx, out double hi, out double lo)
{
    const bool upper = mn > kMathTanPiOver8 * mx;
    precise double num = upper ? mn - mx : mn;
    precise double den = upper ? mn + mx : mx;
    precise double u = div_rn(num, den);
    precise double bh = upper ? kMathPio4Hi : 0.0LF;
    precise double bl = upper ? kMathPio4Lo : 0.0LF;
    precise double u2 = u * u;  // <= 0.1716
    precise double p = kMathAtanSeries[23];
    [[unroll]] for (int k = 22; k >= 1; k--) p = fma(p, u2, kMathAtanSeries[k]);
    precise double tail = (u * u2) * p;
    precise double h, l;
    two_sum(bh, u, h, l);
    precise double l2 = l + (tail + bl);
    hi = h;
    lo = l2;
}

bool sign_bit(double x)
{
    return (unpackDouble2x32(x).y >> 31) != 0u;
}

// atan2(y, x) of floats (as doubles), not both zero.
double atan2_d(double y, double x)
{
    precise double ax = abs(x), ay = abs(y);
    precise double h, l;
    const bool swapped = ay > ax;
    atan_ratio(swapped ? ax : ay, swapped ? ay : ax, h, l);
    if (swapped) {  // pi/2 - a
        precise double sh, sl;
        two_sum(kMathPio2Hi, -h, sh, sl);
        h = sh;
        l = sl + (kMathPio2Lo - l);
    }
    if (sign_bit(x)) {  // pi - a
        precise double sh, sl;
        two_sum(2.0 * kMathPio2Hi, -h, sh, sl);
        h = sh;
        l = sl + (2.0 * kMathPio2Lo - l);
    }
    precise double a = h + l;
    return sign_bit(y) ? -a : a;
}
