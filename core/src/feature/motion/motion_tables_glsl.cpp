// SPDX-License-Identifier: BSD-2-Clause-Patent
// motion_tables.glsl: the integer motion blur for the Vulkan twin. The per-depth
// vertical shift (motion::vertical_shift) reaches kernels as a specialization constant.
#include "feature/motion/motion_tables.h"
#include "vulkan/glsl_writer.h"

int main()
{
    using namespace vmaf;
    glsl::Writer w("MOTION_TABLES_GLSL", "core/src/feature/motion/motion_tables.h");
    w.constant("kMotionFilterWidth", int32_t(motion::kFilterWidth));
    w.array("kMotionFilter", motion::kFilter);
    w.constant("kMotionHorizontalShift", motion::kHorizontalShift);
    w.constant("kMotionTileW", motion::gpu::kTileW);
    w.constant("kMotionTileH", motion::gpu::kTileH);
    return 0;
}
