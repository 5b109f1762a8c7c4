// SPDX-License-Identifier: BSD-2-Clause-Patent
// vif_tables.glsl: the integer VIF constants for the Vulkan twin, and its kernel's
// layout (vif_gpu_layout.h). The 64 KiB log2 table is not here: the feature uploads
// vif::make_log2_table() into a buffer.
#include <cstdint>
#include <vector>

#include "feature/vif/vif_gpu_layout.h"
#include "feature/vif/vif_tables.h"
#include "vulkan/glsl_writer.h"

int main()
{
    using namespace vmaf;
    glsl::Writer w("VIF_TABLES_GLSL", "core/src/feature/vif/vif_tables.h");
    w.constant("kVifScales", int32_t(vif::kScales));
    w.constant("kVifMaxFilterWidth", int32_t(vif::kMaxFilterWidth));
    w.array("kVifFilterWidth", vif::kFilterWidth);
    // Scale s's taps are kVifFilter[s * kVifMaxFilterWidth + k], zero past its width.
    std::vector<uint32_t> taps;
    for (const auto &scale : vif::kFilter)
        for (uint16_t t : scale) taps.push_back(t);
    w.array("kVifFilter", taps);
    w.constant("kVifQ16Shift", uint32_t(vif::kQ16Shift));
    w.constant("kVifSigmaNsq", vif::kSigmaNsq);
    w.constant("kVifLog2SigmaNsq", vif::kLog2SigmaNsq);
    w.constant("kVifLog2First", vif::kLog2First);
    w.constant("kVifLog2One", uint32_t(vif::kLog2One));
    w.constant("kVifGainEpsFirstBit", int32_t(vif::kGainEpsFirstBit));
    std::vector<uint32_t> eps;
    for (int b = vif::kGainEpsFirstBit; b <= vif::kGainEpsLastBit; b++) eps.push_back(vif::gain_eps_ulps(b));
    w.array("kVifGainEpsUlps", eps);

    // The kernel's layout (vif_gpu_layout.h).
    w.constant("kVifPixelsPerThread", vif::gpu::kPixelsPerThread);
    w.array("kVifTileW", vif::gpu::kTileW);
    w.array("kVifTileH", vif::gpu::kTileH);
    w.constant("kVifPartDenLin", uint32_t(vif::gpu::kPartDenLin));
    w.constant("kVifPartLinLo", uint32_t(vif::gpu::kPartLinLo));
    w.constant("kVifPartLinHi", uint32_t(vif::gpu::kPartLinHi));
    w.constant("kVifPartNumLog", uint32_t(vif::gpu::kPartNumLog));
    w.constant("kVifPartDenLog", uint32_t(vif::gpu::kPartDenLog));
    w.constant("kVifParts", uint32_t(vif::gpu::kParts));
    w.constant("kVifMaxLimits", vif::gpu::kMaxLimits);
    return 0;
}
