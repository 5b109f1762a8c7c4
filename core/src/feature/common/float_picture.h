// SPDX-License-Identifier: BSD-2-Clause-Patent
// Planes as float, the way libvmaf's float extractors see them: 8-bit samples
// as they are, deeper ones divided by 2^(bpc - 8) (so every depth is on the
// 8-bit scale), plus an integer offset (e.g. -128 for the float VIF/ADM/motion
// family). Shared by every float feature and mirrored by their Vulkan twins.
#pragma once

#include <cstddef>
#include <vector>

#include "libvmaf/picture.h"

namespace vmaf {

// The divisor that brings a bpc-bit sample to the 8-bit scale.
constexpr float float_scaler(unsigned bpc)
{
    return bpc <= 8 ? 1.0f : float(1u << (bpc - 8));
}

// Write plane `p` of `pic` into `dst` (rows of `dst_stride` floats):
// dst = float(sample) / scaler + offset, in that order (bit-exact with libvmaf
// for 8, 10, 12 and 16 bits).
void picture_to_float(const VmafPicture &pic, unsigned p, float offset, float *dst,
                      std::ptrdiff_t dst_stride);

// A plane as a packed float buffer (stride == width).
struct FloatPlane {
    unsigned w = 0, h = 0;
    std::vector<float> data;
    void assign(const VmafPicture &pic, unsigned p, float offset)
    {
        w = pic.w[p];
        h = pic.h[p];
        data.resize(std::size_t(w) * h);
        picture_to_float(pic, p, offset, data.data(), w);
    }
};

}  // namespace vmaf
