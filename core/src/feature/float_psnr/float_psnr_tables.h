// float_psnr constants of the CPU extractor, which has no Vulkan twin
// (behaviour of libvmaf's float_psnr.c and psnr.c). float_ansnr's PSNR uses the
// same peaks and caps.
#pragma once

#include <algorithm>
#include <cmath>

namespace vmaf::float_psnr {

inline constexpr const char *kName = "float_psnr";

// Peak and cap on the 8-bit scale the float planes are on: (2^bpc - 1) / 2^(bpc - 8).
struct Peak {
    double peak;
    double psnr_max;
};

// The depths libvmaf's float PSNR accepts; false for any other.
inline bool peak_for(unsigned bpc, Peak *out)
{
    switch (bpc) {
    case 8: *out = {255.0, 60.0}; return true;
    case 10: *out = {255.75, 72.0}; return true;
    case 12: *out = {255.9375, 84.0}; return true;
    case 16: *out = {255.99609375, 108.0}; return true;
    default: return false;
    }
}

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
