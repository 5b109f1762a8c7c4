// SPDX-License-Identifier: BSD-2-Clause-Patent
// libjxl's fused multiply-add, a * b + c rounded once, two ways (ADR 0086):
// fma_once() in double, which no driver can round twice, and fma_native(), the
// device's fma(), for devices on which native_fma_vk.cpp's probe finds it
// rounded once. Included by the kernels of the features that follow libjxl's
// multiply-adds (ssimulacra2, butteraugli) and by the probe (fma_probe.comp),
// so that the probe tests the very code the kernels run.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// a * b + c rounded once: the product of two floats is exact in double, the
// sum is rounded to double to odd, which then rounds to float as the exact
// value would. Done in double so that no driver's fma() can round twice.
// Rounding to odd moves the sum by at most one unit of the double to an odd
// double, never halfway between two floats; so it changes the float only
// where the sum itself is halfway (the 29 bits a float drops are 1 then 28
// zeros). Every other sum in the normal floats' range is rounded at once,
// with the same result and without the error term's six operations.
float fma_once(float a, float b, float c)
{
    precise double pr = double(a) * double(b);
    precise double dc = double(c);
    precise double s = pr + dc;
    if ((unpackDouble2x32(s).x & 0x1fffffffu) != 0x10000000u && abs(s) >= double(intBitsToFloat(0x00800000))) {
        precise float r = float(s);
        return r;
    }
    if (!isinf(s) && !isnan(s)) {
        precise double bv = s - pr;
        precise double err = (pr - (s - bv)) + (dc - bv);
        uvec2 u = unpackDouble2x32(s);
        if (err != 0.0 && (u.x & 1u) == 0u) {
            if ((s > 0.0) == (err > 0.0)) {
                u.x += 1u;  // even: no carry
            } else {
                if (u.x == 0u) u.y -= 1u;
                u.x -= 1u;
            }
            s = packDouble2x32(u);
        }
    }
    precise float r = float(s);
    return r;
}

// The device's fma(), where the probe found it rounded once. Subnormal floats
// are outside what the probe can promise: a device that flushes them (an
// H100 does, in fma() and in fma_once()'s conversion back to float alike,
// though not always in the same cases) matches the CPU on neither path there.
float fma_native(float a, float b, float c)
{
    precise float r = fma(a, b, c);
    return r;
}
