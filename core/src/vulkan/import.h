// SPDX-License-Identifier: BSD-2-Clause-Patent
// Pictures that are already on the device: VkImages of the caller's device
// (vmaf_vulkan_import_image) and external memory (opaque fds, DMA-BUFs).
//
// An import is turned into an ImportedPicture: where each of the picture's planes
// comes from (an image plane or rows of a buffer), which component of it (for
// interleaved chroma) and the shift that brings msb-aligned samples down; plus
// what the frame's submission must wait for, signal and transition. The Engine
// records the copies into FrameBuffers::planes (gpu/engine_import.cpp), so every GPU feature
// reads imported frames exactly as it reads uploaded ones.
#pragma once

#include <memory>
#include <vector>

#include "libvmaf/libvmaf_vulkan.h"
#include "picture/format.h"
#include "vulkan/vk.h"

namespace vmaf::vk {

class State;

// The samples of one stored plane: an image (or one aspect of a multi-plane
// image), or rows of a buffer.
struct PlaneSource {
    VkImage image = VK_NULL_HANDLE;  // set for images
    VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;  // set for buffers
    VkDeviceSize offset = 0, pitch = 0;  // buffers: row y at offset + y * pitch bytes
    unsigned components = 1;  // 2: interleaved chroma, Cb then Cr
    unsigned bytes = 1;       // per component
    // Sampled pictures: a view of the plane in an R8/R16 UNORM format (`bytes`
    // per component, normalized over 8 * bytes bits).
    VkImageView view = VK_NULL_HANDLE;
};

// One image's synchronization and layouts for the frame.
struct ImageUse {
    VkImage image = VK_NULL_HANDLE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;        // when the frame starts
    VkImageLayout read_layout = VK_IMAGE_LAYOUT_UNDEFINED;   // while the frame reads it
    VkImageLayout final_layout = VK_IMAGE_LAYOUT_UNDEFINED;  // when it ends
    uint32_t family = VK_QUEUE_FAMILY_IGNORED;               // to acquire from, or ignored
    VkSemaphore semaphore = VK_NULL_HANDLE;
    uint64_t wait = 0, signal = 0;
};

// Vulkan objects made for one import (external memory), destroyed with it, which
// the Engine does once the frame's work is done.
class ImportedObjects {
public:
    explicit ImportedObjects(State &st) : st_(st) {}
    ~ImportedObjects();
    ImportedObjects(const ImportedObjects &) = delete;
    ImportedObjects &operator=(const ImportedObjects &) = delete;

    std::vector<VkDeviceMemory> memory;
    std::vector<VkBuffer> buffers;
    std::vector<VkImage> images;
    std::vector<VkImageView> views;

private:
    State &st_;
};

struct ImportedPicture {
    FrameFormat fmt{};
    unsigned shift = 0;  // right shift of every sample (msb-aligned 16-bit data)
    // The kernels sample the sources' views (no copy); else the sources are copied.
    bool sampled = false;
    const char *why_copied = "external memory";  // when not sampled: why (for the log)
    std::vector<PlaneSource> sources;
    // Output plane p comes from sources[source[p]], component component[p].
    unsigned source[3] = {0, 0, 0}, component[3] = {0, 0, 0};
    std::vector<ImageUse> images;
    // Buffers over external memory: acquired from VK_QUEUE_FAMILY_EXTERNAL.
    std::vector<VkBuffer> external_buffers;
    // Images over external memory: acquired from the external (or foreign) family,
    // their contents defined by the exporter.
    std::vector<VkImage> external_images;
    std::unique_ptr<ImportedObjects> owned;

    // The layout the frame reads `image` in: its ImageUse's, or for images made
    // over external memory TRANSFER_SRC_OPTIMAL (record_image_barriers).
    VkImageLayout read_layout_of(VkImageLayout fallback, VkImage image) const
    {
        for (const ImageUse &u : images)
            if (u.image == image) return u.read_layout;
        return fallback;
    }
};

// Describe `img` (checked against what the device can read). Sampled where the
// images' usage, flags and formats allow it; the views are made here. -EINVAL for a malformed description, -ENOTSUP for a format the device
// can neither sample nor copy from.
int import_image(State &st, const VmafVulkanImage &img, ImportedPicture *out);

// Import external memory: dup()s the fds, imports them and binds buffers (linear
// layouts) or images (DRM format modifiers). -ENOTSUP, with a log line naming the
// extension, where the device cannot.
int import_external(State &st, const VmafVulkanExternalPicture &pic, ImportedPicture *out);

// The format facts the importers use (exposed for tests).
struct ImageFormatInfo {
    VkFormat format;
    unsigned planes;      // 1 for single-plane formats
    unsigned components;  // of a single-plane format: 1 or 2
    unsigned bytes;       // per component: 1 or 2
    unsigned msb_bits;    // X6/X4 formats: the significant bits, held high; else 0
    unsigned ss_x, ss_y;  // multi-plane formats: chroma subsampling shifts
};
const ImageFormatInfo *image_format_info(VkFormat f);

}  // namespace vmaf::vk
