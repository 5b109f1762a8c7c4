// SPDX-License-Identifier: BSD-2-Clause-Patent
// VmafPicture storage: aligned, reference-counted planes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "libvmaf/picture.h"

namespace vmaf {

inline constexpr size_t kPictureAlign = 64;

// Chroma subsampling shifts of a pixel format (x, y).
void chroma_shift(VmafPixelFormat fmt, unsigned *ss_x, unsigned *ss_y);
unsigned plane_count(VmafPixelFormat fmt);

// Storage the library allocates for host pictures (vmaf_picture_alloc, picture
// pools): its base address and size are multiples of host_alignment(), so that a
// device can import it as it is (VK_EXT_external_memory_host, vulkan/host_import.h).
// Hooks added to it run just before its memory is freed, on the thread that drops
// the last reference, so whatever was made over the memory goes first.
class HostStorage {
public:
    // `size` bytes (rounded up to the alignment); null when there is no memory.
    static std::shared_ptr<HostStorage> allocate(size_t size);
    ~HostStorage();
    HostStorage(const HostStorage &) = delete;
    HostStorage &operator=(const HostStorage &) = delete;

    void *base() const { return base_; }
    size_t size() const { return size_; }

    // Run `fn` before the memory is freed; the token removes it again.
    uint64_t add_hook(std::function<void()> fn);
    void remove_hook(uint64_t token);

private:
    HostStorage(void *base, size_t size) : base_(base), size_(size) {}
    void *base_;
    size_t size_;
    std::mutex mutex_;
    std::vector<std::pair<uint64_t, std::function<void()>>> hooks_;
    uint64_t next_token_ = 1;
};

// The alignment of new HostStorage: at least 4096 and the page size, raised for
// the whole process by devices that import host memory only at coarser
// alignments (require_host_alignment, a power of two).
size_t host_alignment();
void require_host_alignment(size_t align);

// The HostStorage behind a picture's planes; null for any other picture
// (caller storage, device pictures, no reference).
std::shared_ptr<HostStorage> picture_host_storage(const VmafPicture &pic);

// Allocate planes for `pic` in HostStorage that the last reference gives back:
// storage of a released picture of the same size is taken again (spare
// storage, below), else a new one is made. Either way every byte is zero
// (padding too), so a caller that fills part of each row scores the same each run.
int picture_alloc(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc,
                  unsigned w, unsigned h);

// Spare storage: when the last reference to a picture from picture_alloc goes
// and nothing else holds its storage, the storage is kept for the next
// picture_alloc of the same size instead of being freed, with whatever was made
// over it (a device's import of it stays valid and is used again). Callers that
// allocate a picture per frame, as FFmpeg's filter and GStreamer's element do,
// so reuse a few allocations instead of making, importing and freeing two per
// frame. At most kMaxSpares storages of at most kMaxSpareBytes in all are kept
// (the oldest go first), and only while a user holds the spares: a context
// from its start to its end (hold_spares(), drop_spares()); the last user's
// drop frees them all. Memory from picture_alloc is never cleared, as libvmaf's.
inline constexpr size_t kMaxSpares = 8;
inline constexpr size_t kMaxSpareBytes = size_t(256) << 20;
void hold_spares();
void drop_spares();
void release_spare_storage();
// In a child of fork(): the spares are the parent's, some imported by its
// device, whose hooks must not run here. They are left alone (never freed in
// this process) and the child starts without spares.
void forget_spare_storage();
// Fewer spares (0: none) for tests of the paths that free storage; returns the
// limit before.
size_t set_spare_limit(size_t n);
// Storages kept now.
size_t spare_count();

// Bytes of storage a picture of this geometry needs (0 on bad arguments).
size_t picture_storage_size(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h);

// Lay out a picture over caller storage of picture_storage_size() bytes
// (kPictureAlign-aligned); `release(storage)` runs with the last reference.
int picture_wrap(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc, unsigned w,
                 unsigned h, void *storage, std::function<void(void *)> release);

// Lay out a picture over HostStorage of at least picture_storage_size() bytes,
// which the picture references; `release(base)` (optional) runs with the last
// reference to the picture, before the picture's reference to the storage goes.
int picture_wrap(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                 std::shared_ptr<HostStorage> storage, std::function<void(void *)> release = {});

// A new picture (fresh storage) holding a copy of `src`'s samples, which may be
// any planes (e.g. unowned host memory).
int picture_copy_to_new(const VmafPicture &src, VmafPicture *dst);

// Take another reference to the same storage.
void picture_ref(VmafPicture *dst, const VmafPicture *src);

// Drop `pic`'s reference (the last one releases or keeps the storage, above)
// and clear `pic`; -EINVAL for a null picture or one without a reference.
// vmaf_picture_unref (api/picture_api.cpp).
int picture_unref(VmafPicture *pic);

// True when both pictures have the same format, depth and size.
bool picture_same_format(const VmafPicture &a, const VmafPicture &b);

// Bytes per sample (1 for 8-bit, 2 otherwise).
inline unsigned bytes_per_sample(unsigned bpc) { return bpc > 8 ? 2 : 1; }

}  // namespace vmaf
