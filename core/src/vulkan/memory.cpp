// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/memory.h"

#include <algorithm>
#include <cerrno>

#include "util/align.h"
#include "util/log.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

constexpr VkMemoryPropertyFlags kHostVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
constexpr VkMemoryPropertyFlags kCoherent = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
constexpr VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
constexpr VkMemoryPropertyFlags kDeviceLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;

// How well a memory type fits a use; negative when it cannot serve it.
int score(MemoryUse use, VkMemoryPropertyFlags f)
{
    // Types with these are for special purposes (protected content, AMD's uncached
    // debug memory, tiled lazily-allocated images): never ours.
    constexpr VkMemoryPropertyFlags kSpecial = VK_MEMORY_PROPERTY_PROTECTED_BIT |
                                               VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT |
                                               VK_MEMORY_PROPERTY_DEVICE_UNCACHED_BIT_AMD;
    if (f & kSpecial) return -1;
    switch (use) {
    case MemoryUse::Device:
        // Device-local; a type that is also host-visible (resizable BAR) is a
        // scarce window on discrete cards: leave it to uploads by others.
        if (!(f & kDeviceLocal)) return -1;
        return (f & kHostVisible) ? 1 : 2;
    case MemoryUse::Upload:
        // Written once in order by the CPU: coherent write-combined system memory
        // is ideal; cached works; device-local host-visible spends the BAR.
        if (!(f & kHostVisible)) return -1;
        return ((f & kCoherent) ? 4 : 0) + ((f & kDeviceLocal) ? 0 : 2) + ((f & kCached) ? 0 : 1);
    case MemoryUse::Shared:
        // Written by the CPU once per frame, read by one GPU copy: device-local
        // host-visible memory makes that copy local; system memory works too.
        if (!(f & kHostVisible)) return -1;
        return ((f & kDeviceLocal) ? 4 : 0) + ((f & kCoherent) ? 2 : 0) + ((f & kCached) ? 0 : 1);
    case MemoryUse::Readback:
        // Read by the CPU: cached matters most (uncached reads are very slow).
        if (!(f & kHostVisible)) return -1;
        return ((f & kCached) ? 4 : 0) + ((f & kCoherent) ? 2 : 0) + ((f & kDeviceLocal) ? 0 : 1);
    }
    return -1;
}

}  // namespace

Buffer &Buffer::operator=(Buffer &&o) noexcept
{
    if (this == &o) return *this;
    reset();
    owner_ = o.owner_;
    buffer_ = o.buffer_;
    size_ = o.size_;
    block_ = o.block_;
    offset_ = o.offset_;
    piece_size_ = o.piece_size_;
    mapped_ = o.mapped_;
    coherent_ = o.coherent_;
    o.owner_ = nullptr;
    o.buffer_ = VK_NULL_HANDLE;
    o.mapped_ = nullptr;
    o.size_ = 0;
    return *this;
}

void Buffer::reset()
{
    if (!owner_) return;
    owner_->st_.fn().vkDestroyBuffer(owner_->st_.device(), buffer_, nullptr);
    owner_->release(block_, offset_, piece_size_);
    owner_ = nullptr;
    buffer_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
    size_ = 0;
}

int Buffer::flush(VkDeviceSize offset, VkDeviceSize size) const { return sync(true, offset, size); }
int Buffer::invalidate(VkDeviceSize offset, VkDeviceSize size) const { return sync(false, offset, size); }

int Buffer::sync(bool to_device, VkDeviceSize offset, VkDeviceSize size) const
{
    if (coherent_ || !mapped_) return 0;
    if (size == VK_WHOLE_SIZE) size = size_ - offset;
    // The piece starts and ends on nonCoherentAtomSize boundaries (see
    // create_buffer), so rounding outwards stays inside it.
    const VkDeviceSize atom = owner_->st_.limits().nonCoherentAtomSize;
    const VkDeviceSize begin = offset_ + offset / atom * atom;
    const VkDeviceSize end = std::min(offset_ + align_up(offset + size, atom), offset_ + piece_size_);
    VkMappedMemoryRange r = make<VkMappedMemoryRange>(VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE);
    {
        std::lock_guard lock(owner_->mutex_);
        r.memory = owner_->blocks_[block_]->memory;
    }
    r.offset = begin;
    r.size = end - begin;
    const auto &fn = owner_->st_.fn();
    const VkResult res = to_device ? fn.vkFlushMappedMemoryRanges(owner_->st_.device(), 1, &r)
                                   : fn.vkInvalidateMappedMemoryRanges(owner_->st_.device(), 1, &r);
    return errno_from(res);
}

Allocator::Allocator(State &state) : st_(state) {}

Allocator::~Allocator()
{
    for (auto &b : blocks_) {
        if (!b) continue;
        log(VMAF_LOG_LEVEL_WARNING, "Vulkan: a buffer outlived its allocator\n");
        st_.fn().vkFreeMemory(st_.device(), b->memory, nullptr);
    }
}

std::vector<uint32_t> Allocator::ranked_types(MemoryUse use, uint32_t type_bits) const
{
    const auto &mp = st_.memory_properties();
    std::vector<std::pair<int, uint32_t>> ok;
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++) {
        if (!(type_bits & (1u << i))) continue;
        const int s = score(use, mp.memoryTypes[i].propertyFlags);
        if (s >= 0) ok.emplace_back(-s, i);
    }
    std::stable_sort(ok.begin(), ok.end());
    std::vector<uint32_t> out;
    for (auto &[s, i] : ok) out.push_back(i);
    return out;
}

VkDeviceSize Allocator::allocated_bytes() const
{
    std::lock_guard lock(mutex_);
    VkDeviceSize n = 0;
    for (const auto &b : blocks_)
        if (b) n += b->size;
    return n;
}

size_t Allocator::block_count() const
{
    std::lock_guard lock(mutex_);
    return size_t(std::count_if(blocks_.begin(), blocks_.end(), [](auto &b) { return b != nullptr; }));
}

bool Allocator::carve(Block &b, VkDeviceSize size, VkDeviceSize align, VkDeviceSize *offset)
{
    for (size_t i = 0; i < b.free.size(); i++) {
        Range &r = b.free[i];
        const VkDeviceSize at = align_up(r.offset, align);
        if (at + size > r.offset + r.size) continue;
        const Range tail{at + size, r.offset + r.size - (at + size)};
        const Range head{r.offset, at - r.offset};
        b.free.erase(b.free.begin() + ptrdiff_t(i));
        if (tail.size) b.free.insert(b.free.begin() + ptrdiff_t(i), tail);
        if (head.size) b.free.insert(b.free.begin() + ptrdiff_t(i), head);
        *offset = at;
        return true;
    }
    return false;
}

VkDeviceSize Allocator::next_block_size(uint32_t type, VkDeviceSize piece) const
{
    const VkDeviceSize need = align_up(piece, VkDeviceSize(1) << 16);
    if (!(st_.memory_properties().memoryTypes[type].propertyFlags & kHostVisible)) return std::max(kBlockSize, need);
    const auto live = std::count_if(blocks_.begin(), blocks_.end(), [&](auto &b) { return b && b->type == type; });
    VkDeviceSize grown = kFirstHostBlock;
    for (ptrdiff_t i = 0; i < live && grown < kBlockSize; i++) grown *= 2;
    return std::max(std::min(grown, kBlockSize), need);
}

int Allocator::new_block(uint32_t type, VkDeviceSize size, size_t *index)
{
    const auto &mp = st_.memory_properties();
    auto b = std::make_unique<Block>();
    VkMemoryAllocateInfo ai = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.allocationSize = size;
    ai.memoryTypeIndex = type;
    VkResult r = st_.injected(State::Fault::Allocate);
    if (r == VK_SUCCESS) r = st_.fn().vkAllocateMemory(st_.device(), &ai, nullptr, &b->memory);
    if (r != VK_SUCCESS) return errno_from(r);
    const VkMemoryPropertyFlags f = mp.memoryTypes[type].propertyFlags;
    if (f & kHostVisible) {
        void *p = nullptr;
        r = st_.fn().vkMapMemory(st_.device(), b->memory, 0, VK_WHOLE_SIZE, 0, &p);
        if (r != VK_SUCCESS) {
            st_.fn().vkFreeMemory(st_.device(), b->memory, nullptr);
            return errno_from(r);
        }
        b->mapped = static_cast<std::byte *>(p);
    }
    b->size = size;
    b->type = type;
    b->coherent = (f & kCoherent) != 0;
    b->free.push_back({0, size});
    for (size_t i = 0; i < blocks_.size(); i++) {
        if (!blocks_[i]) {
            blocks_[i] = std::move(b);
            *index = i;
            return 0;
        }
    }
    blocks_.push_back(std::move(b));
    *index = blocks_.size() - 1;
    return 0;
}

int Allocator::create_buffer(VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use, Buffer *out,
                             VkDeviceSize min_align)
{
    const auto &fn = st_.fn();
    const VkDevice dev = st_.device();
    if (!size) return -EINVAL;
    VkBufferCreateInfo bi = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bi.size = size;
    bi.usage = usage;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer buffer;
    VkResult r = fn.vkCreateBuffer(dev, &bi, nullptr, &buffer);
    if (r != VK_SUCCESS) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: vkCreateBuffer (%llu bytes): %s\n", (unsigned long long)size,
            result_name(r));
        return errno_from(r);
    }
    VkMemoryRequirements req;
    fn.vkGetBufferMemoryRequirements(dev, buffer, &req);

    int err = -ENOMEM;
    std::lock_guard lock(mutex_);
    for (uint32_t type : ranked_types(use, req.memoryTypeBits)) {
        const VkMemoryPropertyFlags f = st_.memory_properties().memoryTypes[type].propertyFlags;
        // Non-coherent pieces start and end on atoms, so flushing one never
        // touches a neighbour.
        VkDeviceSize align = std::max(req.alignment, min_align), piece = req.size;
        if ((f & kHostVisible) && !(f & kCoherent)) {
            align = std::max(align, st_.limits().nonCoherentAtomSize);
            piece = align_up(piece, st_.limits().nonCoherentAtomSize);
        }
        size_t index = SIZE_MAX;
        VkDeviceSize offset = 0;
        for (size_t i = 0; i < blocks_.size() && index == SIZE_MAX; i++)
            if (blocks_[i] && blocks_[i]->type == type && carve(*blocks_[i], piece, align, &offset)) index = i;
        if (index == SIZE_MAX) {
            err = new_block(type, next_block_size(type, piece), &index);
            if (err) continue;  // that heap is full: try the next type
            carve(*blocks_[index], piece, align, &offset);
        }
        Block &b = *blocks_[index];
        r = fn.vkBindBufferMemory(dev, buffer, b.memory, offset);
        if (r != VK_SUCCESS) {
            fn.vkDestroyBuffer(dev, buffer, nullptr);
            release_locked(index, offset, piece);
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan: vkBindBufferMemory: %s\n", result_name(r));
            return errno_from(r);
        }
        out->reset();
        out->owner_ = this;
        out->buffer_ = buffer;
        out->size_ = size;
        out->block_ = index;
        out->offset_ = offset;
        out->piece_size_ = piece;
        out->mapped_ = b.mapped ? b.mapped + offset : nullptr;
        out->coherent_ = b.coherent;
        return 0;
    }
    fn.vkDestroyBuffer(dev, buffer, nullptr);
    log(VMAF_LOG_LEVEL_ERROR, "Vulkan: no memory for a %llu-byte buffer\n", (unsigned long long)size);
    return err;
}

void Allocator::release(size_t block, VkDeviceSize offset, VkDeviceSize size)
{
    std::lock_guard lock(mutex_);
    release_locked(block, offset, size);
}

void Allocator::release_locked(size_t block, VkDeviceSize offset, VkDeviceSize size)
{
    Block &b = *blocks_[block];
    auto it = std::lower_bound(b.free.begin(), b.free.end(), offset,
                               [](const Range &r, VkDeviceSize o) { return r.offset < o; });
    it = b.free.insert(it, {offset, size});
    // Merge with the next, then the previous range.
    if (auto next = it + 1; next != b.free.end() && it->offset + it->size == next->offset) {
        it->size += next->size;
        b.free.erase(next);
    }
    if (it != b.free.begin()) {
        auto prev = it - 1;
        if (prev->offset + prev->size == it->offset) {
            prev->size += it->size;
            b.free.erase(it);
        }
    }
    if (b.free.size() == 1 && b.free[0].size == b.size) {
        st_.fn().vkFreeMemory(st_.device(), b.memory, nullptr);  // unmaps too
        blocks_[block].reset();
    }
}

}  // namespace vmaf::vk
