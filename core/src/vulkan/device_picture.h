// SPDX-License-Identifier: BSD-2-Clause-Patent
// Pictures in host-visible device memory (VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE).
//
// Each picture of the pool is one buffer, laid out like a host picture
// (picture_wrap): the host writes it through its mapping, the CPU features read
// it the same way, and the Engine copies its planes on the GPU instead of through
// a staging buffer. The picture's VmafPicture.priv points at its DevicePicture,
// which tags it; pictures keep the pool's storage alive until their last
// reference is dropped.
#pragma once

#include <memory>

#include "libvmaf/picture.h"
#include "vulkan/vk.h"

namespace vmaf::vk {

class State;

struct DevicePicture {
    static constexpr uint32_t kMagic = 0x564b5043;  // "VKPC"
    uint32_t magic = kMagic;
    const State *state = nullptr;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize plane_offset[3] = {0, 0, 0};  // of each plane within the buffer
};

// The tag of a device picture, or nullptr for any other picture.
const DevicePicture *device_picture(const VmafPicture &pic);

class DevicePicturePool {
public:
    static int create(State &st, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned count,
                      std::unique_ptr<DevicePicturePool> *out);
    ~DevicePicturePool();

    // A free picture, or -EAGAIN when every one is referenced.
    int try_fetch(VmafPicture *pic);
    // A free picture, waiting until one is unreferenced.
    int fetch(VmafPicture *pic);

private:
    struct Shared;
    explicit DevicePicturePool(std::shared_ptr<Shared> s) : shared_(std::move(s)) {}
    int take(VmafPicture *pic, bool wait);
    std::shared_ptr<Shared> shared_;
};

}  // namespace vmaf::vk
