// SPDX-License-Identifier: BSD-2-Clause-Patent
// Which engine computes the features: the CPU extractors, or a Vulkan device
// imported into the context before the first picture.
#pragma once

#include <string>

#include "cli_options.h"

namespace vmaf::cli {

// Start creating the Vulkan device of `backend` (Vulkan or Auto) on a thread of
// its own, so that the driver's start-up overlaps opening the inputs, making
// the context and loading the models; attach_backend() waits for it. Nothing
// for Backend::Cpu.
void prepare_backend(Backend backend, int vulkan_device);

// Attach the chosen backend to `vmaf` (before any picture is read). Returns 0, or
// kExitSetup with a message in *err when the backend cannot be used. With
// Backend::Auto, falls back to the CPU when no Vulkan device is usable.
int attach_backend(VmafContext *vmaf, Backend backend, int vulkan_device, std::string *err);

// Release what prepare_backend and attach_backend created (after vmaf_close).
void release_backend();

// Whether attach_backend attached a Vulkan device.
bool vulkan_attached();

// Frames the Vulkan backend queues on the GPU (the library's default).
constexpr unsigned kVulkanFramesInFlight = 3;

// Whether the frames go to the Vulkan backend in device pictures (read straight
// into host-visible GPU memory) rather than host pictures the library copies:
// VMAF_CLI_PICTURES=host or device, else the default (docs/cli.md).
bool device_pictures_wanted();

// "cpu" or "vulkan (DEVICE NAME)", for the start-up line.
const std::string &backend_description();

}  // namespace vmaf::cli
