// SPDX-License-Identifier: BSD-2-Clause-Patent
// --hwdec vulkan: both inputs decoded by FFmpeg's Vulkan hwaccel on a VkDevice
// that FFmpeg creates and the library adopts; each decoded frame (an AVVkFrame)
// is imported into the context as VkImages, so no picture reaches host memory.
#pragma once

#include <memory>
#include <string>

#include "options/cli_options.h"
#include "libvmaf/libvmaf.h"

namespace vmaf::cli {

// Whether this build has GPU decoding: FFmpeg's libraries at 6.1 (libavcodec
// 60.31) or later with their Vulkan hardware context, and the Vulkan backend.
bool have_hwdec();

class HwDecode {
public:
    virtual ~HwDecode();

    // Adopt FFmpeg's device as the context's Vulkan state (before any frame).
    // Returns 0, or kExitSetup with *why when the library cannot use it.
    virtual int attach(VmafContext *vmaf, std::string *why) = 0;
    // "vulkan (NAME), decoding on it", for the start-up line.
    virtual std::string description() const = 0;
    // Decode and drop the first n frames of one input (0 reference, 1 distorted).
    // Returns 0, or kExitInput with *err.
    virtual int skip(int side, unsigned n, std::string *err) = 0;
    // Decode the next frame of both inputs and hand them to the context as frame
    // `index` (imported and submitted). Returns 1 when it did; 0 at the end of an
    // input, *ended saying which (0 reference, 1 distorted, 2 both); kExitInput
    // (decoding) or kExitScore (the library) with *err.
    virtual int next_pair(VmafContext *vmaf, unsigned index, int *ended, std::string *err) = 0;
};

// Set up decoding of both inputs on a Vulkan device: --vulkan_device's, else the
// one the library would choose. Returns 0 with *out; 1 with *why when the inputs
// must be decoded on the CPU instead (no device, no video decode queue, a codec
// or profile the device does not decode, a picture format the import does not
// take; *why names the input); kExitInput with *why when an input cannot be read
// at all. The decoders have decoded their first frame when it returns 0.
int hwdec_open(const Options &o, std::unique_ptr<HwDecode> *out, std::string *why);

}  // namespace vmaf::cli
