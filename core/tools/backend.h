// Which engine computes the features: the CPU extractors, or a Vulkan device
// imported into the context before the first picture.
#pragma once

#include <string>

#include "cli_options.h"

namespace vmaf::cli {

// Attach the chosen backend to `vmaf` (before any picture is read). Returns 0, or
// kExitSetup with a message in *err when the backend cannot be used. With
// Backend::Auto, falls back to the CPU when no Vulkan device is usable.
int attach_backend(VmafContext *vmaf, Backend backend, int vulkan_device, std::string *err);

// Release what attach_backend created (after vmaf_close).
void release_backend();

// "cpu" or "vulkan (DEVICE NAME)", for the start-up line.
const std::string &backend_description();

}  // namespace vmaf::cli
