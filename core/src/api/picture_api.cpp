// SPDX-License-Identifier: BSD-2-Clause-Patent
// extern "C" shims of libvmaf/picture.h: the pictures themselves, their
// storage and its reuse, live in picture/ (picture/picture.h).
#include "api/export.h"
#include "api/guarded.h"
#include "picture/picture.h"

VMAF_EXPORT int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt,
                                   unsigned bpc, unsigned w, unsigned h)
{
    return vmaf::api::guarded("vmaf_picture_alloc", [&] { return vmaf::picture_alloc(pic, pix_fmt, bpc, w, h); });
}

VMAF_EXPORT int vmaf_picture_unref(VmafPicture *pic)
{
    return vmaf::api::guarded("vmaf_picture_unref", [&] { return vmaf::picture_unref(pic); });
}
