// PSNR constants shared by the CPU extractor and its Vulkan twin
// (behaviour of libvmaf's integer_psnr.c).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace vmaf::psnr {

inline constexpr const char *kNames[3] = {"psnr_y", "psnr_cb", "psnr_cr"};
inline constexpr const char *kMseNames[3] = {"mse_y", "mse_cb", "mse_cr"};
inline constexpr const char *kApsnrNames[3] = {"apsnr_y", "apsnr_cb", "apsnr_cr"};

// Peak sample value. libvmaf's 8-bit path always uses 255; deeper inputs use
// (1 << bpc) - 1, or 255 << (bpc - 8) with reduced_hbd_peak.
inline double peak(unsigned bpc, bool reduced_hbd_peak)
{
    if (bpc == 8) return 255.0;
    return reduced_hbd_peak ? double(255u << (bpc - 8)) : double((1u << bpc) - 1);
}

// The cap on a plane's score: 6 * bpc + 12 dB (60 dB at 8 bit), or, with
// min_sse, the PSNR of that SSE over the plane's (libvmaf-rounded) area.
inline double psnr_cap(unsigned bpc, double pk, double min_sse, double plane_area)
{
    if (min_sse == 0.0) return 6.0 * bpc + 12.0;
    return std::ceil(10.0 * std::log10(pk * pk / (min_sse / plane_area)));
}

// Score of one plane from its exact sum of squared errors.
inline double from_sse(uint64_t sse, uint64_t n_samples, double pk, double cap)
{
    const double mse = double(sse) / double(n_samples);
    return std::min(10.0 * std::log10(pk * pk / std::max(mse, 1e-16)), cap);
}

}  // namespace vmaf::psnr
