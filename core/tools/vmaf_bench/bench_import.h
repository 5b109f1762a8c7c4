// SPDX-License-Identifier: BSD-2-Clause-Patent
// vmaf_bench's vulkan-import mode: frames in VkImages of the caller's own
// device (caller/caller_device.h), as a decoder or renderer holds them. Before the timed loop a ring of frame pairs is uploaded once; in the
// loop each frame is handed to the library by description only.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "caller/caller_device.h"
#include "libvmaf/libvmaf_vulkan.h"

namespace vmaf::bench {

class FrameCycle;
using tools::CallerDevice;

// `frames.size()` pairs of 8-bit 4:2:0 pictures in VkImages of the caller's
// device (one G8_B8_R8_3PLANE_420 image per picture, or three R8 images where the
// device cannot copy the multi-plane format), each with its timeline semaphore.
class ImageRing {
public:
    // How each picture is stored: Auto takes the multi-plane image where the
    // device can copy it.
    enum class Layout { Auto, MultiPlane, Planar };

    static int create(CallerDevice &dev, const FrameCycle &frames, Layout layout, std::unique_ptr<ImageRing> *out,
                      std::string *err);
    ~ImageRing();
    ImageRing(const ImageRing &) = delete;
    ImageRing &operator=(const ImageRing &) = delete;

    // Import side `side` of frame `index` (pair index % size()) into `vmaf`: waits
    // for the value the picture's semaphore last reached, signals the next.
    int import(VmafContext *vmaf, VmafVulkanImportSide side, unsigned index);
    // Wait until the library has finished reading every picture.
    void wait_idle();
    const char *layout_name() const { return multi_plane_ ? "G8_B8_R8_3PLANE_420" : "3 x R8"; }

private:
    struct Picture {
        VkImage img[3] = {};
        VkDeviceMemory memory[3] = {};
        VkSemaphore sem[3] = {};  // one per image
        uint64_t value = 0;       // what they reach once the last work on them is done
    };
    explicit ImageRing(CallerDevice &dev) : dev_(dev) {}
    int create_picture(Picture *p, std::string *err);
    int upload(Picture *p, const VmafPicture &pic, std::string *err);

    CallerDevice &dev_;
    bool multi_plane_ = false;
    uint32_t usage_ = 0, create_flags_ = 0;  // of the images, told to the library
    unsigned w_ = 0, h_ = 0;
    std::vector<Picture> pics_;  // reference and distorted of each pair, in turn
};

}  // namespace vmaf::bench
