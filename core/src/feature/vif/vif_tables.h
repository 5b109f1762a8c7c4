// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer VIF constants shared by the CPU extractor and its Vulkan twin
// (behaviour of libvmaf's integer_vif.c). Everything here is plain integers
// and one generator, so a shader can receive the same values through a
// generated header, specialization constants or a small uploaded buffer.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace vmaf::vif {

inline constexpr int kScales = 4;

// Separable Gaussian windows, one per scale, Q16 (each sums to 65536). The
// same window blurs the picture before it is halved into that scale.
inline constexpr int kMaxFilterWidth = 17;
inline constexpr int kMaxFilterHalf = kMaxFilterWidth / 2;
inline constexpr int kFilterWidth[kScales] = {17, 9, 5, 3};
inline constexpr uint16_t kFilter[kScales][kMaxFilterWidth] = {
    {489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489},
    {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244},
    {3571, 16004, 26386, 16004, 3571},
    {10904, 43728, 10904},
};

// The smallest picture side for which every scale's mirrored window stays
// inside the picture: the 3-tap window needs two samples after three halvings.
inline constexpr unsigned kMinSide = 16;

// Sample precision entering a scale: the input's bpc at scale 0, then 16 bits
// (the halving filters keep 8 fractional bits of an 8-bit input and so on).
inline constexpr unsigned input_bits(int scale, unsigned bpc) { return scale == 0 ? bpc : 16; }

// Vertical pass of the means: (sum + round) >> bits gives a 16-bit mean.
inline constexpr unsigned mean_shift(unsigned bits) { return bits; }
// Vertical pass of the second moments: >> 2 * (bits - 8), rounded, keeps them
// in 32 bits with 8-bit-equivalent units (no shift for 8-bit input).
inline constexpr unsigned moment_shift(unsigned bits) { return 2 * (bits - 8); }
// Horizontal pass of the second moments and both passes of the halving
// filter that follow the first vertical one: Q16 with rounding.
inline constexpr unsigned kQ16Shift = 16;

inline constexpr uint32_t round_of(unsigned shift) { return shift ? 1u << (shift - 1) : 0u; }

// Variances are in Q16 of 8-bit units: the noise variance sigma_n^2 = 2.
inline constexpr int32_t kSigmaNsq = 2 << 16;
// log2(kSigmaNsq) in Q11, subtracted from every denominator term.
inline constexpr int32_t kLog2SigmaNsq = 17 * 2048;
// Added to the reference variance before the gain division.
inline constexpr double kGainEps = 65536 * 1.0e-10;

// The gain's divisor as an exact integer mantissa, for integer arithmetic (the
// Vulkan twin): a reference variance s1 >= kSigmaNsq is an int32 in [2^b,
// 2^(b+1)) with b in [kGainEpsFirstBit, kGainEpsLastBit], and the double
// s1 + kGainEps is (s1 * 2^(52-b) + gain_eps_ulps(b)) * 2^(b-52): kGainEps is
// below one unit of s1, so only its rounding to the ulp of that binade (ties
// to even, and s1 * 2^(52-b) is even) is added.
inline constexpr int kGainEpsFirstBit = 17, kGainEpsLastBit = 30;

inline uint32_t gain_eps_ulps(int b)
{
    return static_cast<uint32_t>(std::nearbyint(std::ldexp(kGainEps, 52 - b)));
}

// Below the noise floor a pixel's numerator is 1 - 4 sigma2 / 255^2 (8-bit
// units), i.e. sigma2_q16 / 16384 / 65025, computed as these two divisions.
inline constexpr double kLinDiv1 = 16384.0;
inline constexpr double kLinDiv2 = 65025.0;

inline constexpr double kDefaultEnhnGainLimit = 100.0;

// log2 values are Q11: kLog2One is 1.0.
inline constexpr int kLog2One = 2048;

// log2 in Q11 of a 16-bit mantissa m in [32768, 65536): table entry m - 32768.
// The value is round(float(log2(m)) * 2048): libvmaf rounds log2 to float
// before scaling, and that float rounding decides several entries.
inline constexpr uint32_t kLog2First = 32768;
inline constexpr uint32_t kLog2Entries = 32768;

inline uint16_t log2_entry(uint32_t m)
{
    const float l = static_cast<float>(std::log2(static_cast<double>(m)));
    return static_cast<uint16_t>(std::lround(static_cast<double>(l) * 2048.0));
}

// One zero entry past the end, so that 32-bit vector gathers of the last
// 16-bit entry stay inside the array.
using Log2Table = std::array<uint16_t, kLog2Entries + 1>;

inline Log2Table make_log2_table()
{
    Log2Table t{};
    for (uint32_t i = 0; i < kLog2Entries; i++) t[i] = log2_entry(kLog2First + i);
    return t;
}

}  // namespace vmaf::vif
