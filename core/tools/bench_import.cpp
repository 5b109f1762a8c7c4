#include "bench_import.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bench_frames.h"

namespace vmaf::bench {

namespace {

int vk_fail(VkResult r, const char *what, std::string *err)
{
    *err = std::string(what) + " failed (VkResult " + std::to_string(int(r)) + ")";
    return r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY ? -ENOMEM : -EIO;
}

#define BENCH_VK(call, what) \
    do { \
        if (VkResult r_ = (call); r_ != VK_SUCCESS) return vk_fail(r_, what, err); \
    } while (0)

// The order vmaf_vulkan_state_init() prefers device types in.
int type_rank(VmafVulkanDeviceType t)
{
    switch (t) {
    case VMAF_VULKAN_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VMAF_VULKAN_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VMAF_VULKAN_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VMAF_VULKAN_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

bool contains_nocase(const char *hay, const std::string &needle)
{
    const std::string h(hay);
    auto it = std::search(h.begin(), h.end(), needle.begin(), needle.end(),
                          [](char a, char b) { return std::tolower(uint8_t(a)) == std::tolower(uint8_t(b)); });
    return it != h.end();
}

// Which device in list order `choice` names (index or name), or the library's
// automatic choice (VMAF_VULKAN_DEVICE, else the best usable type).
int choose_device(const std::string &choice, unsigned *index, std::string *err)
{
    VmafVulkanDeviceInfo info[16];
    unsigned n = 0;
    if (vmaf_vulkan_list_devices(info, 16, &n) != 0 || n == 0) {
        *err = "no Vulkan device (no loader or no driver)";
        return -ENODEV;
    }
    n = std::min(n, 16u);
    std::string want = choice;
    if (want.empty())
        if (const char *env = std::getenv("VMAF_VULKAN_DEVICE")) want = env;
    if (!want.empty()) {
        char *end = nullptr;
        const long i = std::strtol(want.c_str(), &end, 10);
        for (unsigned k = 0; k < n; k++) {
            if ((*end == '\0' && long(k) == i) || (*end != '\0' && contains_nocase(info[k].name, want))) {
                *index = k;
                return 0;
            }
        }
        *err = "no Vulkan device '" + want + "'";
        return -ENODEV;
    }
    int best = -1;
    for (unsigned k = 0; k < n; k++)
        if (info[k].usable && (best < 0 || type_rank(info[k].type) < type_rank(info[best].type))) best = int(k);
    if (best < 0) {
        *err = "no usable Vulkan device (none has what the kernels need)";
        return -ENODEV;
    }
    *index = unsigned(best);
    return 0;
}

}  // namespace

int CallerDevice::create(const std::string &device, bool validation, bool graphics,
                         std::unique_ptr<CallerDevice> *out, std::string *err)
{
    if (vk::load_loader() != 0) {
        *err = "no Vulkan loader (libvulkan.so.1)";
        return -ENODEV;
    }
    unsigned index = 0;  // first: says clearly when there is no device at all
    if (int e = choose_device(device, &index, err)) return e;
    std::unique_ptr<CallerDevice> d(new CallerDevice);
    if (int e = d->create_instance(validation, err)) return e;
    if (int e = d->pick_device(index, graphics, err)) return e;
    if (int e = d->create_device(err)) return e;
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
    static_cast<CallerDevice *>(user)->messages_++;
    std::fprintf(stderr, "vmaf_bench: validation: %s\n", data && data->pMessage ? data->pMessage : "?");
    return VK_FALSE;
}

int CallerDevice::create_instance(bool validation, std::string *err)
{
    VkApplicationInfo app = vk::make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "vmaf_bench";
    app.apiVersion = VK_API_VERSION_1_2;
    const char *layer = "VK_LAYER_KHRONOS_validation";
    const char *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    auto mi = vk::make<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    mi.pfnUserCallback = on_message;
    mi.pUserData = this;
    VkInstanceCreateInfo ci = vk::make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    ci.pApplicationInfo = &app;
    if (validation) {
        ci.pNext = &mi;
        ci.enabledLayerCount = 1;
        ci.ppEnabledLayerNames = &layer;
        ci.enabledExtensionCount = 1;
        ci.ppEnabledExtensionNames = &ext;
    }
    if (VkResult r = vkCreateInstance(&ci, nullptr, &instance_); r != VK_SUCCESS) {
        if (validation && r == VK_ERROR_LAYER_NOT_PRESENT) {
            *err = "--validation: VK_LAYER_KHRONOS_validation is not installed";
            return -ENOTSUP;
        }
        return vk_fail(r, "vkCreateInstance", err);
    }
    auto get = [&](const char *n) { return vkGetInstanceProcAddr(instance_, n); };
    destroy_instance_ = reinterpret_cast<PFN_vkDestroyInstance>(get("vkDestroyInstance"));
    format_properties_ =
        reinterpret_cast<PFN_vkGetPhysicalDeviceFormatProperties>(get("vkGetPhysicalDeviceFormatProperties"));
    if (validation) {
        auto make = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(get("vkCreateDebugUtilsMessengerEXT"));
        destroy_messenger_ =
            reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(get("vkDestroyDebugUtilsMessengerEXT"));
        BENCH_VK(make(instance_, &mi, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
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

int CallerDevice::create_device(std::string *err)
{
    // What the library's kernels need (libvmaf_vulkan.h, VmafVulkanExternalHandles).
    features_.require();
    {
        vmaf::vk::FeatureChain have;
        reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(vkGetInstanceProcAddr(instance_, "vkGetPhysicalDeviceFeatures2"))(physical_, &have.core);
        features_.want_optional(have);
    }
    const float priority = 1.0f;
    auto qi = vk::make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    qi.queueFamilyIndex = family_;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    auto ci = vk::make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    ci.pNext = &features_.core;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &qi;
    auto create = reinterpret_cast<PFN_vkCreateDevice>(vkGetInstanceProcAddr(instance_, "vkCreateDevice"));
    if (VkResult r = create(physical_, &ci, nullptr, &device_); r != VK_SUCCESS) {
        device_ = VK_NULL_HANDLE;
        return vk_fail(r, ("vkCreateDevice on " + name_).c_str(), err);
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
    h.lock_queue = [](void *o, uint32_t, uint32_t) { static_cast<CallerDevice *>(o)->queue_mutex_.lock(); };
    h.unlock_queue = [](void *o, uint32_t, uint32_t) { static_cast<CallerDevice *>(o)->queue_mutex_.unlock(); };
    h.lock_opaque = this;
    h.enabled_features = &features_.core;
    h.api_version = VK_API_VERSION_1_2;
    h.max_outstanding_frames = max_outstanding_frames;
    return h;
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

int CallerDevice::submit_and_wait(VkCommandBuffer cmd, const VkSemaphore *signal, unsigned n, uint64_t value,
                                  std::string *err)
{
    const uint64_t values[3] = {value, value, value};
    auto ti = vk::make<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
    ti.signalSemaphoreValueCount = n;
    ti.pSignalSemaphoreValues = values;
    auto si = vk::make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.pNext = &ti;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    si.signalSemaphoreCount = n;
    si.pSignalSemaphores = signal;
    {
        std::lock_guard lock(queue_mutex_);
        BENCH_VK(fn_.vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
    }
    auto wi = vk::make<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
    wi.semaphoreCount = n;
    wi.pSemaphores = signal;
    wi.pValues = values;
    BENCH_VK(fn_.vkWaitSemaphores(device_, &wi, UINT64_MAX), "vkWaitSemaphores");
    return 0;
}

int ImageRing::create(CallerDevice &dev, const FrameCycle &frames, Layout layout, std::unique_ptr<ImageRing> *out,
                      std::string *err)
{
    const VmafPicture &like = frames.ref(0);
    if (like.pix_fmt != VMAF_PIX_FMT_YUV420P || like.bpc != 8) {
        *err = "vulkan-import takes 8-bit 4:2:0 frames only";
        return -EINVAL;
    }
    std::unique_ptr<ImageRing> ring(new ImageRing(dev));
    ring->w_ = like.w[0];
    ring->h_ = like.h[0];
    VkFormatProperties p{};
    dev.format_properties_(dev.physical_, VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, &p);
    const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    const bool can = (p.optimalTilingFeatures & need) == need && ring->w_ % 2 == 0 && ring->h_ % 2 == 0;
    if (layout == Layout::MultiPlane && !can) {
        *err = dev.name_ + " cannot copy G8_B8_R8_3PLANE_420 images of " + std::to_string(ring->w_) + "x" +
               std::to_string(ring->h_);
        return -ENOTSUP;
    }
    ring->multi_plane_ = layout == Layout::MultiPlane || (layout == Layout::Auto && can);
    ring->usage_ = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkFormatProperties r8{};
    dev.format_properties_(dev.physical_, VK_FORMAT_R8_UNORM, &r8);
    if (r8.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT &&
        (!ring->multi_plane_ || p.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
        ring->usage_ |= VK_IMAGE_USAGE_SAMPLED_BIT;
    if (ring->multi_plane_) ring->create_flags_ = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    ring->pics_.resize(2 * size_t(frames.size()));
    for (unsigned k = 0; k < frames.size(); k++) {
        for (unsigned side = 0; side < 2; side++) {
            Picture *pic = &ring->pics_[2 * k + side];
            if (int e = ring->create_picture(pic, err)) return e;
            if (int e = ring->upload(pic, side ? frames.dist(k) : frames.ref(k), err)) return e;
        }
    }
    *out = std::move(ring);
    return 0;
}

ImageRing::~ImageRing()
{
    wait_idle();
    const auto &fn = dev_.fn_;
    for (Picture &p : pics_) {
        for (unsigned i = 0; i < 3; i++) {
            if (p.img[i]) fn.vkDestroyImage(dev_.device_, p.img[i], nullptr);
            if (p.memory[i]) fn.vkFreeMemory(dev_.device_, p.memory[i], nullptr);
            if (p.sem[i]) fn.vkDestroySemaphore(dev_.device_, p.sem[i], nullptr);
        }
    }
}

void ImageRing::wait_idle()
{
    const auto &fn = dev_.fn_;
    for (Picture &p : pics_) {
        const unsigned n = multi_plane_ ? 1 : 3;
        if (!p.sem[n - 1]) continue;
        const uint64_t values[3] = {p.value, p.value, p.value};
        auto wi = vk::make<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
        wi.semaphoreCount = n;
        wi.pSemaphores = p.sem;
        wi.pValues = values;
        // Bounded: after a failed frame a signal may never come.
        fn.vkWaitSemaphores(dev_.device_, &wi, 30ull * 1000 * 1000 * 1000);
    }
}

int ImageRing::create_picture(Picture *p, std::string *err)
{
    const auto &fn = dev_.fn_;
    const VkDevice device = dev_.device_;
    const unsigned n = multi_plane_ ? 1 : 3;
    for (unsigned i = 0; i < n; i++) {
        const bool luma_sized = i == 0;
        auto ci = vk::make<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
        ci.imageType = VK_IMAGE_TYPE_2D;
        ci.format = multi_plane_ ? VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM : VK_FORMAT_R8_UNORM;
        ci.extent = {luma_sized ? w_ : (w_ + 1) / 2, luma_sized ? h_ : (h_ + 1) / 2, 1};
        ci.mipLevels = 1;
        ci.arrayLayers = 1;
        ci.samples = VK_SAMPLE_COUNT_1_BIT;
        ci.tiling = VK_IMAGE_TILING_OPTIMAL;
        // As a decoder's frames are: sampled too, and mutable where multi-plane
        // (views of single planes); the library reads them in place.
        ci.usage = usage_;
        ci.flags = create_flags_;
        ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        BENCH_VK(fn.vkCreateImage(device, &ci, nullptr, &p->img[i]), "vkCreateImage");
        VkMemoryRequirements req;
        fn.vkGetImageMemoryRequirements(device, p->img[i], &req);
        auto ai = vk::make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
        ai.allocationSize = req.size;
        if (dev_.memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &ai.memoryTypeIndex) &&
            dev_.memory_type(req.memoryTypeBits, 0, &ai.memoryTypeIndex)) {
            *err = "no memory type for the images";
            return -ENOMEM;
        }
        BENCH_VK(fn.vkAllocateMemory(device, &ai, nullptr, &p->memory[i]), "vkAllocateMemory (images)");
        BENCH_VK(fn.vkBindImageMemory(device, p->img[i], p->memory[i], 0), "vkBindImageMemory");

        auto ti = vk::make<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
        ti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
        auto si = vk::make<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
        si.pNext = &ti;
        BENCH_VK(fn.vkCreateSemaphore(device, &si, nullptr, &p->sem[i]), "vkCreateSemaphore");
    }
    return 0;
}

// One picture into its images through a host-visible staging buffer, left in
// TRANSFER_SRC_OPTIMAL with its semaphores at 1. Done once, before timing, so
// simple: a buffer and a command pool per upload, waited for.
int ImageRing::upload(Picture *p, const VmafPicture &pic, std::string *err)
{
    const auto &fn = dev_.fn_;
    const VkDevice device = dev_.device_;
    struct Scope {  // what the upload made, gone on every return
        const VolkDeviceTable &fn;
        VkDevice device;
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        VkCommandPool pool = VK_NULL_HANDLE;
        ~Scope()
        {
            if (pool) fn.vkDestroyCommandPool(device, pool, nullptr);
            if (buffer) fn.vkDestroyBuffer(device, buffer, nullptr);
            if (memory) fn.vkFreeMemory(device, memory, nullptr);
        }
    } s{fn, device};

    VkDeviceSize offsets[3], at = 0;
    for (unsigned i = 0; i < 3; i++) {
        offsets[i] = at;
        at += (VkDeviceSize(pic.w[i]) * pic.h[i] + 15) & ~VkDeviceSize(15);
    }
    auto bi = vk::make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bi.size = at;
    bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    BENCH_VK(fn.vkCreateBuffer(device, &bi, nullptr, &s.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    fn.vkGetBufferMemoryRequirements(device, s.buffer, &req);
    auto ai = vk::make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.allocationSize = req.size;
    if (dev_.memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                         &ai.memoryTypeIndex)) {
        *err = "no host-visible memory for the upload";
        return -ENOMEM;
    }
    BENCH_VK(fn.vkAllocateMemory(device, &ai, nullptr, &s.memory), "vkAllocateMemory (staging)");
    BENCH_VK(fn.vkBindBufferMemory(device, s.buffer, s.memory, 0), "vkBindBufferMemory");
    void *mapped = nullptr;
    BENCH_VK(fn.vkMapMemory(device, s.memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    for (unsigned i = 0; i < 3; i++) {
        auto *dst = static_cast<uint8_t *>(mapped) + offsets[i];
        for (unsigned y = 0; y < pic.h[i]; y++)
            std::memcpy(dst + size_t(y) * pic.w[i], static_cast<const uint8_t *>(pic.data[i]) + y * pic.stride[i],
                        pic.w[i]);
    }
    fn.vkUnmapMemory(device, s.memory);

    auto pi = vk::make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pi.queueFamilyIndex = dev_.family_;
    BENCH_VK(fn.vkCreateCommandPool(device, &pi, nullptr, &s.pool), "vkCreateCommandPool");
    auto cai = vk::make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    cai.commandPool = s.pool;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    BENCH_VK(fn.vkAllocateCommandBuffers(device, &cai, &cmd), "vkAllocateCommandBuffers");
    auto begin = vk::make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    BENCH_VK(fn.vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");

    const unsigned n = multi_plane_ ? 1 : 3;
    auto barriers = [&](VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst) {
        VkImageMemoryBarrier b[3];
        for (unsigned i = 0; i < n; i++) {
            b[i] = vk::make<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
            b[i].srcAccessMask = src;
            b[i].dstAccessMask = dst;
            b[i].oldLayout = from;
            b[i].newLayout = to;
            b[i].srcQueueFamilyIndex = b[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            b[i].image = p->img[i];
            b[i].subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        }
        fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                                nullptr, n, b);
    };
    barriers(VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
    constexpr VkImageAspectFlagBits plane_aspect[3] = {VK_IMAGE_ASPECT_PLANE_0_BIT, VK_IMAGE_ASPECT_PLANE_1_BIT,
                                                       VK_IMAGE_ASPECT_PLANE_2_BIT};
    for (unsigned i = 0; i < 3; i++) {
        VkBufferImageCopy r{};
        r.bufferOffset = offsets[i];
        r.imageSubresource = {VkImageAspectFlags(multi_plane_ ? plane_aspect[i] : VK_IMAGE_ASPECT_COLOR_BIT), 0, 0, 1};
        r.imageExtent = {pic.w[i], pic.h[i], 1};
        fn.vkCmdCopyBufferToImage(cmd, s.buffer, p->img[multi_plane_ ? 0 : i], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                                  &r);
    }
    // GENERAL: read by a copy or by kernels without a transition either way.
    barriers(VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_TRANSFER_WRITE_BIT,
             VK_ACCESS_TRANSFER_READ_BIT);
    BENCH_VK(fn.vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    if (int e = dev_.submit_and_wait(cmd, p->sem, n, 1, err)) return e;
    p->value = 1;
    return 0;
}

int ImageRing::import(VmafContext *vmaf, VmafVulkanImportSide side, unsigned index)
{
    const size_t pairs = pics_.size() / 2;
    Picture &p = pics_[2 * (index % pairs) + (side == VMAF_VULKAN_IMPORT_DISTORTED ? 1 : 0)];
    VmafVulkanImage d{};
    const unsigned n = multi_plane_ ? 1 : 3;
    for (unsigned i = 0; i < n; i++) {
        d.img[i] = p.img[i];
        d.format[i] = multi_plane_ ? VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM : VK_FORMAT_R8_UNORM;
        d.layout[i] = VK_IMAGE_LAYOUT_GENERAL;
        d.final_layout[i] = VK_IMAGE_LAYOUT_UNDEFINED;  // left as it was
        d.queue_family[i] = VK_QUEUE_FAMILY_IGNORED;
        d.sem[i] = p.sem[i];
        d.sem_value[i] = p.value;
        d.signal_value[i] = p.value + 1;
    }
    d.width = w_;
    d.height = h_;
    d.bpc = 8;
    d.pix_fmt = VMAF_PIX_FMT_YUV420P;
    d.usage = usage_;
    d.create_flags = create_flags_;
    if (int e = vmaf_vulkan_import_image(vmaf, side, &d, index)) return e;
    p.value++;
    return 0;
}

#undef BENCH_VK

}  // namespace vmaf::bench
