// SPDX-License-Identifier: BSD-2-Clause-Patent
// adm_tables.glsl: the integer ADM constants for the Vulkan twin. What depends
// on the picture or the options (shifts per scale and depth, rectangles, CSF
// weights, the gain limit) reaches kernels as specialization constants,
// computed on the host by the CPU's own functions.
#include <cmath>
#include <cstdint>

#include "feature/adm/adm_tables.h"
#include "vulkan/glsl_writer.h"

int main()
{
    using namespace vmaf;
    using namespace vmaf::adm;
    glsl::Writer w("ADM_TABLES_GLSL", "core/src/feature/adm/adm_tables.h");
    w.constant("kAdmOrientations", int32_t(kOrientations));

    // Wavelet.
    w.array("kAdmDwtLo", kDwtLo);
    w.array("kAdmDwtHi", kDwtHi);
    w.constant("kAdmDwt0HorizontalShift", int32_t(kDwt0HorizontalShift));

    // Decoupling: the Q15 ratio, the 2^30 / x reciprocals, and cos²(1°) as a
    // float's exact integer mantissa and exponent.
    w.constant("kAdmRatioShift", int32_t(kRatioShift));
    w.constant("kAdmRatioOne", kRatioOne);
    w.constant("kAdmReciprocalShift", int32_t(kReciprocalShift));
    w.constant("kAdmReciprocalRange", kReciprocalRange);
    int e = 0;
    const float f = std::frexp(kCos1DegSq, &e);  // kCos1DegSq = f * 2^e, f in [0.5, 1)
    w.constant("kAdmCos1DegSqMantissa", uint32_t(std::ldexp(f, 24)));
    w.constant("kAdmCos1DegSqExponent", int32_t(e - 24));

    // CSF and masking at scale 0 (16-bit bands).
    w.array("kAdmCsf0Shift", kCsf0Shift);
    w.array("kAdmCsf0Round", kCsf0Round);
    w.constant("kAdmOneBy30Q17", kOneBy30Q17);
    w.constant("kAdmOneBy15Q17", kOneBy15Q17);
    w.constant("kAdmMask0Shift", int32_t(kMask0Shift));
    w.array("kAdmCm0ThresholdShift", kCm0ThresholdShift);
    w.array("kAdmCm0SquareShift", kCm0SquareShift);

    // CSF and masking at scales 1..3 (32-bit bands).
    static_assert(kCsfRound <= INT32_MAX && kOneBy30Q32 <= INT32_MAX && kOneBy15Q32 <= INT32_MAX &&
                  kMaskRound >= INT32_MIN);
    w.constant("kAdmCsfShift", int32_t(kCsfShift));
    w.constant("kAdmCsfRound", int32_t(kCsfRound));
    w.constant("kAdmOneBy30Q32", int32_t(kOneBy30Q32));
    w.constant("kAdmOneBy15Q32", int32_t(kOneBy15Q32));
    w.constant("kAdmMaskShift", int32_t(kMaskShift));
    w.constant("kAdmMaskRound", int32_t(kMaskRound));
    w.constant("kAdmCmSquareShift", int32_t(kCmSquareShift));
    return 0;
}
