// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/state.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "picture/picture.h"
#include "util/clock.h"
#include "util/env.h"
#include "util/log.h"
#include "vulkan/command.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"
#include "vulkan/pipeline_cache.h"

namespace vmaf::vk {

namespace {

constexpr const char *kValidationLayer = "VK_LAYER_KHRONOS_validation";

// What every kernel may rely on. All of it is core Vulkan 1.2 and present on
// lavapipe (CI) and on NVIDIA, AMD and Intel desktop drivers.
struct Requirements {
    bool ok = true;
    std::string missing;
    void need(bool have, const char *what)
    {
        if (have) return;
        if (!missing.empty()) missing += ", ";
        missing += what;
        ok = false;
    }
};

// The queue family we submit to: compute without graphics when there is one
// (it does not compete with a caller's rendering), else any with compute.
bool pick_queue_family(const InstanceFns &ifn, VkPhysicalDevice pd, uint32_t *family)
{
    uint32_t n = 0;
    ifn.GetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
    std::vector<VkQueueFamilyProperties> q(n);
    ifn.GetPhysicalDeviceQueueFamilyProperties(pd, &n, q.data());
    int any = -1, dedicated = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (!(q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || !q[i].queueCount) continue;
        if (any < 0) any = int(i);
        if (dedicated < 0 && !(q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) dedicated = int(i);
    }
    if (any < 0) return false;
    *family = uint32_t(dedicated >= 0 ? dedicated : any);
    return true;
}

// A family that does transfers and neither compute nor graphics: its queues
// feed the copy engines, which run beside the kernels (host uploads, ADR 0044).
bool pick_transfer_family(const std::vector<VkQueueFamilyProperties> &q, uint32_t *family)
{
    for (uint32_t i = 0; i < uint32_t(q.size()); i++) {
        const VkQueueFlags f = q[i].queueFlags;
        if ((f & VK_QUEUE_TRANSFER_BIT) && !(f & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)) && q[i].queueCount) {
            *family = i;
            return true;
        }
    }
    return false;
}

DeviceInfo describe(const InstanceFns &ifn, VkPhysicalDevice pd)
{
    VkPhysicalDeviceProperties p{};
    ifn.GetPhysicalDeviceProperties(pd, &p);
    DeviceInfo d;
    d.name = p.deviceName;
    d.vendor_id = p.vendorID;
    d.device_id = p.deviceID;
    d.api_version = p.apiVersion;
    d.type = p.deviceType;
    if (p.apiVersion >= VK_API_VERSION_1_1 && ifn.GetPhysicalDeviceProperties2) {
        VkPhysicalDeviceIDProperties id = make<VkPhysicalDeviceIDProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES);
        VkPhysicalDeviceProperties2 p2 = make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
        p2.pNext = &id;
        ifn.GetPhysicalDeviceProperties2(pd, &p2);
        std::memcpy(d.uuid, id.deviceUUID, sizeof(d.uuid));
    }

    Requirements r;
    r.need(p.apiVersion >= VK_API_VERSION_1_2, "Vulkan 1.2");
    uint32_t family;
    r.need(pick_queue_family(ifn, pd, &family), "a compute queue");
    if (p.apiVersion >= VK_API_VERSION_1_2) {
        FeatureChain f;
        ifn.GetPhysicalDeviceFeatures2(pd, &f.core);
        r.need(f.core.features.shaderInt64, "shaderInt64");
        r.need(f.core.features.shaderInt16, "shaderInt16");
        r.need(f.v11.storageBuffer16BitAccess, "storageBuffer16BitAccess");
        r.need(f.v12.storageBuffer8BitAccess, "storageBuffer8BitAccess");
        r.need(f.v12.timelineSemaphore, "timelineSemaphore");
    }
    d.missing = r.missing;
    return d;
}

int enumerate(const InstanceFns &ifn, VkInstance instance, std::vector<VkPhysicalDevice> *out)
{
    uint32_t n = 0;
    VkResult r = ifn.EnumeratePhysicalDevices(instance, &n, nullptr);
    if (r == VK_SUCCESS) {
        out->resize(n);
        r = ifn.EnumeratePhysicalDevices(instance, &n, out->data());
        out->resize(n);
    }
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: vkEnumeratePhysicalDevices: %s\n", result_name(r));
        return errno_from(r);
    }
    return 0;
}

// Best first: discrete, integrated, virtual, CPU, other.
int type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

std::string lower(std::string s)
{
    for (char &c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool has_layer(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, nullptr) != VK_SUCCESS) return false;
    std::vector<VkLayerProperties> layers(n);
    if (vkEnumerateInstanceLayerProperties(&n, layers.data()) != VK_SUCCESS) return false;
    return std::any_of(layers.begin(), layers.end(),
                       [&](const VkLayerProperties &l) { return !std::strcmp(l.layerName, name); });
}

bool has_instance_extension(const char *layer, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> ext(n);
    if (vkEnumerateInstanceExtensionProperties(layer, &n, ext.data()) != VK_SUCCESS) return false;
    return std::any_of(ext.begin(), ext.end(),
                       [&](const VkExtensionProperties &e) { return !std::strcmp(e.extensionName, name); });
}

// A bare instance for listing devices.
int create_listing_instance(VkInstance *out)
{
    VkApplicationInfo app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "libvmaf";
    app.pEngineName = "libvmaf-vk";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ci = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    ci.pApplicationInfo = &app;
    const char *portability = VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
    if (has_instance_extension(nullptr, portability)) {
        ci.enabledExtensionCount = 1;
        ci.ppEnabledExtensionNames = &portability;
        ci.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    return errno_from(vkCreateInstance(&ci, nullptr, out));
}

}  // namespace

void InstanceFns::load(VkInstance instance, PFN_vkGetInstanceProcAddr gipa)
{
    if (!gipa) gipa = vkGetInstanceProcAddr;
    auto get = [instance, gipa](const char *name) { return gipa(instance, name); };
    DestroyInstance = reinterpret_cast<PFN_vkDestroyInstance>(get("vkDestroyInstance"));
    EnumeratePhysicalDevices = reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(get("vkEnumeratePhysicalDevices"));
    GetPhysicalDeviceProperties =
        reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(get("vkGetPhysicalDeviceProperties"));
    GetPhysicalDeviceProperties2 =
        reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(get("vkGetPhysicalDeviceProperties2"));
    GetPhysicalDeviceFeatures2 =
        reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(get("vkGetPhysicalDeviceFeatures2"));
    GetPhysicalDeviceQueueFamilyProperties = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
        get("vkGetPhysicalDeviceQueueFamilyProperties"));
    GetPhysicalDeviceMemoryProperties =
        reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(get("vkGetPhysicalDeviceMemoryProperties"));
    CreateDevice = reinterpret_cast<PFN_vkCreateDevice>(get("vkCreateDevice"));
    GetDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(get("vkGetDeviceProcAddr"));
    CreateDebugUtilsMessengerEXT =
        reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(get("vkCreateDebugUtilsMessengerEXT"));
    DestroyDebugUtilsMessengerEXT =
        reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(get("vkDestroyDebugUtilsMessengerEXT"));
    EnumerateDeviceExtensionProperties =
        reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(get("vkEnumerateDeviceExtensionProperties"));
    GetPhysicalDeviceFormatProperties =
        reinterpret_cast<PFN_vkGetPhysicalDeviceFormatProperties>(get("vkGetPhysicalDeviceFormatProperties"));
    GetPhysicalDeviceExternalBufferProperties = reinterpret_cast<PFN_vkGetPhysicalDeviceExternalBufferProperties>(
        get("vkGetPhysicalDeviceExternalBufferProperties"));
    GetPhysicalDeviceImageFormatProperties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceImageFormatProperties2>(
        get("vkGetPhysicalDeviceImageFormatProperties2"));
}

int State::list_devices(std::vector<DeviceInfo> *out)
{
    out->clear();
    if (int err = load_loader()) return err;
    VkInstance instance;
    if (create_listing_instance(&instance)) return 0;  // a loader without drivers: no devices
    InstanceFns ifn;
    ifn.load(instance);
    std::vector<VkPhysicalDevice> pds;
    int err = enumerate(ifn, instance, &pds);
    for (VkPhysicalDevice pd : pds) out->push_back(describe(ifn, pd));
    ifn.DestroyInstance(instance, nullptr);
    return err;
}

int State::create(const Config &cfg, std::unique_ptr<State> *out)
{
    if (int err = load_loader()) return err;
    if (cfg.frames_in_flight < 1 || cfg.frames_in_flight > kMaxFramesInFlight) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: frames in flight must be 1 to %u, not %u\n",
            kMaxFramesInFlight, cfg.frames_in_flight);
        return -EINVAL;
    }
    std::unique_ptr<State> s(new State);
    const bool validation = cfg.validation || env_switch("VMAF_VULKAN_VALIDATION", false);
    // Where the start-up goes, for finish()'s line: the loader and instance,
    // choosing the device, creating it.
    const SteadyTime t0 = std::chrono::steady_clock::now();
    if (int err = s->create_instance(validation, cfg.validation)) return err;
    s->startup_ms_[0] = ms_since(t0);
    if (int err = s->pick_device(cfg)) return err;
    s->startup_ms_[1] = ms_since(t0);
    if (int err = s->create_device()) return err;
    s->startup_ms_[2] = ms_since(t0);
    s->created_at_ = t0;
    if (int err = s->finish(cfg.frames_in_flight)) return err;
    *out = std::move(s);
    return 0;
}

namespace {

// What a caller says it enabled: the Features2 chain it created the device with.
struct EnabledFeatures {
    bool int64 = false, int16 = false, storage16 = false, storage8 = false, timeline = false, float64 = false;
    bool host_query_reset = false;

    explicit EnabledFeatures(const VkPhysicalDeviceFeatures2 &f)
    {
        int64 = f.features.shaderInt64;
        float64 = f.features.shaderFloat64;
        int16 = f.features.shaderInt16;
        for (auto *b = static_cast<const VkBaseInStructure *>(f.pNext); b; b = b->pNext) {
            switch (b->sType) {
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
                storage16 |= reinterpret_cast<const VkPhysicalDeviceVulkan11Features *>(b)->storageBuffer16BitAccess;
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
                auto *v = reinterpret_cast<const VkPhysicalDeviceVulkan12Features *>(b);
                storage8 |= v->storageBuffer8BitAccess;
                timeline |= v->timelineSemaphore;
                host_query_reset |= v->hostQueryReset;
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
                storage16 |= reinterpret_cast<const VkPhysicalDevice16BitStorageFeatures *>(b)->storageBuffer16BitAccess;
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES:
                storage8 |= reinterpret_cast<const VkPhysicalDevice8BitStorageFeatures *>(b)->storageBuffer8BitAccess;
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES:
                host_query_reset |= reinterpret_cast<const VkPhysicalDeviceHostQueryResetFeatures *>(b)->hostQueryReset;
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
                timeline |= reinterpret_cast<const VkPhysicalDeviceTimelineSemaphoreFeatures *>(b)->timelineSemaphore;
                break;
            default: break;
            }
        }
    }
};

}  // namespace

int State::adopt(const ExternalDevice &ext, std::unique_ptr<State> *out)
{
    if (!ext.instance || !ext.physical || !ext.device) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: an adopted device needs its instance, physical device and device\n");
        return -EINVAL;
    }
    if (!ext.lock.lock != !ext.lock.unlock) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: set both queue lock callbacks or neither\n");
        return -EINVAL;
    }
    if (ext.frames_in_flight < 1 || ext.frames_in_flight > kMaxFramesInFlight) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: frames in flight must be 1 to %u, not %u\n", kMaxFramesInFlight,
            ext.frames_in_flight);
        return -EINVAL;
    }
    if (!ext.get_instance_proc_addr)
        if (int err = load_loader()) return err;
    std::unique_ptr<State> s(new State);
    s->owned_ = false;
    s->instance_ = ext.instance;
    s->physical_ = ext.physical;
    s->device_ = ext.device;
    s->queue_family_ = ext.queue_family;
    s->queue_index_ = ext.queue_index;
    s->queue_lock_ = ext.lock;
    s->extensions_ = ext.extensions;
    s->ifn_.load(ext.instance, ext.get_instance_proc_addr);
    if (!s->ifn_.GetPhysicalDeviceProperties || !s->ifn_.GetDeviceProcAddr) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: the instance's entry points do not resolve\n");
        return -ENODEV;
    }
    if (int err = s->check_adopted(ext)) return err;
    if (int err = s->finish(ext.frames_in_flight)) return err;
    *out = std::move(s);
    return 0;
}

int State::check_adopted(const ExternalDevice &ext)
{
    info_ = describe(ifn_, physical_);
    Requirements r;
    r.need(ext.api_version >= VK_API_VERSION_1_2 && info_.api_version >= VK_API_VERSION_1_2,
           "Vulkan 1.2 (api_version)");
    uint32_t n = 0;
    ifn_.GetPhysicalDeviceQueueFamilyProperties(physical_, &n, nullptr);
    std::vector<VkQueueFamilyProperties> q(n);
    ifn_.GetPhysicalDeviceQueueFamilyProperties(physical_, &n, q.data());
    const bool family_ok = queue_family_ < n && queue_index_ < q[queue_family_].queueCount;
    r.need(family_ok, "the queue family and index given");
    if (family_ok) r.need(q[queue_family_].queueFlags & VK_QUEUE_COMPUTE_BIT, "compute on the queue given");
    if (ext.enabled_features) {
        const EnabledFeatures f(*ext.enabled_features);
        r.need(f.int64, "shaderInt64 enabled");
        r.need(f.int16, "shaderInt16 enabled");
        r.need(f.storage16, "storageBuffer16BitAccess enabled");
        r.need(f.storage8, "storageBuffer8BitAccess enabled");
        r.need(f.timeline, "timelineSemaphore enabled");
        float64_ = f.float64;
        host_query_reset_ = f.host_query_reset;
    } else if (!info_.usable()) {
        r.need(false, info_.missing.c_str());
    }
    if (r.ok) return 0;
    log(VMAF_LOG_LEVEL_ERROR, "Vulkan: the caller's device (%s) lacks %s\n", info_.name.c_str(), r.missing.c_str());
    return -ENOTSUP;
}

int State::create_instance(bool validation, bool validation_required)
{
    std::vector<const char *> layers, extensions;
    if (validation) {
        if (has_layer(kValidationLayer) &&
            (has_instance_extension(nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) ||
             has_instance_extension(kValidationLayer, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))) {
            layers.push_back(kValidationLayer);
            extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
            if (has_instance_extension(kValidationLayer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME))
                extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        } else if (validation_required) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan: validation was asked for but %s (with "
                                      "VK_EXT_debug_utils) is not installed\n", kValidationLayer);
            return -ENOTSUP;
        } else {
            log(VMAF_LOG_LEVEL_WARNING, "Vulkan: VMAF_VULKAN_VALIDATION is set but %s is not "
                                        "installed; running without it\n", kValidationLayer);
            validation = false;
        }
    }

    VkApplicationInfo app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "libvmaf";
    app.pEngineName = "libvmaf-vk";
    app.apiVersion = VK_API_VERSION_1_2;

    VkInstanceCreateInfo ci = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    ci.pApplicationInfo = &app;
    if (has_instance_extension(nullptr, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
        ci.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    ci.enabledLayerCount = uint32_t(layers.size());
    ci.ppEnabledLayerNames = layers.data();
    ci.enabledExtensionCount = uint32_t(extensions.size());
    ci.ppEnabledExtensionNames = extensions.data();

    // Chained into instance creation too, so messages from vkCreateInstance and
    // vkDestroyInstance are counted.
    VkDebugUtilsMessengerCreateInfoEXT mi = make<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mi.pfnUserCallback = on_message;
    mi.pUserData = this;
    if (validation) ci.pNext = &mi;
    // With synchronization validation: a missing barrier between two of our own
    // dispatches (on overlapping bound ranges) is an error like any other.
    const VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT vf = make<VkValidationFeaturesEXT>(VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT);
    vf.enabledValidationFeatureCount = 1;
    vf.pEnabledValidationFeatures = &sync;
    if (validation && std::find(extensions.begin(), extensions.end(),
                                std::string_view(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) != extensions.end())
        mi.pNext = &vf;

    const VkResult r = vkCreateInstance(&ci, nullptr, &instance_);
    if (r != VK_SUCCESS) {
        instance_ = VK_NULL_HANDLE;
        if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan: no driver found (vkCreateInstance: %s)\n", result_name(r));
        else
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan: vkCreateInstance: %s\n", result_name(r));
        return errno_from(r);
    }
    ifn_.load(instance_);
    if (validation) {
        mi.pNext = nullptr;  // the validation features belong to instance creation only
        const VkResult m = ifn_.CreateDebugUtilsMessengerEXT(instance_, &mi, nullptr, &messenger_);
        if (m != VK_SUCCESS) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan: vkCreateDebugUtilsMessengerEXT: %s\n", result_name(m));
            return errno_from(m);
        }
    }
    return 0;
}

int State::pick_device(const Config &cfg)
{
    std::vector<VkPhysicalDevice> pds;
    if (int err = enumerate(ifn_, instance_, &pds)) return err;
    if (pds.empty()) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: no physical device\n");
        return -ENODEV;
    }
    std::vector<DeviceInfo> infos;
    for (VkPhysicalDevice pd : pds) infos.push_back(describe(ifn_, pd));

    std::string name = cfg.device_name;
    int index = cfg.device_index;
    const char *env = env_get("VMAF_VULKAN_DEVICE");
    const bool from_env = name.empty() && index < 0 && env && *env;
    if (from_env) {
        // Digits alone are an index (never wrapped: one past any device there
        // can be is refused below); anything else is part of a device name.
        const std::string_view text(env);
        if (text.find_first_not_of("0123456789") == std::string_view::npos) {
            uint64_t v = 0;
            if (!parse_decimal(text, uint64_t(INT32_MAX), &v) || v >= infos.size()) {
                log_env(VMAF_LOG_LEVEL_ERROR, "Vulkan: device %s asked for (VMAF_VULKAN_DEVICE); there are %zu\n",
                        env, infos.size());
                return -ENODEV;
            }
            index = int(v);
        } else {
            name = env;
        }
    }

    int chosen = -1;
    if (!name.empty()) {
        // The first usable match; else the first match, to say what it lacks.
        for (size_t i = 0; i < infos.size(); i++) {
            if (lower(infos[i].name).find(lower(name)) == std::string::npos) continue;
            if (chosen < 0 || (!infos[size_t(chosen)].usable() && infos[i].usable())) chosen = int(i);
        }
        if (chosen < 0) {
            log_env(VMAF_LOG_LEVEL_ERROR, "Vulkan: no device name contains \"%s\"%s\n", name.c_str(),
                    from_env ? " (VMAF_VULKAN_DEVICE)" : "");
            for (size_t i = 0; i < infos.size(); i++)
                log(VMAF_LOG_LEVEL_ERROR, "Vulkan:   device %zu: %s\n", i, infos[i].name.c_str());
            return -ENODEV;
        }
    } else if (index >= 0) {
        if (size_t(index) >= infos.size()) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan: device %d asked for%s; there are %zu\n", index,
                from_env ? " (VMAF_VULKAN_DEVICE)" : "", infos.size());
            return -ENODEV;
        }
        chosen = index;
    } else {
        for (size_t i = 0; i < infos.size(); i++) {
            if (!infos[i].usable()) continue;
            if (chosen < 0 || type_rank(infos[i].type) < type_rank(infos[size_t(chosen)].type))
                chosen = int(i);
        }
        if (chosen < 0) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan: no device has what the kernels need\n");
            for (size_t i = 0; i < infos.size(); i++)
                log(VMAF_LOG_LEVEL_ERROR, "Vulkan:   device %zu: %s lacks %s\n", i, infos[i].name.c_str(),
                    infos[i].missing.c_str());
            return -ENODEV;
        }
    }
    if (!infos[size_t(chosen)].usable()) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: device %d (%s) lacks %s\n", chosen,
            infos[size_t(chosen)].name.c_str(), infos[size_t(chosen)].missing.c_str());
        return -ENOTSUP;
    }
    physical_ = pds[size_t(chosen)];
    info_ = infos[size_t(chosen)];
    return 0;
}

int State::create_device()
{
    pick_queue_family(ifn_, physical_, &queue_family_);
    queue_index_ = 0;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qi[2];
    qi[0] = make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    qi[0].queueFamilyIndex = queue_family_;
    qi[0].queueCount = 1;
    qi[0].pQueuePriorities = &priority;
    // The transfer lane (transfer_lane()): a queue of a transfer-only family
    // where there is one; VMAF_VULKAN_TRANSFER_QUEUE=0 goes without, =compute
    // runs the lane on the compute queue itself (tests: the same submissions
    // and waits on a device that has one family).
    uint32_t n_queues = 1;
    {
        uint32_t n = 0;
        ifn_.GetPhysicalDeviceQueueFamilyProperties(physical_, &n, nullptr);
        std::vector<VkQueueFamilyProperties> q(n);
        ifn_.GetPhysicalDeviceQueueFamilyProperties(physical_, &n, q.data());
        // "1" and "auto" (and unset) are the default.
        const int lane = env_choice("VMAF_VULKAN_TRANSFER_QUEUE", {"compute", "0", "1", "auto"});
        if (lane == -2)
            env_unknown("VMAF_VULKAN_TRANSFER_QUEUE", {"compute", "0", "1", "auto"}, "taken as auto");
        if (lane == 0) {
            lane_ = Lane::Compute;
            xfer_family_ = queue_family_;
        } else if (lane != 1 && pick_transfer_family(q, &xfer_family_)) {
            lane_ = Lane::Transfer;
            qi[1] = qi[0];
            qi[1].queueFamilyIndex = xfer_family_;
            n_queues = 2;
        }
    }

    // Exactly the features describe() requires, and shaderFloat64 where the
    // device has it (the float features' double sums; optional).
    FeatureChain f;
    f.require();
    {
        FeatureChain have;
        ifn_.GetPhysicalDeviceFeatures2(physical_, &have.core);
        f.want_optional(have);
        float64_ = f.core.features.shaderFloat64;
        host_query_reset_ = f.v12.hostQueryReset;
    }

    // The import extensions the device has (vulkan/import.h says what needs them).
    std::vector<const char *> enable;
    bool exec_available = false;  // VK_KHR_pipeline_executable_properties
    {
        uint32_t n = 0;
        ifn_.EnumerateDeviceExtensionProperties(physical_, nullptr, &n, nullptr);
        std::vector<VkExtensionProperties> have(n);
        ifn_.EnumerateDeviceExtensionProperties(physical_, nullptr, &n, have.data());
        have.resize(n);
        const auto has = [&have](const char *name) {
            return std::any_of(have.begin(), have.end(),
                               [name](const VkExtensionProperties &e) { return !std::strcmp(e.extensionName, name); });
        };
        for (const char *want : kOptionalExtensions)
            if (has(want)) enable.push_back(want);
        exec_available = has(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    }

    // Kernel statistics for whoever tunes the kernels (docs/environment.md).
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exec =
        make<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
    if (env_switch("VMAF_VULKAN_KERNEL_STATS", false)) {
        if (exec_available) {
            enable.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
            exec.pipelineExecutableInfo = VK_TRUE;
            exec.pNext = f.core.pNext;
            f.core.pNext = &exec;
            kernel_stats_ = true;
        } else {
            log_env(VMAF_LOG_LEVEL_WARNING, "Vulkan: VMAF_VULKAN_KERNEL_STATS: %s lacks %s; no statistics\n",
                info_.name.c_str(), VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        }
    }

    VkDeviceCreateInfo ci = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    ci.pNext = &f.core;
    ci.queueCreateInfoCount = n_queues;
    ci.pQueueCreateInfos = qi;
    ci.enabledExtensionCount = uint32_t(enable.size());
    ci.ppEnabledExtensionNames = enable.data();
    const VkResult r = ifn_.CreateDevice(physical_, &ci, nullptr, &device_);
    if (r != VK_SUCCESS) {
        device_ = VK_NULL_HANDLE;
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: vkCreateDevice (%s): %s\n", info_.name.c_str(), result_name(r));
        return errno_from(r);
    }
    extensions_.assign(enable.begin(), enable.end());
    return 0;
}

int State::finish(unsigned frames_in_flight)
{
    {
        // volk's table loader goes through its global vkGetDeviceProcAddr. An
        // adopted device may come from another loader (the caller's
        // get_instance_proc_addr), so the global points at this instance's entry
        // point while the table loads.
        static std::mutex mutex;
        std::lock_guard lock(mutex);
        const PFN_vkGetDeviceProcAddr saved = vkGetDeviceProcAddr;
        vkGetDeviceProcAddr = ifn_.GetDeviceProcAddr;
        volkLoadDeviceTable(&fn_, device_);
        vkGetDeviceProcAddr = saved;
    }
    if (!fn_.vkGetDeviceQueue || !fn_.vkQueueSubmit) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: the device's entry points do not resolve\n");
        return -ENODEV;
    }
    {
        uint32_t n = 0;
        ifn_.GetPhysicalDeviceQueueFamilyProperties(physical_, &n, nullptr);
        std::vector<VkQueueFamilyProperties> q(n);
        ifn_.GetPhysicalDeviceQueueFamilyProperties(physical_, &n, q.data());
        timestamp_bits_ = queue_family_ < n ? q[queue_family_].timestampValidBits : 0;
        // The caller's queue may be a renderer's; on some GPUs the kernels run
        // markedly faster on a compute-only family (ADR 0040), the one our own
        // device would use.
        uint32_t ours = 0;
        if (!owned_ && queue_family_ < n && q[queue_family_].queueFlags & VK_QUEUE_GRAPHICS_BIT &&
            pick_queue_family(ifn_, physical_, &ours) && !(q[ours].queueFlags & VK_QUEUE_GRAPHICS_BIT))
            log(VMAF_LOG_LEVEL_INFO, "Vulkan: the caller's queue family %u also does graphics; the device's "
                                     "compute-only family %u may run the kernels faster\n", queue_family_, ours);
        if (!env_switch("VMAF_VULKAN_TIMESTAMPS", true)) timestamp_bits_ = 0;
    }
    fn_.vkGetDeviceQueue(device_, queue_family_, queue_index_, &queue_);
    if (lane_ == Lane::Transfer) fn_.vkGetDeviceQueue(device_, xfer_family_, 0, &xfer_queue_);
    ifn_.GetPhysicalDeviceProperties(physical_, &props_);
    ifn_.GetPhysicalDeviceMemoryProperties(physical_, &mem_props_);
    if (has_extension(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME) && ifn_.GetPhysicalDeviceProperties2 &&
        fn_.vkGetMemoryHostPointerPropertiesEXT) {
        VkPhysicalDeviceExternalMemoryHostPropertiesEXT hp = make<VkPhysicalDeviceExternalMemoryHostPropertiesEXT>(
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT);
        VkPhysicalDeviceProperties2 p2 = make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
        p2.pNext = &hp;
        ifn_.GetPhysicalDeviceProperties2(physical_, &p2);
        host_import_alignment_ = std::max<VkDeviceSize>(hp.minImportedHostPointerAlignment, 1);
        // Host pictures allocated from now on start and end where this device
        // can import them.
        require_host_alignment(size_t(host_import_alignment_));
    }
    frames_in_flight_ = frames_in_flight;
    allocator_ = std::make_unique<Allocator>(*this);
    pipelines_ = std::make_unique<PipelineShelf>(*this);
    tables_ = std::make_unique<TableShelf>(*this);
    pipeline_cache_ = PipelineCache::open(*this);
    char lane[64] = "";
    if (lane_ == Lane::Transfer) std::snprintf(lane, sizeof(lane), ", host uploads on family %u", xfer_family_);
    if (lane_ == Lane::Compute) std::snprintf(lane, sizeof(lane), ", host uploads in a submission of their own");
    char ready[128] = "";
    if (created_at_) {
        const double total = ms_since(*created_at_);
        std::snprintf(ready, sizeof(ready), "; ready in %.1f ms (instance %.1f, choice %.1f, device %.1f, the rest %.1f)",
                      total, startup_ms_[0], startup_ms_[1] - startup_ms_[0], startup_ms_[2] - startup_ms_[1],
                      total - startup_ms_[2]);
    }
    log(VMAF_LOG_LEVEL_INFO, "Vulkan: using %s (Vulkan %u.%u.%u), queue family %u%s%s%s%s\n", info_.name.c_str(),
        VK_API_VERSION_MAJOR(props_.apiVersion), VK_API_VERSION_MINOR(props_.apiVersion),
        VK_API_VERSION_PATCH(props_.apiVersion), queue_family_, lane, owned_ ? "" : " (the caller's device)",
        validation_enabled() ? ", validation on" : "", ready);
    return 0;
}

State::~State()
{
    pipelines_.reset();  // no context is left to use them
    tables_.reset();     // nor these
    pipeline_cache_.reset();  // written to its file first, when it changed
    allocator_.reset();  // every buffer is gone by now; this frees the blocks
    if (owned_) {
        if (device_) {
            fn_.vkDeviceWaitIdle(device_);
            fn_.vkDestroyDevice(device_, nullptr);
        }
        if (messenger_) ifn_.DestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
        if (instance_) ifn_.DestroyInstance(instance_, nullptr);
    }
}

VkPipelineCache State::pipeline_cache() const
{
    return pipeline_cache_ ? pipeline_cache_->handle() : VK_NULL_HANDLE;
}

bool State::has_extension(std::string_view name) const
{
    return std::find(extensions_.begin(), extensions_.end(), name) != extensions_.end();
}

void State::inject_fault(Fault what, unsigned nth, VkResult result)
{
    InjectedFault &f = faults_[int(what)];
    f.result = result;
    f.countdown.store(nth);
}

VkResult State::injected(Fault what)
{
    InjectedFault &f = faults_[int(what)];
    f.calls.fetch_add(1);
    unsigned n = f.countdown.load();
    while (n) {
        if (f.countdown.compare_exchange_weak(n, n - 1)) return n == 1 ? f.result : VK_SUCCESS;
    }
    return VK_SUCCESS;
}

int State::once(const std::string &key, const std::function<int()> &work)
{
    std::lock_guard lock(once_mutex_);
    if (auto it = once_.find(key); it != once_.end()) return it->second;
    const int value = work();
    if (value >= 0) once_.emplace(key, value);
    return value;
}

VkResult State::submit(Lane lane, const VkSubmitInfo &info, VkFence fence)
{
    // Not counted in submissions(): those are the frames' own.
    if (const VkResult r = injected(Fault::Submit); r != VK_SUCCESS) return r;
    if (lane != Lane::Transfer) return submit_compute(info, fence);
    std::lock_guard lock(xfer_mutex_);
    return fn_.vkQueueSubmit(xfer_queue_, 1, &info, fence);
}

VkResult State::submit(const VkSubmitInfo &info, VkFence fence)
{
    if (const VkResult r = injected(Fault::Submit); r != VK_SUCCESS) return r;
    submissions_.fetch_add(1);
    return submit_compute(info, fence);
}

VkResult State::submit_compute(const VkSubmitInfo &info, VkFence fence)
{
    if (queue_lock_.lock) {
        queue_lock_.lock(queue_lock_.opaque, queue_family_, queue_index_);
        const VkResult r = fn_.vkQueueSubmit(queue_, 1, &info, fence);
        queue_lock_.unlock(queue_lock_.opaque, queue_family_, queue_index_);
        return r;
    }
    std::lock_guard lock(queue_mutex_);
    return fn_.vkQueueSubmit(queue_, 1, &info, fence);
}

VKAPI_ATTR VkBool32 VKAPI_CALL State::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    // Validation was asked for to find mistakes: its warnings are shown as errors.
    auto *s = static_cast<State *>(user);
    const bool error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    (error ? s->errors_ : s->warnings_).fetch_add(1);
    log(VMAF_LOG_LEVEL_ERROR, "Vulkan validation %s: %s\n", error ? "error" : "warning",
        data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
}

}  // namespace vmaf::vk
