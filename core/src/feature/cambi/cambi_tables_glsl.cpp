// SPDX-License-Identifier: BSD-2-Clause-Patent
// cambi_tables.glsl: the CAMBI Vulkan twin's buffer layout and limits
// (cambi_gpu_layout.h). The tables themselves (reciprocals, TVI limits, weights) are
// uploaded by the host from cambi_tables.h.
#include "feature/cambi/cambi_gpu_layout.h"
#include "vulkan/glsl_writer.h"

int main()
{
    using namespace vmaf;
    using namespace vmaf::cambi::gpu;
    glsl::Writer w("CAMBI_TABLES_GLSL", "core/src/feature/cambi/cambi_gpu_layout.h");
    w.constant("kScales", uint32_t(cambi::kScales));
    w.constant("kSlots", kSlots);
    w.constant("kMaskFilterSize", int32_t(cambi::kMaskFilterSize));
    w.constant("kConstReciprocal", kConstReciprocal);
    w.constant("kConstTvi", kConstTvi);
    w.constant("kConstWeights", kConstWeights);
    w.constant("kConstSlots", kConstSlots);
    w.constant("kSlotWords", kSlotWords);
    w.constant("kSlotAt", kSlotAt);
    w.constant("kSlotValues", kSlotValues);
    w.constant("kSlotK", kSlotK);
    w.constant("kSlotFirst", kSlotFirst);
    w.constant("kSlotGroups", kSlotGroups);
    w.constant("kConstMaps", kConstMaps);
    w.constant("kTopBase", kTopBase);
    w.constant("kTopBins", kTopBins);
    w.constant("kLowBins", kLowBins);
    w.constant("kSelWords", kSelWords);
    w.constant("kSelTopDone", kSelTopDone);
    w.constant("kSelSumDone", kSelSumDone);
    w.constant("kSelAt", kSelAt);
    w.constant("kErrorAt", kErrorAt);
    w.constant("kLowAt", kLowAt);
    w.constant("kErrorCValue", kErrorCValue);
    w.constant("kErrorSample", kErrorSample);
    w.constant("kMaxPad", kMaxPad);
    w.constant("kValuesPerThread", kValuesPerThread);
    return 0;
}
