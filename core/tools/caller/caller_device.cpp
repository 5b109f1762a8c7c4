// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "caller/caller_device.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "caller/device_choice.h"

namespace vmaf::tools {

namespace {

// volk's entry points, once per process: 0, or -ENODEV without a loader of
// Vulkan 1.2 or later. The library opens the loader on its own.
int load_loader()
{
    static std::once_flag once;
    static int status = 0;
    std::call_once(once, [] {
        // Loaded already where this process's volk is the library's (a program
        // linking the library's archive): not written a second time.
        if (vkGetInstanceProcAddr) return;
        if (volkInitialize() != VK_SUCCESS || volkGetInstanceVersion() < VK_API_VERSION_1_2) status = -ENODEV;
    });
    return status;
}

int vk_fail(VkResult r, const std::string &what, std::string *err)
{
    *err = what + " failed (VkResult " + std::to_string(int(r)) + ")";
    return r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY ? -ENOMEM : -EIO;
}

#define CALLER_VK(call, what) \
    do { \
        if (VkResult r_ = (call); r_ != VK_SUCCESS) return vk_fail(r_, what, err); \
    } while (0)

}  // namespace

int CallerDevice::create(const Options &options, std::unique_ptr<CallerDevice> *out, std::string *err)
{
    // The library's device list first (which opens the library's loader): it
    // says clearly when there is no device at all.
    unsigned index = 0;
    if (int e = choose_vulkan_device(options.device, &index, err)) return e;
    if (load_loader() != 0) {
        *err = "no Vulkan loader (libvulkan.so.1) of Vulkan 1.2 or later";
        return -ENODEV;
    }
    std::unique_ptr<CallerDevice> d(new CallerDevice);
    d->report_ = options.on_message;
    if (int e = d->create_instance(options, err)) return e;
    if (int e = d->pick_device(index, options.graphics, err)) return e;
    if (int e = d->create_device(options.external_memory_fd, err)) return e;
    *out = std::move(d);
    return 0;
}

CallerDevice::~CallerDevice()
{
    if (device_) {
        fn_.vkDeviceWaitIdle(device_);
        fn_.vkDestroyDevice(device_, nullptr);
    }
    if (messenger_) destroy_messenger_(instance_, messenger_, nullptr);
    if (instance_) destroy_instance_(instance_, nullptr);
}

VKAPI_ATTR VkBool32 VKAPI_CALL CallerDevice::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                        VkDebugUtilsMessageTypeFlagsEXT,
                                                        const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    auto *self = static_cast<CallerDevice *>(user);
    self->messages_++;
    const char *text = data && data->pMessage ? data->pMessage : "?";
    if (self->report_)
        self->report_(text);
    else
        std::fprintf(stderr, "validation: %s\n", text);
    return VK_FALSE;
}

int CallerDevice::create_instance(const Options &o, std::string *err)
{
    VkApplicationInfo app = vk_struct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = o.application_name;
    app.apiVersion = VK_API_VERSION_1_2;
    const char *layer = "VK_LAYER_KHRONOS_validation";
    const char *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    auto mi = vk_struct<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    if (o.performance_messages) mi.messageType |= VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mi.pfnUserCallback = on_message;
    mi.pUserData = this;
    VkInstanceCreateInfo ci = vk_struct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    ci.pApplicationInfo = &app;
    if (o.validation) {
        ci.pNext = &mi;
        ci.enabledLayerCount = 1;
        ci.ppEnabledLayerNames = &layer;
        ci.enabledExtensionCount = 1;
        ci.ppEnabledExtensionNames = &ext;
    }
    if (VkResult r = vkCreateInstance(&ci, nullptr, &instance_); r != VK_SUCCESS) {
        instance_ = VK_NULL_HANDLE;
        if (o.validation && r == VK_ERROR_LAYER_NOT_PRESENT) {
            *err = "VK_LAYER_KHRONOS_validation is not installed";
            return -ENOTSUP;
        }
        return vk_fail(r, "vkCreateInstance", err);
    }
    auto get = [&](const char *n) { return vkGetInstanceProcAddr(instance_, n); };
    destroy_instance_ = reinterpret_cast<PFN_vkDestroyInstance>(get("vkDestroyInstance"));
    format_properties_ =
        reinterpret_cast<PFN_vkGetPhysicalDeviceFormatProperties>(get("vkGetPhysicalDeviceFormatProperties"));
    if (o.validation) {
        auto make = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(get("vkCreateDebugUtilsMessengerEXT"));
        destroy_messenger_ =
            reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(get("vkDestroyDebugUtilsMessengerEXT"));
        CALLER_VK(make(instance_, &mi, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
    }
    return 0;
}

int CallerDevice::pick_device(unsigned index, bool graphics, std::string *err)
{
    auto get = [&](const char *n) { return vkGetInstanceProcAddr(instance_, n); };
    auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(get("vkEnumeratePhysicalDevices"));
    auto props = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(get("vkGetPhysicalDeviceProperties"));
    auto queues = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
        get("vkGetPhysicalDeviceQueueFamilyProperties"));
    auto memory = reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(get("vkGetPhysicalDeviceMemoryProperties"));
    uint32_t n = 0;
    enumerate(instance_, &n, nullptr);
    std::vector<VkPhysicalDevice> pds(n);
    enumerate(instance_, &n, pds.data());
    if (index >= n) {
        *err = "the Vulkan device list changed while starting";
        return -ENODEV;
    }
    physical_ = pds[index];
    VkPhysicalDeviceProperties p;
    props(physical_, &p);
    name_ = p.deviceName;
    memory(physical_, &memory_);
    // A compute queue family: the first with graphics too (a renderer's) or
    // the first without (a dedicated one), else the first with compute.
    queues(physical_, &n, nullptr);
    std::vector<VkQueueFamilyProperties> q(n);
    queues(physical_, &n, q.data());
    int chosen = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (!(q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || !q[i].queueCount) continue;
        const bool preferred = bool(q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) == graphics;
        if (chosen < 0 || preferred) chosen = int(i);
        if (preferred) break;
    }
    if (chosen < 0) {
        *err = name_ + " has no compute queue";
        return -ENODEV;
    }
    family_ = uint32_t(chosen);
    family_graphics_ = q[family_].queueFlags & VK_QUEUE_GRAPHICS_BIT;
    return 0;
}

std::string CallerDevice::queue_name() const
{
    return "queue family " + std::to_string(family_) + (family_graphics_ ? " (graphics and compute)" : " (compute)");
}

int CallerDevice::create_device(bool external_memory_fd, std::string *err)
{
    if (external_memory_fd) {
        auto enumerate = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(
            vkGetInstanceProcAddr(instance_, "vkEnumerateDeviceExtensionProperties"));
        uint32_t n = 0;
        enumerate(physical_, nullptr, &n, nullptr);
        std::vector<VkExtensionProperties> have(n);
        enumerate(physical_, nullptr, &n, have.data());
        for (const VkExtensionProperties &e : have)
            if (!std::strcmp(e.extensionName, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME))
                extensions_.push_back(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
    }
    // What the library's kernels need, and what it uses where the device has it.
    {
        DeviceFeatures have;
        reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(vkGetInstanceProcAddr(instance_, "vkGetPhysicalDeviceFeatures2"))(physical_, &have.core);
        if (int e = vmaf_vulkan_enable_device_features(&features_.core, &have.core)) {
            *err = "vmaf_vulkan_enable_device_features failed";
            return e;
        }
    }
    const float priority = 1.0f;
    auto qi = vk_struct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    qi.queueFamilyIndex = family_;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    auto ci = vk_struct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    ci.pNext = &features_.core;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &qi;
    ci.enabledExtensionCount = uint32_t(extensions_.size());
    ci.ppEnabledExtensionNames = extensions_.data();
    auto create = reinterpret_cast<PFN_vkCreateDevice>(vkGetInstanceProcAddr(instance_, "vkCreateDevice"));
    if (VkResult r = create(physical_, &ci, nullptr, &device_); r != VK_SUCCESS) {
        device_ = VK_NULL_HANDLE;
        return vk_fail(r, "vkCreateDevice on " + name_, err);
    }
    // volk fills device tables through its global vkGetDeviceProcAddr.
    vkGetDeviceProcAddr =
        reinterpret_cast<PFN_vkGetDeviceProcAddr>(vkGetInstanceProcAddr(instance_, "vkGetDeviceProcAddr"));
    volkLoadDeviceTable(&fn_, device_);
    fn_.vkGetDeviceQueue(device_, family_, 0, &queue_);
    return 0;
}

VmafVulkanExternalHandles CallerDevice::handles(unsigned max_outstanding_frames)
{
    VmafVulkanExternalHandles h{};
    h.instance = instance_;
    h.physical_device = physical_;
    h.device = device_;
    h.get_instance_proc_addr = vkGetInstanceProcAddr;
    h.queue_family_index = family_;
    h.queue_index = 0;
    // Called on the library's threads.
    h.lock_queue = [](void *o, uint32_t family, uint32_t index) {
        auto *self = static_cast<CallerDevice *>(o);
        if (family != self->family_ || index != 0) self->bad_queue_args_++;
        self->queue_mutex_.lock();
        self->locks_++;
    };
    h.unlock_queue = [](void *o, uint32_t, uint32_t) {
        auto *self = static_cast<CallerDevice *>(o);
        self->unlocks_++;
        self->queue_mutex_.unlock();
    };
    h.lock_opaque = this;
    h.enabled_features = &features_.core;
    h.enabled_extensions = extensions_.data();
    h.n_enabled_extensions = unsigned(extensions_.size());
    h.api_version = VK_API_VERSION_1_2;
    h.max_outstanding_frames = max_outstanding_frames;
    return h;
}

bool CallerDevice::has_extension(const char *name) const
{
    for (const char *e : extensions_)
        if (!std::strcmp(e, name)) return true;
    return false;
}

VkFormatProperties CallerDevice::format_properties(VkFormat format) const
{
    VkFormatProperties p{};
    format_properties_(physical_, format, &p);
    return p;
}

int CallerDevice::memory_type(uint32_t bits, VkMemoryPropertyFlags want, uint32_t *out) const
{
    for (uint32_t i = 0; i < memory_.memoryTypeCount; i++) {
        if ((bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) {
            *out = i;
            return 0;
        }
    }
    return -ENOMEM;
}

VkResult CallerDevice::submit(const VkSubmitInfo &si, VkFence fence)
{
    std::lock_guard lock(queue_mutex_);
    return fn_.vkQueueSubmit(queue_, 1, &si, fence);
}

#undef CALLER_VK

}  // namespace vmaf::tools
