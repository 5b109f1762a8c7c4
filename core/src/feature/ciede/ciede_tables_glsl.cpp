// SPDX-License-Identifier: BSD-2-Clause-Patent
// ciede_tables.glsl: the ciede constants for the Vulkan twin (doubles with the
// LF suffix, so they reach the kernel to the last bit), the kernel's layout,
// and the constants of its double-precision elementary functions
// (feature/ciede/ciede_math.glsl): splits of ln 2 and pi/2 into a leading part and
// its remainder, series coefficients, exponent excesses, computed here in the
// host's widest floating type.
#include <cmath>
#include <cstdio>

#include "feature/ciede/ciede_tables.h"

namespace {

void d(const char *name, double v) { std::printf("const double %s = %.17eLF;\n", name, v); }
void f(const char *name, float v) { std::printf("const float %s = %.9e;\n", name, double(v)); }

// `name`[k] for k < n.
template <typename F>
void darray(const char *name, int n, F value)
{
    std::printf("const double %s[%d] = double[%d](", name, n, n);
    for (int k = 0; k < n; k++) std::printf("%s%.17eLF", k ? ", " : "", value(k));
    std::printf(");\n");
}

// v rounded to `bits` significant bits (toward zero), so that small integer
// multiples of it are exact.
double leading(long double v, int bits)
{
    int e;
    const long double m = std::frexp(v, &e);
    return double(std::ldexp(std::trunc(std::ldexp(m, bits)), e - bits));
}

}  // namespace

int main()
{
    using namespace vmaf;
    std::printf("// Generated at build time from core/src/feature/ciede/ciede_tables.h: do not edit.\n");
    std::printf("#ifndef CIEDE_TABLES_GLSL\n#define CIEDE_TABLES_GLSL\n\n");

    d("kCiedeSrgbKnee", ciede::kSrgbKnee);
    d("kCiedeSrgbOffset", ciede::kSrgbOffset);
    d("kCiedeSrgbInvScale", ciede::kSrgbInvScale);
    d("kCiedeSrgbInvSlope", ciede::kSrgbInvSlope);
    d("kCiedeRFromV", ciede::kRFromV);
    d("kCiedeGFromU", ciede::kGFromU);
    d("kCiedeGFromV", ciede::kGFromV);
    d("kCiedeBFromU", ciede::kBFromU);
    darray("kCiedeXyz", 9, [](int k) { return ciede::kXyz[k / 3][k % 3]; });
    d("kCiedeInvWhiteX", ciede::kInvWhiteX);
    d("kCiedeInvWhiteZ", ciede::kInvWhiteZ);
    d("kCiedeLabKappa", ciede::kLabKappa);
    d("kCiedeLabEpsilon", ciede::kLabEpsilon);
    d("kCiedeInv116", ciede::kInv116);
    d("kCiedeLabL", ciede::kLabL);
    d("kCiedeLabLOffset", ciede::kLabLOffset);
    d("kCiedeLabA", ciede::kLabA);
    d("kCiedeLabB", ciede::kLabB);

    // The angles as the CPU code's expressions make them.
    const double pi = ciede::kPi;
    d("kCiedePi", pi);
    d("kCiedeTwoPi", 2.0 * pi);
    d("kCiedePiOver6", pi / 6.0);
    d("kCiedePiOver30", pi / 30.0);
    d("kCiede7PiOver20", 7.0 * pi / 20.0);
    d("kCiedeRadToDeg", 180.0 / pi);
    d("kCiedeDegToRad", pi / 180.0);
    d("kCiedeT1", ciede::kT1);
    d("kCiedeT2", ciede::kT2);
    d("kCiedeT3", ciede::kT3);
    d("kCiedeT4", ciede::kT4);
    d("kCiedeRtCentre", ciede::kRtCentre);
    d("kCiedeInvRtWidth", 1.0 / ciede::kRtWidth);
    d("kCiedeRtAngle", ciede::kRtAngle);
    d("kCiedeKnee7", std::pow(ciede::kChromaKnee, 7.0));
    f("kCiedeKnee7F", ::powf(ciede::kChromaKneeF, 7.0f));
    f("kCiedeLightnessMid", ciede::kLightnessMid);
    d("kCiedeSl", ciede::kSl);
    d("kCiedeSlOffset", ciede::kSlOffset);
    d("kCiedeSc", ciede::kSc);
    d("kCiedeSh", ciede::kSh);
    f("kCiedeWeightL", ciede::kWeightL);
    f("kCiedeWeightC", ciede::kWeightC);
    f("kCiedeWeightH", ciede::kWeightH);

    // The kernel's layout.
    std::printf("const uint kCiedeTileW = %uu, kCiedeTileH = %uu;\n", ciede::gpu::kTileW, ciede::gpu::kTileH);
    std::printf("const uint kCiedeLinearTableSide = %uu;\n", ciede::kLinearTableSide);
    std::printf("const int kCiedeAmbiguityBits = %d;\n", ciede::gpu::kAmbiguityBits);
    std::printf("const uint kCiedeSettleKeys = %uu, kCiedeKeyWords = %uu, kCiedeSlotWords = %uu;\n",
                ciede::gpu::kSettleKeys, ciede::gpu::kKeyWords, ciede::gpu::kSlotWords);

    // The elementary functions' constants.
    const long double ln2 = std::log(2.0L);
    const long double pio2 = std::acos(0.0L);
    const double ln2_hi = leading(ln2, 40);
    d("kMathLn2Hi", ln2_hi);
    d("kMathLn2Lo", double(ln2 - ln2_hi));
    d("kMathInvLn2", double(1.0L / ln2));
    const double pio2_hi = double(pio2);
    d("kMathPio2Hi", pio2_hi);
    d("kMathPio2Lo", double(pio2 - pio2_hi));
    d("kMathTwoOverPi", double(1.0L / pio2));
    d("kMathPio4Hi", pio2_hi / 2.0);
    d("kMathPio4Lo", double(pio2 - pio2_hi) / 2.0);
    // 1/k! for k = 0..25 (exp, sin, cos).
    darray("kMathInvFactorial", 26, [](int k) {
        long double p = 1.0L;
        for (int i = 2; i <= k; i++) p *= i;
        return double(1.0L / p);
    });
    // (-1)^k/(2k+1) for k = 0..23 (atan).
    darray("kMathAtanSeries", 24, [](int k) { return double((k % 2 ? -1.0L : 1.0L) / (2 * k + 1)); });
    d("kMathTanPiOver8", double(std::tan(pio2 / 4.0L)));
    // The kernel takes x^kSrgbGamma as x^(12/5) times x^(kSrgbGamma - 12/5), and
    // t^kCubeRoot as the cube root times t^(kCubeRoot - 1/3): the exponents'
    // excesses (double 2.4 and 1/3 are not 12/5 and 1/3).
    // (5 g - 12) and (3 c - 1) are exact in long double.
    d("kMathGammaExcess", double((5.0L * ciede::kSrgbGamma - 12.0L) / 5.0L));
    d("kMathCubeRootExcess", double((3.0L * ciede::kCubeRoot - 1.0L) / 3.0L));
    // cos and sin of the hue weight's phases (the CPU code's double angles),
    // for T from sin h and cos h by the angle-sum formulas.
    const double phases[3] = {pi / 6.0, pi / 30.0, 7.0 * pi / 20.0};
    darray("kCiedePhaseCos", 3, [&](int k) { return double(std::cos((long double)phases[k])); });
    darray("kCiedePhaseSin", 3, [&](int k) { return double(std::sin((long double)phases[k])); });

    std::printf("\n#endif  // CIEDE_TABLES_GLSL\n");
    return 0;
}
