// SPDX-License-Identifier: BSD-2-Clause-Patent
// Host pictures the GPU reads where they are: the library's HostStorage
// (picture/picture.h: vmaf_picture_alloc and picture pools) imported as device
// memory with VK_EXT_external_memory_host, a buffer over it, and the frame's
// copies into the planes read from that buffer instead of a staging buffer the
// CPU filled. Pictures that cannot be imported are copied as before.
//
// One import per storage, made the first time a frame reads it and kept for the
// frames after (a pool's pictures are imported once each). An import never
// outlives its memory: a hook on the storage destroys it just before the memory
// is freed, and the engine holds a reference to every imported picture until its
// frame is done, so the storage is not freed (nor handed out again by its pool)
// while the GPU may still read it. The engine's end destroys what is left.
//
// Small storages are copied, not imported: an import pins the pages and makes
// a device allocation (about 1.7 ms each on an NVIDIA H200), while copying a
// picture of 256 KiB costs tens of microseconds; a batch of short small clips
// spent a third of its time importing (ADR 0067). VMAF_VULKAN_HOST_IMPORT=all
// imports every storage, =0 none.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "libvmaf/picture.h"
#include "vulkan/vk.h"

namespace vmaf::vk {

class State;

class HostImports {
public:
    // Storages smaller than this are copied (VMAF_VULKAN_HOST_IMPORT unset,
    // 1 or auto).
    static constexpr size_t kMinImportBytes = size_t(256) << 10;

    // Null when host pictures are to be copied: the device cannot import host
    // memory, or VMAF_VULKAN_HOST_IMPORT=0. *why says which.
    static std::unique_ptr<HostImports> create(State &st, std::string *why);
    ~HostImports();  // the GPU must be done with every import
    HostImports(const HostImports &) = delete;
    HostImports &operator=(const HostImports &) = delete;

    // A buffer over the storage of `pic`, and where each of its `n_planes` planes
    // (rows of `row_bytes[p]` bytes, pic.stride apart) starts in it. False when
    // the picture is to be copied instead: not in the library's storage, a
    // storage under min_bytes(), planes outside it, or the import failed (a
    // failure is not retried for that storage).
    bool find(const VmafPicture &pic, unsigned n_planes, const size_t row_bytes[3], VkBuffer *buffer,
              VkDeviceSize offset[3]);

    size_t min_bytes() const;  // the smallest storage imported
    uint64_t imports() const;  // made so far (failures not counted)
    size_t live() const;       // imports that exist now

private:
    struct Core;  // shared with the storages' hooks
    explicit HostImports(std::shared_ptr<Core> core) : core_(std::move(core)) {}
    std::shared_ptr<Core> core_;
};

}  // namespace vmaf::vk
