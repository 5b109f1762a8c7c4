// SPDX-License-Identifier: BSD-2-Clause-Patent
// The one way the library includes Vulkan: through volk, with no prototypes, so
// nothing links libvulkan. The loader is opened at run time (loader.cpp); every
// device-level call goes through the State's function table.
#pragma once

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <volk.h>

namespace vmaf::vk {

// A zeroed Vulkan struct with its sType set.
template <typename T>
T make(VkStructureType type)
{
    T t{};
    t.sType = type;
    return t;
}

// A negative errno for a failed Vulkan call: -ENOMEM for out-of-memory,
// -ENODEV for a missing driver, -ENOTSUP for a missing layer, extension or
// feature, -EIO for a lost device and anything else.
int errno_from(VkResult r);

// "VK_ERROR_DEVICE_LOST" and so on, for log lines.
const char *result_name(VkResult r);

// 0 for VK_SUCCESS; else a log line ("Vulkan: what (name): result") and
// errno_from(r).
int check_result(VkResult r, const char *what, const char *name = nullptr);

// Open the Vulkan loader once per process (libvulkan.so.1). Returns 0, or
// -ENODEV with a log line when there is none or it is older than Vulkan 1.2.
int load_loader();

}  // namespace vmaf::vk
