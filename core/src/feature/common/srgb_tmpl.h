// SPDX-License-Identifier: BSD-2-Clause-Patent
// sRGB -> linear (libjxl's TF_SRGB::DisplayFromEncoded, constants in
// feature/common/srgb.h) for the kernels compiled once per instruction set.
// No include guard: included inside a namespace that defines
// madd<kFused>(a, b, c), a * b + c as libjxl's Highway code on the target the
// kernels follow (rounded once where kFused).

// sRGB -> linear for inputs in [0, 1] (no sign to carry).
template <bool kFused>
VMAF_INLINE float srgb_to_linear(float x)
{
    float p = srgb::kSrgbP[4], q = srgb::kSrgbQ[4];
    for (int i = 3; i >= 0; i--) {
        p = madd<kFused>(p, x, srgb::kSrgbP[i]);
        q = madd<kFused>(q, x, srgb::kSrgbQ[i]);
    }
    // Both branches, then a select: the loops vectorize.
    const float high = p / q;
    const float low = x * srgb::kSrgbLowDivInv;
    return x > srgb::kSrgbThreshold ? high : low;
}
