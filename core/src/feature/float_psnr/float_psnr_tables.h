// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_psnr constants of the CPU extractor, which has no Vulkan twin
// (behaviour of libvmaf's float_psnr.c and psnr.c). The peaks and caps, which
// float_ansnr's PSNR uses too, are in feature/common/float_psnr_peak.h.
#pragma once

#include <algorithm>
#include <cmath>

#include "feature/common/float_psnr_peak.h"

namespace vmaf::float_psnr {

inline constexpr const char *kName = "float_psnr";

// The smallest noise the score divides by.
inline constexpr double kNoiseFloor = 1e-10;

// One sample's contribution: the error squared in float, summed into a double.
inline double add_squared_error(double noise, float ref, float dis)
{
    const float diff = ref - dis;
    return noise + double(diff * diff);
}

// The score from the summed squared error over w * h samples.
inline double from_noise(double noise_sum, int w, int h, const Peak &p)
{
    const double noise = noise_sum / double(w * h);
    return std::min(10.0 * std::log10(p.peak * p.peak / std::max(noise, kNoiseFloor)), p.psnr_max);
}

}  // namespace vmaf::float_psnr
