// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_moment arithmetic of the CPU extractor, which has no Vulkan twin
// (behaviour of libvmaf's float_moment.c and moment.c).
#pragma once

namespace vmaf::float_moment {

// Written in this order: mean and mean square of the reference, then of the distorted.
inline constexpr const char *kRef1st = "float_moment_ref1st";
inline constexpr const char *kDis1st = "float_moment_dis1st";
inline constexpr const char *kRef2nd = "float_moment_ref2nd";
inline constexpr const char *kDis2nd = "float_moment_dis2nd";

// First moment: samples summed in double.
inline double add_1st(double sum, float v) { return sum + double(v); }

// Second moment: the square taken in float, summed in double.
inline double add_2nd(double sum, float v) { return sum + double(v * v); }

// Mean over the w * h samples (the count an int product, as libvmaf takes it).
inline double mean(double sum, int w, int h) { return sum / double(w * h); }

}  // namespace vmaf::float_moment
