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

// Allocate planes for `pic` in fresh storage, freed with the last reference.
int picture_alloc(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc,
                  unsigned w, unsigned h);

// Bytes of storage a picture of this geometry needs (0 on bad arguments).
size_t picture_storage_size(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h);

// Lay out a picture over caller storage of picture_storage_size() bytes
// (kPictureAlign-aligned); `release(storage)` runs with the last reference.
int picture_wrap(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc, unsigned w,
                 unsigned h, void *storage, std::function<void(void *)> release);

// A new picture (fresh storage) holding a copy of `src`'s samples, which may be
// any planes (e.g. unowned host memory).
int picture_copy_to_new(const VmafPicture &src, VmafPicture *dst);

// Take another reference to the same storage.
void picture_ref(VmafPicture *dst, const VmafPicture *src);

// True when both pictures have the same format, depth and size.
bool picture_same_format(const VmafPicture &a, const VmafPicture &b);

// Bytes per sample (1 for 8-bit, 2 otherwise).
inline unsigned bytes_per_sample(unsigned bpc) { return bpc > 8 ? 2 : 1; }

}  // namespace vmaf
