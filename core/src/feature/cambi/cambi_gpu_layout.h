// SPDX-License-Identifier: BSD-2-Clause-Patent
// The CAMBI Vulkan twin's buffer layout, shared by cambi_vk.cpp and the kernels
// (exported to GLSL as cambi_tables.glsl by feature/cambi/cambi_tables_glsl.cpp).
#pragma once

#include <cstdint>
#include <iterator>

#include "feature/cambi/cambi_tables.h"

namespace vmaf::cambi::gpu {

// Slots: a scale of a picture (the distorted picture's five, then the
// reference's in full-reference mode).
inline constexpr uint32_t kSlots = 2 * kScales;

// The constants buffer (32-bit words): the reciprocal table (float bits), the
// TVI limits and contrast weights (32 steps at most), then per picture its
// column and row resampling maps.
inline constexpr uint32_t kConstReciprocal = 0;
inline constexpr uint32_t kConstTvi = (uint32_t(kReciprocalSize) + 15) / 16 * 16;
inline constexpr uint32_t kConstWeights = kConstTvi + 32;
// Per slot, kSlotWords: where its c-values are, how many, how many the pooling
// takes, and its workgroups of the top and sum passes (one dispatch each for
// every slot: workgroups [first, first + groups), and its partials there too).
inline constexpr uint32_t kConstSlots = kConstWeights + 32;
inline constexpr uint32_t kSlotWords = 8;
inline constexpr uint32_t kSlotAt = 0, kSlotValues = 1, kSlotK = 2, kSlotFirst = 3, kSlotGroups = 4;
inline constexpr uint32_t kConstMaps = kConstSlots + kSlots * kSlotWords;
static_assert(std::size(kContrastWeights) == 32);

// Every nonzero c-value lies in [0.5, 2^14): weight * p0 * p / (p0 + p) with
// counts p0, p >= 1 and at most 4225 together, weights at most 9. Its upper 16
// bits minus kTopBase index a histogram of kTopBins.
inline constexpr uint32_t kTopBase = 0x3f00;  // 0.5's upper 16 bits
inline constexpr uint32_t kTopBins = 2048;    // covers up to 0x46ff: below 2^14 (0x4680)
inline constexpr uint32_t kLowBins = 65536;   // the lower 16 bits
// Per slot: the selected bin, how many are taken from it, the smallest
// exponent pooled, and the workgroups of the top and sum passes done so far
// (the last of each finishes the slot: cambi_top.comp, cambi_sum.comp).
inline constexpr uint32_t kSelWords = 8;
inline constexpr uint32_t kSelTopDone = 3;
inline constexpr uint32_t kSelSumDone = 4;

// The histogram and sum passes (cambi_top.comp, cambi_sum.comp): values per
// thread, and per workgroup of 256 threads.
inline constexpr uint32_t kValuesPerThread = 16;
inline constexpr uint32_t kValuesPerGroup = 256 * kValuesPerThread;

// The counters buffer (32-bit words): per slot kTopBins, per slot kSelWords,
// the error words (frames alternate between kErrorAt and kErrorAt + 1), then
// per slot kLowBins.
inline constexpr uint32_t kSelAt = kSlots * kTopBins;
inline constexpr uint32_t kErrorAt = kSelAt + kSlots * kSelWords;
inline constexpr uint32_t kLowAt = kErrorAt + 4;
inline constexpr uint32_t kCountsWords = kLowAt + kSlots * kLowBins;

// Bits of the error word.
inline constexpr uint32_t kErrorCValue = 1;  // a c-value outside [0.5, 2^14)
inline constexpr uint32_t kErrorSample = 2;  // a sample above the bit depth

// The largest window half-side (a window of w x w needs w * w < kReciprocalSize).
inline constexpr uint32_t kMaxPad = 32;
static_assert((2 * kMaxPad + 1) * (2 * kMaxPad + 1) < uint32_t(kReciprocalSize) &&
              (2 * kMaxPad + 3) * (2 * kMaxPad + 3) >= uint32_t(kReciprocalSize));

}  // namespace vmaf::cambi::gpu
