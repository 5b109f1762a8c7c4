// SPDX-License-Identifier: BSD-2-Clause-Patent
// The layout of the Vulkan VIF kernel (feature/vif/vif_scale.glsl), shared by the
// host side (vif_vk.cpp) and, through the generated vif_tables.glsl, the kernel.
#pragma once

#include <cstdint>

#include "feature/vif/vif_tables.h"

namespace vmaf::vif::gpu {

// Each thread of the horizontal pass computes this many adjacent pixels (one
// 16-byte vector of vertical sums), and each workgroup one tile of its scale.
// Scales 0 and 1 take 64x16 tiles (256 threads); scales 2 and 3, a quarter and
// a sixteenth of the pixels, take 32x8 tiles (64 threads) so that more
// workgroups share the GPU and each finishes sooner. Tiles have even sides, so
// a tile also yields whole rows and columns of the next scale.
inline constexpr uint32_t kPixelsPerThread = 4;
inline constexpr uint32_t kTileW[kScales] = {64, 64, 32, 32};
inline constexpr uint32_t kTileH[kScales] = {16, 16, 8, 8};

inline constexpr uint32_t threads(int scale) { return kTileW[scale] * kTileH[scale] / kPixelsPerThread; }

// Columns of vertical sums a tile needs: its own and the window's halo,
// rounded up to whole 16-byte vectors.
inline constexpr uint32_t tile_columns(int scale)
{
    return kTileW[scale] + 2 * ((kFilterWidth[scale] / 2 + 3) / 4 * 4);
}

// What each workgroup writes: these 32-bit sums, in this order. Per pixel every
// term is below 2^17 and a tile has at most 1024 pixels, so they cannot wrap
// (σ2² is summed as two 16-bit halves for that).
enum Part : uint32_t {
    kPartDenLin,  // pixels below the noise floor
    kPartLinLo,   // Σ σ2² & 0xffff below the noise floor
    kPartLinHi,   // Σ σ2² >> 16 below the noise floor
    kPartNumLog,  // Σ log2(numer2) - log2(numer1), Q11
    kPartDenLog,  // Σ log2(σ1² + σn²) - log2(σn²), Q11
    kParts,
};

// One dispatch serves up to kMaxLimits gain limits (vif_enhn_gain_limit):
// only kPartNumLog depends on the limit, so with n limits each workgroup
// writes kParts + n - 1 sums, the first limit's Σ log2 at kPartNumLog and limit
// k's (k >= 1) at kParts + k - 1.
inline constexpr uint32_t kMaxLimits = 2;
inline constexpr uint32_t parts(uint32_t limits) { return kParts + limits - 1; }
inline constexpr uint32_t num_log_part(uint32_t limit) { return limit == 0 ? kPartNumLog : kParts + limit - 1; }

// Shared memory of one workgroup, in bytes: the packed samples of the tile and
// its halo, four planes of vertical sums, the gain queue length and the sums.
inline constexpr uint32_t shared_bytes(int scale)
{
    const uint32_t rows = kTileH[scale] + 2 * (kFilterWidth[scale] / 2);
    return 4 * (rows * tile_columns(scale) + 4 * kTileH[scale] * tile_columns(scale) + 1 + parts(kMaxLimits));
}

constexpr bool valid_tiles()
{
    for (int s = 0; s < kScales; s++) {
        // Whole vectors across, whole 4-row chunks of the vertical pass down,
        // at most 1024 pixels (the sums above).
        if (kTileW[s] % kPixelsPerThread || kTileH[s] % 4 || kTileW[s] * kTileH[s] > 1024) return false;
    }
    return true;
}
static_assert(valid_tiles());
static_assert(shared_bytes(0) <= 32768, "fits every device this backend targets, lavapipe included");

}  // namespace vmaf::vif::gpu
