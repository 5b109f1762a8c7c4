// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer motion constants shared by the CPU extractor and its Vulkan twin
// (behaviour of libvmaf's integer_motion.c).
#pragma once

#include <algorithm>
#include <cstdint>

namespace vmaf::motion {

// 5-tap Gaussian blur, Q16 (taps sum to 65536).
inline constexpr int kFilterWidth = 5;
inline constexpr int32_t kFilter[kFilterWidth] = {3571, 16004, 26386, 16004, 3571};

// Vertical pass: (sum + round) >> shift, with shift = 8 for 8-bit input and
// bpc otherwise. Horizontal pass: Q16 with rounding.
inline constexpr unsigned vertical_shift(unsigned bpc) { return bpc == 8 ? 8 : bpc; }
// The vertical sum of a sample difference fits 32 bits up to 12-bit input
// (|sum| < 2^16 * 2^12); 16-bit input needs 64 bits.
inline constexpr bool wide_vertical_sum(unsigned bpc) { return bpc > 12; }
inline constexpr int32_t kHorizontalShift = 16;

// Mirror an index into [0, size): -1 -> 1, size -> size - 2.
inline constexpr int mirror(int idx, int size)
{
    if (idx < 0) return -idx;
    if (idx >= size) return 2 * size - idx - 2;
    return idx;
}

// SAD of the blurred difference -> motion score: mean absolute blurred
// difference in 8-bit units (the SAD is in 1/256 steps).
inline double score_from_sad(uint64_t sad, unsigned w, unsigned h, double fps_weight,
                             double max_val)
{
    return std::min(double(sad) / 256.0 / (double(w) * h) * fps_weight, max_val);
}

inline double blend(double score, double factor, double offset)
{
    return score * factor + (1.0 - factor) * std::min(offset, score);
}

// The Vulkan kernel's tile of outputs (feature/motion/motion_sad.comp, 256 threads of
// four adjacent outputs each; its vertical pass takes four rows per thread).
namespace gpu {
inline constexpr uint32_t kTileW = 64, kTileH = 16;
static_assert(kTileW * kTileH == 256 * 4 && kTileH % 4 == 0 && kTileW % 4 == 0);
}

}  // namespace vmaf::motion
