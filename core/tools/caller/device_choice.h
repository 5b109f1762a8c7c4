// SPDX-License-Identifier: BSD-2-Clause-Patent
// The Vulkan device the library would choose, as a program sees the devices
// (vmaf_vulkan_list_devices() order, which is vkEnumeratePhysicalDevices' and
// FFmpeg's): what the program was told (an index, or a case-insensitive part
// of a name), else VMAF_VULKAN_DEVICE read the same way, else the first usable
// device of the best type (discrete first). Of several devices a name matches,
// the first usable one, else the first one. The rule is the library's own
// (vk::State::pick_device); the tools that create a device of their own for the
// library (vmaf --hwdec, the caller-owned device of vmaf_bench and the import
// tests) pick through this one function so that they agree with it.
#pragma once

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "libvmaf/libvmaf_vulkan.h"

namespace vmaf::tools {

inline int device_type_rank(VmafVulkanDeviceType t)
{
    switch (t) {
    case VMAF_VULKAN_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VMAF_VULKAN_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VMAF_VULKAN_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VMAF_VULKAN_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

// 0 and *index, or -ENODEV and *why. `want` empty: VMAF_VULKAN_DEVICE, else automatic.
inline int choose_vulkan_device(std::string want, unsigned *index, std::string *why)
{
    VmafVulkanDeviceInfo info[32];
    unsigned n = 0;
    if (vmaf_vulkan_list_devices(info, 32, &n) != 0 || n == 0) {
        *why = "no Vulkan device (no loader or no driver)";
        return -ENODEV;
    }
    n = std::min(n, 32u);
    if (want.empty())
        if (const char *env = std::getenv("VMAF_VULKAN_DEVICE")) want = env;
    if (!want.empty()) {
        char *end = nullptr;
        const long v = std::strtol(want.c_str(), &end, 10);
        if (*end == '\0' && v >= 0) {
            if (static_cast<unsigned long>(v) >= n) {
                *why = "Vulkan device " + want + " asked for; there are " + std::to_string(n);
                return -ENODEV;
            }
            *index = unsigned(v);
            return 0;
        }
        auto lower = [](std::string s) {
            for (char &c : s) c = char(std::tolower(uint8_t(c)));
            return s;
        };
        const std::string needle = lower(want);
        int chosen = -1;
        for (unsigned k = 0; k < n; k++) {
            if (lower(info[k].name).find(needle) == std::string::npos) continue;
            if (chosen < 0 || (!info[chosen].usable && info[k].usable)) chosen = int(k);
        }
        if (chosen < 0) {
            *why = "no Vulkan device name contains \"" + want + "\"";
            return -ENODEV;
        }
        *index = unsigned(chosen);
        return 0;
    }
    int best = -1;
    for (unsigned k = 0; k < n; k++)
        if (info[k].usable && (best < 0 || device_type_rank(info[k].type) < device_type_rank(info[best].type)))
            best = int(k);
    if (best < 0) {
        *why = "no usable Vulkan device (none has what the kernels need)";
        return -ENODEV;
    }
    *index = unsigned(best);
    return 0;
}

}  // namespace vmaf::tools
