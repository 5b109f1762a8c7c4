// SPDX-License-Identifier: BSD-2-Clause-Patent
// A caller's own Vulkan device, as a decoder or renderer holds one: its instance
// (the Khronos validation layer optional, every message counted), physical
// device, device with what the library's kernels need, one queue and the lock
// it shares with the library, which adopts all of it through
// vmaf_vulkan_state_init_external(). Used by vmaf_bench's vulkan-import mode and
// by the import tests, which build their images and buffers on it; not part of
// the library. Vulkan comes through volk (no prototypes: the loader is opened at
// run time), and the features the library needs through
// vmaf_vulkan_enable_device_features(): nothing of the library's internals.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <volk.h>

#include "libvmaf/libvmaf_vulkan.h"

namespace vmaf::tools {

// A zeroed Vulkan struct with its sType set.
template <typename T>
T vk_struct(VkStructureType type)
{
    T t{};
    t.sType = type;
    return t;
}

// A device's features as vkCreateDevice takes them: core -> 1.1 -> 1.2.
struct DeviceFeatures {
    VkPhysicalDeviceFeatures2 core = vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    VkPhysicalDeviceVulkan11Features v11 =
        vk_struct<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
    VkPhysicalDeviceVulkan12Features v12 =
        vk_struct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);

    DeviceFeatures()
    {
        core.pNext = &v11;
        v11.pNext = &v12;
    }
    DeviceFeatures(const DeviceFeatures &) = delete;
    DeviceFeatures &operator=(const DeviceFeatures &) = delete;
};

class CallerDevice {
public:
    struct Options {
        // An index in vmaf_vulkan_list_devices() order, a name substring, or
        // empty for the library's automatic choice (VMAF_VULKAN_DEVICE, else the
        // best usable type).
        std::string device;
        // Load the Khronos validation layer and count its messages.
        bool validation = false;
        // With validation: the performance warnings too.
        bool performance_messages = false;
        // The queue family a renderer uses (graphics and compute); otherwise a
        // compute-only family where the device has one, as FFmpeg's
        // libvmaf_vulkan filter picks among FFmpeg's queues.
        bool graphics = true;
        // Enable VK_KHR_external_memory_fd where the device has it.
        bool external_memory_fd = false;
        const char *application_name = "vmaf";
        // Each validation message, after it is counted; by default written to
        // stderr after "validation: ". Called on any thread.
        std::function<void(const char *)> on_message;
    };

    // 0, or a negative errno with `*err` saying what failed.
    static int create(const Options &options, std::unique_ptr<CallerDevice> *out, std::string *err);
    ~CallerDevice();
    CallerDevice(const CallerDevice &) = delete;
    CallerDevice &operator=(const CallerDevice &) = delete;

    // What the library adopts: this device, its queue, the queue lock (each call
    // counted in locks() and unlocks()), the enabled features and extensions.
    VmafVulkanExternalHandles handles(unsigned max_outstanding_frames);

    const std::string &name() const { return name_; }
    // The queue family it shares with the library, as the output names it:
    // "queue family 2 (compute)" or "... (graphics and compute)".
    std::string queue_name() const;
    bool has_extension(const char *name) const;

    unsigned validation_messages() const { return messages_.load(); }
    int locks() const { return locks_.load(); }
    int unlocks() const { return unlocks_.load(); }
    // Lock calls that named another queue than the one shared.
    int bad_queue_args() const { return bad_queue_args_.load(); }

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physical() const { return physical_; }
    VkDevice device() const { return device_; }
    uint32_t family() const { return family_; }
    const VolkDeviceTable &fn() const { return fn_; }
    VkFormatProperties format_properties(VkFormat format) const;
    // A memory type among `bits` with every flag of `want`: 0, or -ENOMEM.
    int memory_type(uint32_t bits, VkMemoryPropertyFlags want, uint32_t *out) const;
    // vkQueueSubmit under the queue lock the library also takes.
    VkResult submit(const VkSubmitInfo &si, VkFence fence = VK_NULL_HANDLE);

private:
    CallerDevice() = default;
    int create_instance(const Options &o, std::string *err);
    int pick_device(unsigned index, bool graphics, std::string *err);
    int create_device(bool external_memory_fd, std::string *err);
    static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *, void *);

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t family_ = 0;
    bool family_graphics_ = false;
    std::string name_;
    std::vector<const char *> extensions_;
    VolkDeviceTable fn_{};
    VkPhysicalDeviceMemoryProperties memory_{};
    PFN_vkDestroyInstance destroy_instance_ = nullptr;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger_ = nullptr;
    PFN_vkGetPhysicalDeviceFormatProperties format_properties_ = nullptr;
    DeviceFeatures features_;
    std::function<void(const char *)> report_;
    std::mutex queue_mutex_;
    std::atomic<unsigned> messages_{0};
    std::atomic<int> locks_{0}, unlocks_{0}, bad_queue_args_{0};
};

}  // namespace vmaf::tools
