// SPDX-License-Identifier: BSD-2-Clause-Patent
// speed_tables.glsl: SpEED's constants for the Vulkan twins (speed_vk.cpp),
// from speed_tables.h and speed_kernel.h, and the specialization constants
// that carry the filter taps (computed at run time from speed_kernelscale by
// the CPU's own float_vif::gaussian_kernel, passed as their bit patterns).
#include <bit>
#include <cstdint>
#include <cstdio>

#include "feature/speed/speed_kernel.h"
#include "feature/speed/speed_tables.h"
#include "vulkan/glsl_writer.h"

int main()
{
    using namespace vmaf::speed;
    vmaf::glsl::Writer w("SPEED_TABLES_GLSL", "core/src/feature/speed/speed_tables.h");
    w.constant("kSpeedPixelOffsetBits", std::bit_cast<uint32_t>(kPixelOffset));
    w.constant("kSpeedDecimation", int32_t(kDecimation));
    w.constant("kSpeedBlock", int32_t(kBlock));
    w.constant("kSpeedBlockElems", int32_t(kBlockElems));
    w.constant("kSpeedCovEntries", int32_t(gpu::kCovEntries));
    w.constant("kSpeedCovLanes", int32_t(gpu::kCovLanes));
    w.constant("kSpeedCovThreads", int32_t(gpu::kCovThreads));
    w.constant("kSpeedTile", int32_t(gpu::kTile));
    w.constant("kSpeedMaxAaTaps", int32_t(gpu::kMaxAaTaps));
    w.constant("kSpeedMaxLocalTaps", int32_t(gpu::kMaxLocalTaps));
    // The taps: kSpeedAa<k> and kSpeedLocal<k>, read by speed_aa_tap(k) and
    // speed_local_tap(k).
    std::printf("\n");
    for (int k = 0; k < gpu::kMaxAaTaps; k++)
        std::printf("layout(constant_id = %d) const float kSpeedAa%d = 0.0;\n", gpu::kAaTapsSpecId + k, k);
    for (int k = 0; k < gpu::kMaxLocalTaps; k++)
        std::printf("layout(constant_id = %d) const float kSpeedLocal%d = 0.0;\n", gpu::kLocalTapsSpecId + k, k);
    for (const char *name : {"Aa", "Local"}) {
        const int n = name[0] == 'A' ? gpu::kMaxAaTaps : gpu::kMaxLocalTaps;
        std::printf("float speed_%s_tap(int k)\n{\n    switch (k) {\n", name[0] == 'A' ? "aa" : "local");
        for (int k = 0; k < n; k++) std::printf("    case %d: return kSpeed%s%d;\n", k, name, k);
        std::printf("    }\n    return 0.0;\n}\n");
    }
    return 0;
}
