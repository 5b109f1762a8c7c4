// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "picture/picture.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "os/os.h"

struct VmafRef {
    std::atomic<long> count{1};
    void *storage = nullptr;
    std::function<void(void *)> release;
    std::shared_ptr<vmaf::HostStorage> host;  // set when the storage is the library's
    bool spare = false;                        // from picture_alloc: its storage may be kept (picture.h)
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

std::atomic<size_t> g_required_alignment{0};

}  // namespace

size_t host_alignment()
{
    static const size_t page = os::page_size();
    return std::max({size_t(4096), page, g_required_alignment.load(std::memory_order_relaxed)});
}

void require_host_alignment(size_t align)
{
    if (!align || (align & (align - 1))) return;  // not a power of two
    size_t cur = g_required_alignment.load(std::memory_order_relaxed);
    while (cur < align && !g_required_alignment.compare_exchange_weak(cur, align, std::memory_order_relaxed)) {
    }
}

namespace {

// `size` rounded up to `align` (a power of two); 0 for 0 or on overflow.
size_t storage_bytes(size_t size, size_t align)
{
    if (!size || size > SIZE_MAX - align) return 0;
    return (size + align - 1) & ~(align - 1);
}

}  // namespace

std::shared_ptr<HostStorage> HostStorage::allocate(size_t size)
{
    const size_t align = host_alignment();
    size = storage_bytes(size, align);
    if (!size) return nullptr;
    void *base = os::aligned_alloc(align, size);
    if (!base) return nullptr;
    std::shared_ptr<HostStorage> s(new (std::nothrow) HostStorage(base, size));
    if (!s) os::aligned_free(base);
    return s;
}

HostStorage::~HostStorage()
{
    // No other reference exists, so no hook can be added or removed any more.
    for (auto &[token, fn] : hooks_) fn();
    os::aligned_free(base_);
}

uint64_t HostStorage::add_hook(std::function<void()> fn)
{
    std::lock_guard lock(mutex_);
    const uint64_t token = next_token_++;
    hooks_.emplace_back(token, std::move(fn));
    return token;
}

void HostStorage::remove_hook(uint64_t token)
{
    std::lock_guard lock(mutex_);
    std::erase_if(hooks_, [token](const auto &h) { return h.first == token; });
}

std::shared_ptr<HostStorage> picture_host_storage(const VmafPicture &pic)
{
    return pic.ref ? pic.ref->host : nullptr;
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

int picture_wrap(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                 std::shared_ptr<HostStorage> storage, std::function<void(void *)> release)
{
    if (!storage || storage->size() < picture_storage_size(fmt, bpc, w, h)) return -EINVAL;
    if (int err = picture_wrap(pic, fmt, bpc, w, h, storage->base(), std::move(release))) return err;
    pic->ref->host = std::move(storage);
    return 0;
}

namespace {

// The spare storages (picture.h), newest last. Made on first use and never
// destroyed, so a picture released while the process exits finds it.
struct Spares {
    std::mutex mutex;
    std::vector<std::shared_ptr<HostStorage>> kept;
    size_t bytes = 0;
    size_t limit = kMaxSpares;
    size_t users = 0;
};

Spares &spares()
{
    static Spares *s = new Spares;
    return *s;
}

// A kept storage of exactly `size` bytes aligned to `align` (what new storage
// of that size would be).
std::shared_ptr<HostStorage> take_spare(size_t size, size_t align)
{
    Spares &sp = spares();
    std::lock_guard lock(sp.mutex);
    for (auto it = sp.kept.rbegin(); it != sp.kept.rend(); ++it) {
        HostStorage &h = **it;
        if (h.size() != size || reinterpret_cast<uintptr_t>(h.base()) % align) continue;
        std::shared_ptr<HostStorage> s = std::move(*it);
        sp.kept.erase(std::next(it).base());
        sp.bytes -= size;
        return s;
    }
    return nullptr;
}

// Keep `s` (whose last user is the caller) if it fits; what no longer fits is
// freed outside the lock (its hooks may take other locks).
void keep_spare(std::shared_ptr<HostStorage> s)
{
    std::vector<std::shared_ptr<HostStorage>> drop;
    {
        Spares &sp = spares();
        std::lock_guard lock(sp.mutex);
        if (sp.users == 0 || sp.limit == 0 || s->size() > kMaxSpareBytes) {
            drop.push_back(std::move(s));
        } else {
            sp.bytes += s->size();
            sp.kept.push_back(std::move(s));
            size_t n = 0;
            while (sp.kept.size() - n > sp.limit || sp.bytes > kMaxSpareBytes) {
                sp.bytes -= sp.kept[n]->size();
                drop.push_back(std::move(sp.kept[n++]));
            }
            sp.kept.erase(sp.kept.begin(), sp.kept.begin() + std::ptrdiff_t(n));
        }
    }
    drop.clear();
}

}  // namespace

void hold_spares()
{
    Spares &sp = spares();
    std::lock_guard lock(sp.mutex);
    sp.users++;
}

void drop_spares()
{
    bool last;
    {
        Spares &sp = spares();
        std::lock_guard lock(sp.mutex);
        last = sp.users > 0 && --sp.users == 0;
    }
    if (last) release_spare_storage();
}

void release_spare_storage()
{
    std::vector<std::shared_ptr<HostStorage>> drop;
    Spares &sp = spares();
    std::lock_guard lock(sp.mutex);
    drop.swap(sp.kept);
    sp.bytes = 0;
    // freed after the lock (declared before it, destroyed after it)
}

void forget_spare_storage()
{
    Spares &sp = spares();
    std::lock_guard lock(sp.mutex);
    for (auto &s : sp.kept) new std::shared_ptr<HostStorage>(std::move(s));  // never freed, on purpose
    sp.kept.clear();
    sp.bytes = 0;
}

size_t set_spare_limit(size_t n)
{
    Spares &sp = spares();
    size_t before;
    {
        std::lock_guard lock(sp.mutex);
        before = sp.limit;
        sp.limit = std::min(n, kMaxSpares);
    }
    if (n < before) release_spare_storage();
    return before;
}

size_t spare_count()
{
    Spares &sp = spares();
    std::lock_guard lock(sp.mutex);
    return sp.kept.size();
}

int picture_alloc(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    const size_t size = picture_storage_size(fmt, bpc, w, h);
    if (!pic || !size) return -EINVAL;
    const size_t align = host_alignment();
    const size_t bytes = storage_bytes(size, align);
    std::shared_ptr<HostStorage> storage = bytes ? take_spare(bytes, align) : nullptr;
    if (!storage) storage = HostStorage::allocate(size);
    if (!storage) return -ENOMEM;
    // Zeroed, stride padding and all, as the memory of a fresh process is: a
    // caller that fills only part of each row still scores the same each run
    // (a spare holds an earlier picture's samples).
    std::memset(storage->base(), 0, storage->size());
    if (int err = picture_wrap(pic, fmt, bpc, w, h, std::move(storage))) return err;
    pic->ref->spare = true;  // given back to the spares with the last reference
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

int picture_unref(VmafPicture *pic)
{
    if (!pic) return -EINVAL;
    VmafRef *ref = pic->ref;
    if (!ref) return -EINVAL;
    if (ref->count.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        auto release = std::move(ref->release);
        void *storage = ref->storage;
        std::shared_ptr<HostStorage> host = std::move(ref->host);
        const bool spare = ref->spare;
        delete ref;
        if (release) release(storage);
        // Kept for the next picture when nothing else holds it; else the last
        // reference frees it (after its hooks).
        if (spare && host && host.use_count() == 1) keep_spare(std::move(host));
        host.reset();
    }
    std::memset(pic, 0, sizeof(*pic));
    return 0;
}

}  // namespace vmaf
