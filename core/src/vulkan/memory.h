// SPDX-License-Identifier: BSD-2-Clause-Patent
// Device memory for long-lived buffers.
//
// The library allocates few buffers, once per engine: picture planes, staging and
// readback rings, per-feature scratch. Buffers are carved out of large blocks per
// memory type (first fit, neighbours merge on free) so a handful of
// vkAllocateMemory calls serve them all; a request larger than a block gets a
// block of its own. Host-visible blocks stay mapped for their lifetime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "vulkan/vk.h"

namespace vmaf::vk {

class State;
class Allocator;

enum class MemoryUse {
    Device,    // device-local work buffers, never mapped
    Upload,    // host writes, device reads once (staging): host-visible, coherent preferred
    Readback,  // device writes, host reads: host-visible, cached preferred
    Shared,    // host writes, the GPU copies from it (device picture pools):
               // host-visible, device-local preferred (resizable BAR, unified memory)
};

// A buffer bound to a piece of a block. Move-only; frees itself.
class Buffer {
public:
    Buffer() = default;
    Buffer(Buffer &&o) noexcept { *this = std::move(o); }
    Buffer &operator=(Buffer &&o) noexcept;
    ~Buffer() { reset(); }

    VkBuffer get() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }
    // The mapping of host-visible memory: always there for Upload and Readback
    // buffers, and for Device buffers on unified-memory devices (lavapipe, some
    // integrated GPUs); nullptr otherwise.
    std::byte *data() const { return mapped_; }
    bool coherent() const { return coherent_; }

    // Make host writes visible to the device, and device writes (after a
    // host-read barrier and a wait) visible to the host. No-ops on coherent memory.
    int flush(VkDeviceSize offset = 0, VkDeviceSize size = VK_WHOLE_SIZE) const;
    int invalidate(VkDeviceSize offset = 0, VkDeviceSize size = VK_WHOLE_SIZE) const;

    void reset();

private:
    friend class Allocator;
    int sync(bool to_device, VkDeviceSize offset, VkDeviceSize size) const;

    Allocator *owner_ = nullptr;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    size_t block_ = 0;              // index in the allocator's blocks
    VkDeviceSize offset_ = 0;       // of the piece in the block
    VkDeviceSize piece_size_ = 0;
    std::byte *mapped_ = nullptr;
    bool coherent_ = true;
};

class Allocator {
public:
    explicit Allocator(State &state);
    ~Allocator();
    Allocator(const Allocator &) = delete;
    Allocator &operator=(const Allocator &) = delete;

    // A buffer of `size` bytes for `usage`, in memory suited to `use`, starting at
    // a multiple of `align` bytes (at least what the buffer requires).
    int create_buffer(VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use, Buffer *out,
                      VkDeviceSize align = 1);

    // Memory types acceptable for `use` among `type_bits`, best first.
    std::vector<uint32_t> ranked_types(MemoryUse use, uint32_t type_bits) const;

    // Live blocks (for tests: sub-allocation must share them), and their bytes.
    size_t block_count() const;
    VkDeviceSize allocated_bytes() const;
    // Default block size; larger requests get a block to themselves.
    static constexpr VkDeviceSize kBlockSize = VkDeviceSize(32) << 20;
    // Host-visible memory is pinned and cleared by the driver as it is
    // allocated (about 0.4 ms a MiB of system memory on NVIDIA's driver), so
    // its blocks start at this size and double with each live block of the
    // type, up to kBlockSize.
    static constexpr VkDeviceSize kFirstHostBlock = VkDeviceSize(1) << 20;

private:
    friend class Buffer;
    struct Range {
        VkDeviceSize offset, size;
    };
    struct Block {
        VkDeviceMemory memory = VK_NULL_HANDLE;
        VkDeviceSize size = 0;
        uint32_t type = 0;
        std::byte *mapped = nullptr;
        bool coherent = true;
        std::vector<Range> free;  // sorted by offset, never adjacent
    };

    bool carve(Block &b, VkDeviceSize size, VkDeviceSize align, VkDeviceSize *offset);
    int new_block(uint32_t type, VkDeviceSize size, size_t *index);
    VkDeviceSize next_block_size(uint32_t type, VkDeviceSize piece) const;  // mutex_ held
    void release(size_t block, VkDeviceSize offset, VkDeviceSize size);
    void release_locked(size_t block, VkDeviceSize offset, VkDeviceSize size);  // mutex_ held

    State &st_;
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<Block>> blocks_;  // null where a block was freed
};

}  // namespace vmaf::vk
