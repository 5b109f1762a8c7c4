// Double-precision elementary functions for the ciede kernel.
//
// GLSL has exp, log, pow, sin, cos and atan for float only, and does not round
// them correctly. The CPU extractor calls the C library's double functions,
// which are correctly rounded or within a hair of it; these aim at the same:
// each is built from exactly rounded additions and multiplications (every
// variable `precise`, so nothing is contracted or reassociated), with the
// argument reduced exactly or in double-double and the leading terms carried
// with their rounding errors, so the result is the exactly rounded value but
// for rare cases at most one unit in the last place away. The callers round
// these doubles to float, which hides such a unit in all but about one case in
// 2^29.
//
// The constants (splits of ln 2 and pi/2, series coefficients) come from
// ciede_tables.glsl, computed on the host.

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

// The correctly rounded quotient and square root, from the hardware's
// (possibly less exact) ones, corrected with their exact residuals.
double div_rn(double a, double b)
{
    precise double q = a / b;
    precise double r = fma(-q, b, a);
    precise double out_ = fma(r, 1.0LF / b, q);
    return out_;
}

double sqrt_rn(double x)
{
    if (x <= 0.0LF) return sqrt(x);
    precise double s = sqrt(x);
    precise double r = fma(-s, s, x);
    precise double out_ = fma(r, 0.5LF / s, s);
    return out_;
}

// Correctly rounded a / b for floats: the correctly rounded double quotient
// rounds to the correctly rounded float one (53 >= 2 * 24 + 2).
float fdiv_rn(float a, float b)
{
    return float(div_rn(double(a), double(b)));
}

// e^(xh + xl), |xl| tiny next to xh, for results in the normal range.
double exp_dd(double xh, double xl)
{
    precise double n = roundEven(xh * kMathInvLn2);
    // n ln2 split so that n * kMathLn2Hi is exact and xh - n * kMathLn2Hi too.
    precise double r1 = fma(-n, kMathLn2Hi, xh);
    precise double t = n * kMathLn2Lo;
    precise double r, rl;
    two_sum(r1, -t, r, rl);
    rl = rl + (xl - fma(n, kMathLn2Lo, -t));
    // e^r - 1 for |r| <= 0.35 (terms to r^17/17!, below 2^-80 of the result).
    precise double p = kMathInvFactorial[17];
    for (int k = 16; k >= 2; k--) p = p * r + kMathInvFactorial[k];
    precise double em1 = r + (r * r) * p;
    // e^(r + rl) = (1 + em1)(1 + rl) to far below an ulp.
    precise double s = em1 + (rl + rl * em1);
    precise double e = 1.0LF + s;
    return ldexp(e, int(n));
}

double exp_d(double x)
{
    return exp_dd(x, 0.0LF);
}

// ln x for finite x > 0, as hi + lo, to about 2^-70 of the result.
void log_dd(double x, out double hi, out double lo)
{
    int e;
    precise double m = frexp(x, e);  // [0.5, 1)
    if (m < 0.70710678118654752LF) {
        m = m * 2.0LF;
        e = e - 1;
    }
    // ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172.
    precise double f = m - 1.0LF;  // exact
    precise double dh, dl;
    two_sum(m, 1.0LF, dh, dl);
    precise double s = f / dh;
    precise double res = fma(-s, dh, f);  // exact
    res = res - s * dl;
    precise double sl = res / dh;
    precise double s2 = s * s;
    precise double p = kMathAtanhSeries[13];
    for (int k = 12; k >= 1; k--) p = p * s2 + kMathAtanhSeries[k];
    precise double tail = (s * s2) * p;
    // 2 s exactly, then the small terms.
    precise double lh, ll;
    two_sum(double(e) * kMathLn2Hi, 2.0LF * s, lh, ll);
    ll = ll + ((2.0LF * sl + tail) + double(e) * kMathLn2Lo);
    two_sum(lh, ll, hi, lo);
}

// x^y for x > 0 (finite), results in the normal range.
double pow_d(double x, double y)
{
    precise double lh, ll;
    log_dd(x, lh, ll);
    precise double ph, pl;
    two_prod(y, lh, ph, pl);
    pl = pl + y * ll;
    precise double h, l;
    two_sum(ph, pl, h, l);
    return exp_dd(h, l);
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
// undone where h lies exactly between two floats.
float pow7_f(float x)
{
    precise double h, l;
    pow7_dd(double(x), h, l);
    precise float r = float(h);
    const uvec2 bits = unpackDouble2x32(h);
    if ((bits.x & 0x1fffffffu) == 0x10000000u && l != 0.0LF) {
        // h is a midpoint: the exact value lies on l's side of it.
        precise float lo_ = float(h - abs(h) * 1.0e-10LF), hi_ = float(h + abs(h) * 1.0e-10LF);
        r = l > 0.0LF ? hi_ : lo_;
    }
    return r;
}

// sin and cos of r + rl, |r| <= pi/4 (+ a hair), rl tiny next to r.
double sin_kernel(double r, double rl)
{
    precise double w = r * r;
    // sin r = r - r^3 q, q = 1/3! - w/5! + w^2/7! - ... (to r^17/17!).
    precise double q = kMathInvFactorial[17];
    for (int k = 15; k >= 3; k -= 2) q = kMathInvFactorial[k] - w * q;
    precise double tail = (r * w) * q;
    precise double s = r - (tail - rl * (1.0LF - 0.5LF * w));
    return s;
}

double cos_kernel(double r, double rl)
{
    precise double wh, wl;
    two_prod(r, r, wh, wl);
    wl = wl + 2.0LF * r * rl;
    precise double q = kMathInvFactorial[16];
    for (int k = 14; k >= 4; k -= 2) q = kMathInvFactorial[k] - wh * q;
    // cos r = 1 - w/2 + w^2 (1/4! - w/6! + ...)
    precise double hw = 0.5LF * wh;  // exact
    precise double t = 1.0LF - hw;
    precise double e = (1.0LF - t) - hw;  // exact: the rounding error of t
    precise double c = t + ((e - 0.5LF * wl) + (wh * wh) * q);
    return c;
}

// x reduced by the nearest multiple k of pi/2: r + rl, quadrant k mod 4.
// Exact enough for |x| below a few hundred.
void reduce_pio2(double x, out double r, out double rl, out int quadrant)
{
    precise double k = roundEven(x * kMathTwoOverPi);
    precise double r1 = fma(-k, kMathPio2Hi, x);  // exact
    precise double t = k * kMathPio2Lo;
    two_sum(r1, -t, r, rl);
    rl = rl - fma(k, kMathPio2Lo, -t);
    quadrant = int(k) & 3;
}

double sin_d(double x)
{
    precise double r, rl;
    int q;
    reduce_pio2(x, r, rl, q);
    precise double v;
    if (q == 0) v = sin_kernel(r, rl);
    else if (q == 1) v = cos_kernel(r, rl);
    else if (q == 2) v = -sin_kernel(r, rl);
    else v = -cos_kernel(r, rl);
    return v;
}

double cos_d(double x)
{
    precise double r, rl;
    int q;
    reduce_pio2(x, r, rl, q);
    precise double v;
    if (q == 0) v = cos_kernel(r, rl);
    else if (q == 1) v = -sin_kernel(r, rl);
    else if (q == 2) v = -cos_kernel(r, rl);
    else v = sin_kernel(r, rl);
    return v;
}

// atan t for 0 <= t <= 1, as hi + lo (the lo carrying the reduction constant's tail).
void atan01(double t, out double hi, out double lo)
{
    precise double u;
    precise double bh = 0.0LF, bl = 0.0LF;
    if (t > kMathTanPiOver8) {
        // atan t = pi/4 + atan((t - 1) / (t + 1))
        u = div_rn(t - 1.0LF, t + 1.0LF);
        bh = kMathPio4Hi;
        bl = kMathPio4Lo;
    } else {
        u = t;
    }
    precise double u2 = u * u;  // <= 0.1716
    precise double p = kMathAtanSeries[23];
    for (int k = 22; k >= 1; k--) p = p * u2 + kMathAtanSeries[k];
    precise double tail = (u * u2) * p;
    two_sum(bh, u, hi, lo);
    lo = lo + (tail + bl);
}

// atan2(y, x) of finite values, not both zero.
double atan2_d(double y, double x)
{
    precise double ax = abs(x), ay = abs(y);
    precise double h, l;
    bool swapped = ay > ax;
    atan01(swapped ? div_rn(ax, ay) : div_rn(ay, ax), h, l);
    if (swapped) {  // pi/2 - a
        precise double sh, sl;
        two_sum(kMathPio2Hi, -h, sh, sl);
        h = sh;
        l = sl + (kMathPio2Lo - l);
    }
    if (x < 0.0LF || (x == 0.0LF && (unpackDouble2x32(x).y >> 31) != 0u)) {  // pi - a
        precise double sh, sl;
        two_sum(2.0LF * kMathPio2Hi, -h, sh, sl);
        h = sh;
        l = sl + (2.0LF * kMathPio2Lo - l);
    }
    precise double a = h + l;
    const bool negative = y < 0.0LF || (y == 0.0LF && (unpackDouble2x32(y).y >> 31) != 0u);
    return negative ? -a : a;
}
