// SPDX-License-Identifier: BSD-2-Clause-Patent
// The context and the engine that computes its features: the CPU extractors, or
// a Vulkan device. The choice is the library's one chooser (vmaf_init_backend,
// ADR 0080) when this tool makes it (--backend, or --hwdec, whose decoder brings
// its own device), else vmaf_init's (VMAF_BACKEND, as for any libvmaf client).
#pragma once

#include <string>

#include "options/cli_options.h"
#include "libvmaf/libvmaf.h"

namespace vmaf::cli {

// Start creating the context. `chosen`: on `backend` (device `vulkan_device`,
// or any when negative) through vmaf_init_backend, for Vulkan or Auto on a
// thread of its own, so that the driver's start-up overlaps opening the inputs
// and loading the models; otherwise take_context() calls vmaf_init.
void prepare_context(const VmafConfiguration &cfg, bool chosen, Backend backend, int vulkan_device);

// The context prepare_context() started. Returns 0, or kExitSetup when it could
// not be made (the library's log line says why; *err, when not empty, adds to it).
int take_context(VmafContext **vmaf, std::string *err);

// Wait for a context prepare_context() started and take_context() never took,
// and close it (a run that failed before).
void release_backend();

// Whether the context is on a Vulkan device the chooser attached.
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
