// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_ansnr constants and arithmetic shared by the CPU extractor and its later
// Vulkan twin (behaviour of libvmaf's float_ansnr.c, ansnr.c and ansnr_tools.c:
// the 2-D filters, mirrored borders, float accumulators).
#pragma once

namespace vmaf::float_ansnr {

inline constexpr const char *kAnsnr = "float_ansnr";
inline constexpr const char *kAnpsnr = "float_anpsnr";

// Luma enters as float on the 8-bit scale, shifted by this.
inline constexpr float kOffset = -128.0f;

// The reference is smoothed by a 3x3 binomial filter, the distorted picture by
// a 5x5 filter of integer weights over 571; each tap rounded to float.
inline constexpr int kRefWidth = 3;
inline constexpr int kDisWidth = 5;
inline constexpr float kRefFilter[kRefWidth * kRefWidth] = {
    float(1.0 / 16.0), float(2.0 / 16.0), float(1.0 / 16.0),
    float(2.0 / 16.0), float(4.0 / 16.0), float(2.0 / 16.0),
    float(1.0 / 16.0), float(2.0 / 16.0), float(1.0 / 16.0),
};
inline constexpr float kDisFilter[kDisWidth * kDisWidth] = {
    float(2.0 / 571.0),  float(7.0 / 571.0),  float(12.0 / 571.0),  float(7.0 / 571.0),  float(2.0 / 571.0),
    float(7.0 / 571.0),  float(31.0 / 571.0), float(52.0 / 571.0),  float(31.0 / 571.0), float(7.0 / 571.0),
    float(12.0 / 571.0), float(52.0 / 571.0), float(127.0 / 571.0), float(52.0 / 571.0), float(12.0 / 571.0),
    float(7.0 / 571.0),  float(31.0 / 571.0), float(52.0 / 571.0),  float(31.0 / 571.0), float(7.0 / 571.0),
    float(2.0 / 571.0),  float(7.0 / 571.0),  float(12.0 / 571.0),  float(7.0 / 571.0),  float(2.0 / 571.0),
};

// Index of tap position i in [-width/2, n + width/2) inside [0, n): mirrored
// about the first sample at the start (-1 -> 1) and about the edge at the end
// (n -> n - 1).
inline int mirror(int i, int n)
{
    if (i < 0) return -i;
    if (i >= n) return 2 * n - i - 1;
    return i;
}

// The smallest noise the PSNR divides by.
inline constexpr double kNoiseFloor = 1e-10;

}  // namespace vmaf::float_ansnr
