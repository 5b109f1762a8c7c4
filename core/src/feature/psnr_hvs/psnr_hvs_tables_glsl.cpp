// SPDX-License-Identifier: BSD-2-Clause-Patent
// psnr_hvs_tables.glsl: the psnr_hvs constants for the Vulkan twin. Float tables
// travel as their bit patterns (uintBitsToFloat in the kernel), so the GPU uses
// the very floats the CPU does, with no decimal round trip.
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "feature/psnr_hvs/psnr_hvs_tables.h"
#include "vulkan/glsl_writer.h"

namespace {

using namespace vmaf;

void lift(glsl::Writer &w, const char *name, psnr_hvs::Lift l)
{
    w.constant((std::string(name) + "Mul").c_str(), l.mul);
    w.constant((std::string(name) + "Shift").c_str(), int32_t(l.shift));
}

}  // namespace

int main()
{
    glsl::Writer w("PSNR_HVS_TABLES_GLSL", "core/src/feature/psnr_hvs/psnr_hvs_tables.h");
    w.constant("kHvsBlock", int32_t(psnr_hvs::kBlock));
    w.constant("kHvsStep", int32_t(psnr_hvs::kStep));
    w.constant("kHvsBlockScaleBits", std::bit_cast<uint32_t>(psnr_hvs::kBlockScale));
    w.constant("kHvsQuadScaleBits", std::bit_cast<uint32_t>(psnr_hvs::kQuadScale));
    // Plane p's weight of coefficient [v][u] is at p * 64 + v * 8 + u.
    std::vector<uint32_t> csf, mask, mask_recip;
    for (const auto *t : {&psnr_hvs::kCsfY, &psnr_hvs::kCsfCb, &psnr_hvs::kCsfCr})
        for (int v = 0; v < 8; v++)
            for (int u = 0; u < 8; u++) {
                csf.push_back(std::bit_cast<uint32_t>((*t)[v][u]));
                const float m = psnr_hvs::mask_weight((*t)[v][u]);
                mask.push_back(std::bit_cast<uint32_t>(m));
                // For a quick bound only (never a result): 1 / mask, rounded.
                mask_recip.push_back(std::bit_cast<uint32_t>(float(1.0 / double(m))));
            }
    w.array("kHvsCsfBits", csf);
    w.array("kHvsMaskBits", mask);
    w.array("kHvsMaskRecipBits", mask_recip);
    lift(w, "kHvsTanPi8Half", psnr_hvs::kTanPi8Half);
    lift(w, "kHvsSqrtHalf14", psnr_hvs::kSqrtHalf14);
    lift(w, "kHvsDst3Pi8Tan", psnr_hvs::kDst3Pi8Tan);
    lift(w, "kHvsDst3Pi8Sin", psnr_hvs::kDst3Pi8Sin);
    lift(w, "kHvsTwoMinusSqrt2", psnr_hvs::kTwoMinusSqrt2);
    lift(w, "kHvsSqrt2MinusHalf", psnr_hvs::kSqrt2MinusHalf);
    lift(w, "kHvsPi16Tan", psnr_hvs::kPi16Tan);
    lift(w, "kHvsPi16Sin", psnr_hvs::kPi16Sin);
    lift(w, "kHvsPi3_16Tan", psnr_hvs::kPi3_16Tan);
    lift(w, "kHvsPi3_16Sin", psnr_hvs::kPi3_16Sin);
    w.constant("kHvsCandidates", int32_t(psnr_hvs::gpu::kCandidates));
    w.constant("kHvsSummaryWords", int32_t(psnr_hvs::gpu::kSummaryWords));
    return 0;
}
