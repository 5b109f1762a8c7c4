// SPDX-License-Identifier: BSD-2-Clause-Patent
// The geometry every frame of a sequence shares: what extractors, their GPU
// twins and the Vulkan importer are set up for.
#pragma once

#include "libvmaf/picture.h"

namespace vmaf {

struct FrameFormat {
    VmafPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w, h;  // luma size
};

}  // namespace vmaf
