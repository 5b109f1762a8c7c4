#include "picture/picture.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include "api/export.h"

struct VmafRef {
    std::atomic<long> count{1};
    void *storage = nullptr;
    std::function<void(void *)> release;
};

namespace vmaf {

void chroma_shift(VmafPixelFormat fmt, unsigned *ss_x, unsigned *ss_y)
{
    *ss_x = (fmt == VMAF_PIX_FMT_YUV420P || fmt == VMAF_PIX_FMT_YUV422P) ? 1 : 0;
    *ss_y = fmt == VMAF_PIX_FMT_YUV420P ? 1 : 0;
}

unsigned plane_count(VmafPixelFormat fmt)
{
    return fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
}

namespace {

bool valid_geometry(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    const bool fmt_ok = fmt == VMAF_PIX_FMT_YUV420P || fmt == VMAF_PIX_FMT_YUV422P ||
                        fmt == VMAF_PIX_FMT_YUV444P || fmt == VMAF_PIX_FMT_YUV400P;
    const bool bpc_ok = bpc == 8 || bpc == 10 || bpc == 12 || bpc == 16;
    return fmt_ok && bpc_ok && w && h && w <= (1u << 16) && h <= (1u << 16);
}

// Plane geometry and offsets; returns the total size.
size_t layout(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
              size_t offset[3])
{
    unsigned ss_x, ss_y;
    chroma_shift(fmt, &ss_x, &ss_y);
    const unsigned bps = bytes_per_sample(bpc);
    size_t total = 0;
    for (unsigned p = 0; p < plane_count(fmt); p++) {
        const unsigned pw = p ? (w + ss_x) >> ss_x : w;
        const unsigned ph = p ? (h + ss_y) >> ss_y : h;
        const size_t stride = (size_t(pw) * bps + kPictureAlign - 1) & ~(kPictureAlign - 1);
        pic->w[p] = pw;
        pic->h[p] = ph;
        pic->stride[p] = ptrdiff_t(stride);
        offset[p] = total;
        total += stride * ph;
    }
    return total;
}

}  // namespace

size_t picture_storage_size(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    if (!valid_geometry(fmt, bpc, w, h)) return 0;
    VmafPicture tmp{};
    size_t offset[3];
    return layout(&tmp, fmt, bpc, w, h, offset);
}

int picture_wrap(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc, unsigned w,
                 unsigned h, void *storage, std::function<void(void *)> release)
{
    if (!pic || !storage || !valid_geometry(fmt, bpc, w, h)) return -EINVAL;
    VmafRef *ref = new (std::nothrow) VmafRef;
    if (!ref) return -ENOMEM;
    std::memset(pic, 0, sizeof(*pic));
    size_t offset[3];
    layout(pic, fmt, bpc, w, h, offset);
    for (unsigned p = 0; p < plane_count(fmt); p++)
        pic->data[p] = static_cast<uint8_t *>(storage) + offset[p];
    pic->pix_fmt = fmt;
    pic->bpc = bpc;
    ref->storage = storage;
    ref->release = std::move(release);
    pic->ref = ref;
    return 0;
}

int picture_alloc(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    const size_t size = picture_storage_size(fmt, bpc, w, h);
    if (!pic || !size) return -EINVAL;
    void *storage = std::aligned_alloc(kPictureAlign, size);
    if (!storage) return -ENOMEM;
    const int err = picture_wrap(pic, fmt, bpc, w, h, storage, [](void *s) { std::free(s); });
    if (err) std::free(storage);
    return err;
}

void picture_ref(VmafPicture *dst, const VmafPicture *src)
{
    *dst = *src;
    if (src->ref) src->ref->count.fetch_add(1, std::memory_order_relaxed);
}

bool picture_same_format(const VmafPicture &a, const VmafPicture &b)
{
    return a.pix_fmt == b.pix_fmt && a.bpc == b.bpc && a.w[0] == b.w[0] && a.h[0] == b.h[0];
}

int picture_copy_to_new(const VmafPicture &src, VmafPicture *dst)
{
    if (int err = picture_alloc(dst, src.pix_fmt, src.bpc, src.w[0], src.h[0])) return err;
    const size_t bps = bytes_per_sample(src.bpc);
    for (unsigned p = 0; p < plane_count(src.pix_fmt); p++) {
        const auto *in = static_cast<const uint8_t *>(src.data[p]);
        auto *out = static_cast<uint8_t *>(dst->data[p]);
        for (unsigned y = 0; y < dst->h[p]; y++)
            std::memcpy(out + std::ptrdiff_t(y) * dst->stride[p], in + std::ptrdiff_t(y) * src.stride[p],
                        size_t(dst->w[p]) * bps);
    }
    return 0;
}

}  // namespace vmaf

VMAF_EXPORT int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt,
                                   unsigned bpc, unsigned w, unsigned h)
{
    return vmaf::picture_alloc(pic, pix_fmt, bpc, w, h);
}

VMAF_EXPORT int vmaf_picture_unref(VmafPicture *pic)
{
    if (!pic) return -EINVAL;
    VmafRef *ref = pic->ref;
    if (!ref) return -EINVAL;
    if (ref->count.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        auto release = std::move(ref->release);
        void *storage = ref->storage;
        delete ref;
        if (release) release(storage);
    }
    std::memset(pic, 0, sizeof(*pic));
    return 0;
}
