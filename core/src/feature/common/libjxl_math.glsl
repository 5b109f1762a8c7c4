// SPDX-License-Identifier: BSD-2-Clause-Patent
// The arithmetic of the kernels that follow libjxl's float operations
// (ssimulacra2, butteraugli): libjxl's multiply-add, fused (one rounding) or
// a product and a sum as the option libjxl_fma says, and a division rounded
// once. Specialization constants 10 and 11 are these.
#include "feature/common/fma_once.glsl"

layout(constant_id = 10) const bool kFused = true;
// The device's fma() passed the probe (feature/common/native_fma_vk.h):
// libjxl's fused multiply-add is fma_native(), else fma_once().
layout(constant_id = 11) const bool kNativeFma = false;

// libjxl's multiply-add: fused (libjxl_fma=1) or a product and a sum.
float madd(float a, float b, float c)
{
    if (kFused) return kNativeFma ? fma_native(a, b, c) : fma_once(a, b, c);
    precise float pr = a * b;
    precise float r = pr + c;
    return r;
}

// a / b rounded once. Vulkan lets a float division be 2.5 units in the last
// place off; in double, then rounded to float, the quotient of two floats is
// the correctly rounded one (53 >= 2 * 24 + 2 bits) as the CPU's.
float div_once(float a, float b)
{
    precise float r = float(double(a) / double(b));
    return r;
}
