// VmafPicture storage: aligned, reference-counted planes.
#pragma once

#include <cstddef>
#include <functional>

#include "libvmaf/picture.h"

namespace vmaf {

inline constexpr size_t kPictureAlign = 64;

// Chroma subsampling shifts of a pixel format (x, y).
void chroma_shift(VmafPixelFormat fmt, unsigned *ss_x, unsigned *ss_y);
unsigned plane_count(VmafPixelFormat fmt);

// Allocate planes for `pic`; `release` runs (once) when the last reference is
// dropped, after the storage is freed — pools use it to recycle slots.
int picture_alloc(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc,
                  unsigned w, unsigned h, std::function<void()> release = {});

// Take another reference to the same storage.
void picture_ref(VmafPicture *dst, const VmafPicture *src);

// True when both pictures have the same format, depth and size.
bool picture_same_format(const VmafPicture &a, const VmafPicture &b);

// Bytes per sample (1 for 8-bit, 2 otherwise).
inline unsigned bytes_per_sample(unsigned bpc) { return bpc > 8 ? 2 : 1; }

}  // namespace vmaf
