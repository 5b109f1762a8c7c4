// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/common/srgb.h"

#include <cerrno>

#include "util/log.h"

namespace vmaf::srgb {

namespace {

Conversion make_conversion(LumaWeights k, bool full, unsigned bpc)
{
    Conversion c{};
    const double s = double(1u << (bpc - 8));
    if (full) {
        c.y_off = 0.0;
        c.y_scale = double((1u << bpc) - 1);
        c.c_off = double(1u << (bpc - 1));
        c.c_scale = double((1u << bpc) - 1);
    } else {
        c.y_off = 16.0 * s;
        c.y_scale = 219.0 * s;
        c.c_off = 128.0 * s;
        c.c_scale = 224.0 * s;
    }
    const double kg = 1.0 - k.kr - k.kb;
    c.cr_r = 2.0 * (1.0 - k.kr);
    c.cb_b = 2.0 * (1.0 - k.kb);
    c.cb_g = 2.0 * k.kb * (1.0 - k.kb) / kg;
    c.cr_g = 2.0 * k.kr * (1.0 - k.kr) / kg;
    return c;
}

}  // namespace

Conversion conversion_for(const FrameFormat &fmt, const std::string &matrix, bool full)
{
    LumaWeights k = kBt601;
    if (matrix == "bt709" || (matrix == "auto" && fmt.h > kAutoHdHeight)) k = kBt709;
    else if (matrix == "bt2020") k = kBt2020;
    return make_conversion(k, full, fmt.bpc);
}

int check_format(const FrameFormat &fmt, const char *name, unsigned min_side)
{
    if (fmt.pix_fmt == VMAF_PIX_FMT_YUV400P) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: needs chroma planes (4:0:0 input given)\n", name);
        return -EINVAL;
    }
    if (fmt.w < min_side || fmt.h < min_side) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: picture %ux%u is too small; width and height must be at least %u\n", name,
            fmt.w, fmt.h, min_side);
        return -EINVAL;
    }
    return 0;
}

}  // namespace vmaf::srgb
