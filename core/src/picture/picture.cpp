#include "picture/picture.h"

#include "api/export.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

struct VmafRef {
    std::atomic<long> count{1};
    void *storage = nullptr;
    std::function<void()> release;
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

static bool valid_format(VmafPixelFormat fmt)
{
    return fmt == VMAF_PIX_FMT_YUV420P || fmt == VMAF_PIX_FMT_YUV422P ||
           fmt == VMAF_PIX_FMT_YUV444P || fmt == VMAF_PIX_FMT_YUV400P;
}

int picture_alloc(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc,
                  unsigned w, unsigned h, std::function<void()> release)
{
    if (!pic || !valid_format(fmt) || !w || !h) return -EINVAL;
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16) return -EINVAL;
    if (w > (1u << 16) || h > (1u << 16)) return -EINVAL;

    std::memset(pic, 0, sizeof(*pic));
    unsigned ss_x, ss_y;
    chroma_shift(fmt, &ss_x, &ss_y);
    const unsigned bps = bytes_per_sample(bpc);
    size_t offset[3] = {0, 0, 0};
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
    void *storage = std::aligned_alloc(kPictureAlign, total);
    if (!storage) return -ENOMEM;
    VmafRef *ref = new (std::nothrow) VmafRef;
    if (!ref) {
        std::free(storage);
        return -ENOMEM;
    }
    ref->storage = storage;
    ref->release = std::move(release);
    for (unsigned p = 0; p < plane_count(fmt); p++)
        pic->data[p] = static_cast<uint8_t *>(storage) + offset[p];
    pic->pix_fmt = fmt;
    pic->bpc = bpc;
    pic->ref = ref;
    return 0;
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
        std::free(ref->storage);
        auto release = std::move(ref->release);
        delete ref;
        if (release) release();
    }
    std::memset(pic, 0, sizeof(*pic));
    return 0;
}
