// SPDX-License-Identifier: BSD-2-Clause-Patent
// The peaks and caps of libvmaf's float PSNR (float_psnr.c and psnr.c),
// shared by float_psnr and float_ansnr's PSNR.
#pragma once

namespace vmaf::float_psnr {

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

}  // namespace vmaf::float_psnr
