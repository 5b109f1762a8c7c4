// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/common/float_picture.h"

#include <cstdint>

namespace vmaf {

namespace {

template <typename T>
void convert(const VmafPicture &pic, unsigned p, float scaler, float offset, float *dst,
             std::ptrdiff_t dst_stride)
{
    const auto *src = static_cast<const uint8_t *>(pic.data[p]);
    for (unsigned y = 0; y < pic.h[p]; y++) {
        const T *row = reinterpret_cast<const T *>(src + std::ptrdiff_t(y) * pic.stride[p]);
        float *out = dst + std::ptrdiff_t(y) * dst_stride;
        for (unsigned x = 0; x < pic.w[p]; x++)
            out[x] = scaler == 1.0f ? float(row[x]) + offset : float(row[x]) / scaler + offset;
    }
}

}  // namespace

void picture_to_float(const VmafPicture &pic, unsigned p, float offset, float *dst,
                      std::ptrdiff_t dst_stride)
{
    if (pic.bpc <= 8)
        convert<uint8_t>(pic, p, 1.0f, offset, dst, dst_stride);
    else
        convert<uint16_t>(pic, p, float_scaler(pic.bpc), offset, dst, dst_stride);
}

}  // namespace vmaf
