// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/vk.h"

#include <cerrno>
#include <mutex>

#include "util/log.h"

namespace vmaf::vk {

int errno_from(VkResult r)
{
    switch (r) {
    case VK_SUCCESS: return 0;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_TOO_MANY_OBJECTS:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_OUT_OF_POOL_MEMORY: return -ENOMEM;
    case VK_ERROR_INITIALIZATION_FAILED:
    case VK_ERROR_INCOMPATIBLE_DRIVER: return -ENODEV;
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return -ENOTSUP;
    case VK_TIMEOUT: return -ETIMEDOUT;
    default: return -EIO;
    }
}

int check_result(VkResult r, const char *what, const char *name)
{
    if (r == VK_SUCCESS) return 0;
    if (name)
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: %s (%s): %s\n", what, name, result_name(r));
    else
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: %s: %s\n", what, result_name(r));
    return errno_from(r);
}

const char *result_name(VkResult r)
{
    struct Name { VkResult r; const char *s; };
    static constexpr Name kNames[] = {
        {VK_SUCCESS, "VK_SUCCESS"},
        {VK_NOT_READY, "VK_NOT_READY"},
        {VK_TIMEOUT, "VK_TIMEOUT"},
        {VK_INCOMPLETE, "VK_INCOMPLETE"},
        {VK_ERROR_OUT_OF_HOST_MEMORY, "VK_ERROR_OUT_OF_HOST_MEMORY"},
        {VK_ERROR_OUT_OF_DEVICE_MEMORY, "VK_ERROR_OUT_OF_DEVICE_MEMORY"},
        {VK_ERROR_INITIALIZATION_FAILED, "VK_ERROR_INITIALIZATION_FAILED"},
        {VK_ERROR_DEVICE_LOST, "VK_ERROR_DEVICE_LOST"},
        {VK_ERROR_MEMORY_MAP_FAILED, "VK_ERROR_MEMORY_MAP_FAILED"},
        {VK_ERROR_LAYER_NOT_PRESENT, "VK_ERROR_LAYER_NOT_PRESENT"},
        {VK_ERROR_EXTENSION_NOT_PRESENT, "VK_ERROR_EXTENSION_NOT_PRESENT"},
        {VK_ERROR_FEATURE_NOT_PRESENT, "VK_ERROR_FEATURE_NOT_PRESENT"},
        {VK_ERROR_INCOMPATIBLE_DRIVER, "VK_ERROR_INCOMPATIBLE_DRIVER"},
        {VK_ERROR_TOO_MANY_OBJECTS, "VK_ERROR_TOO_MANY_OBJECTS"},
        {VK_ERROR_FORMAT_NOT_SUPPORTED, "VK_ERROR_FORMAT_NOT_SUPPORTED"},
        {VK_ERROR_FRAGMENTED_POOL, "VK_ERROR_FRAGMENTED_POOL"},
        {VK_ERROR_OUT_OF_POOL_MEMORY, "VK_ERROR_OUT_OF_POOL_MEMORY"},
        {VK_ERROR_UNKNOWN, "VK_ERROR_UNKNOWN"},
    };
    for (const Name &n : kNames)
        if (n.r == r) return n.s;
    return "VkResult(other)";
}

int load_loader()
{
    // volkInitialize() sets process-wide entry points: do it once.
    static std::once_flag once;
    static int status = 0;
    std::call_once(once, [] {
        if (volkInitialize() != VK_SUCCESS) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan: no loader found (libvulkan.so.1); the GPU backend is "
                                      "unavailable\n");
            status = -ENODEV;
            return;
        }
        const uint32_t v = volkGetInstanceVersion();
        if (v < VK_API_VERSION_1_2) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan: the loader supports Vulkan %u.%u; 1.2 is needed\n",
                VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v));
            status = -ENODEV;
        }
    });
    return status;
}

}  // namespace vmaf::vk
