// SPDX-License-Identifier: BSD-2-Clause-Patent
// PSNR constants shared by the CPU extractor and its Vulkan twin
// (behaviour of libvmaf's integer_psnr.c).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "libvmaf/picture.h"

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

// The plane area min_sse is spread over. libvmaf takes w / 2 (h / 2) for a
// subsampled chroma plane, truncating, where the plane itself rounds up.
inline double min_sse_area(unsigned plane, VmafPixelFormat fmt, unsigned w, unsigned h)
{
    const bool ss_x = plane && fmt != VMAF_PIX_FMT_YUV444P;
    const bool ss_y = plane && fmt == VMAF_PIX_FMT_YUV420P;
    return double(ss_x ? w / 2 : w) * double(ss_y ? h / 2 : h);
}

// Score of one plane from its exact sum of squared errors.
inline double from_sse(uint64_t sse, uint64_t n_samples, double pk, double cap)
{
    const double mse = double(sse) / double(n_samples);
    return std::min(10.0 * std::log10(pk * pk / std::max(mse, 1e-16)), cap);
}

// enable_apsnr: the PSNR of the whole sequence from its total SSE and sample
// count, capped at the PSNR of an SSE of 1/2.
inline double aggregate(uint64_t sse_total, uint64_t n_total, double pk)
{
    const double n = double(n_total);
    const double apsnr = 10.0 * (std::log10(pk * pk) + std::log10(n) - std::log10(double(sse_total)));
    const double cap = std::ceil(10.0 * std::log10(pk * pk * n * 2));
    return std::min(apsnr, cap);
}

}  // namespace vmaf::psnr
