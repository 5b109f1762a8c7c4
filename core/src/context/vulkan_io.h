// SPDX-License-Identifier: BSD-2-Clause-Patent
// A context's Vulkan frame I/O (vk::FrameIo): its picture pool (host, device or
// none) and the frame being imported. Owned by the Context (context/context.h);
// the Context member functions that use it are in context/vulkan_io.cpp.
#pragma once

#include <memory>

#include "libvmaf/libvmaf_vulkan.h"
#include "picture/pool.h"
#include "vulkan/device_picture.h"
#include "vulkan/import.h"

namespace vmaf::vk {

struct FrameIo {
    // vmaf_vulkan_preallocate_pictures
    bool configured = false;
    VmafVulkanPicturePreallocationMethod method = VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_NONE;
    VmafPixelFormat fmt = VMAF_PIX_FMT_UNKNOWN;
    unsigned bpc = 0, w = 0, h = 0;
    std::unique_ptr<PicturePool> host_pool;
    std::unique_ptr<DevicePicturePool> device_pool;

    // The frame being imported: its index and the sides imported so far.
    bool importing = false;
    unsigned index = 0;
    std::unique_ptr<ImportedPicture> side[2];

    // Drop a frame imported on one side only (at flush), saying so.
    void drop_unread();
};

}  // namespace vmaf::vk
