// SPDX-License-Identifier: BSD-2-Clause-Patent
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

// Submit `cmd` under the queue lock the library also takes, and wait for it.
int submit_and_wait(CallerDevice &dev, VkCommandBuffer cmd, const VkSemaphore *signal, unsigned n, uint64_t value,
                    std::string *err)
{
    const uint64_t values[3] = {value, value, value};
    auto ti = tools::vk_struct<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
    ti.signalSemaphoreValueCount = n;
    ti.pSignalSemaphoreValues = values;
    auto si = tools::vk_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.pNext = &ti;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    si.signalSemaphoreCount = n;
    si.pSignalSemaphores = signal;
    BENCH_VK(dev.submit(si), "vkQueueSubmit");
    auto wi = tools::vk_struct<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
    wi.semaphoreCount = n;
    wi.pSemaphores = signal;
    wi.pValues = values;
    BENCH_VK(dev.fn().vkWaitSemaphores(dev.device(), &wi, UINT64_MAX), "vkWaitSemaphores");
    return 0;
}

}  // namespace

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
    const VkFormatProperties p = dev.format_properties(VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM);
    const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    const bool can = (p.optimalTilingFeatures & need) == need && ring->w_ % 2 == 0 && ring->h_ % 2 == 0;
    if (layout == Layout::MultiPlane && !can) {
        *err = dev.name() + " cannot copy G8_B8_R8_3PLANE_420 images of " + std::to_string(ring->w_) + "x" +
               std::to_string(ring->h_);
        return -ENOTSUP;
    }
    ring->multi_plane_ = layout == Layout::MultiPlane || (layout == Layout::Auto && can);
    ring->usage_ = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    const VkFormatProperties r8 = dev.format_properties(VK_FORMAT_R8_UNORM);
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
    const auto &fn = dev_.fn();
    for (Picture &p : pics_) {
        for (unsigned i = 0; i < 3; i++) {
            if (p.img[i]) fn.vkDestroyImage(dev_.device(), p.img[i], nullptr);
            if (p.memory[i]) fn.vkFreeMemory(dev_.device(), p.memory[i], nullptr);
            if (p.sem[i]) fn.vkDestroySemaphore(dev_.device(), p.sem[i], nullptr);
        }
    }
}

void ImageRing::wait_idle()
{
    const auto &fn = dev_.fn();
    for (Picture &p : pics_) {
        const unsigned n = multi_plane_ ? 1 : 3;
        if (!p.sem[n - 1]) continue;
        const uint64_t values[3] = {p.value, p.value, p.value};
        auto wi = tools::vk_struct<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
        wi.semaphoreCount = n;
        wi.pSemaphores = p.sem;
        wi.pValues = values;
        // Bounded: after a failed frame a signal may never come.
        fn.vkWaitSemaphores(dev_.device(), &wi, 30ull * 1000 * 1000 * 1000);
    }
}

int ImageRing::create_picture(Picture *p, std::string *err)
{
    const auto &fn = dev_.fn();
    const VkDevice device = dev_.device();
    const unsigned n = multi_plane_ ? 1 : 3;
    for (unsigned i = 0; i < n; i++) {
        const bool luma_sized = i == 0;
        auto ci = tools::vk_struct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
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
        auto ai = tools::vk_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
        ai.allocationSize = req.size;
        if (dev_.memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &ai.memoryTypeIndex) &&
            dev_.memory_type(req.memoryTypeBits, 0, &ai.memoryTypeIndex)) {
            *err = "no memory type for the images";
            return -ENOMEM;
        }
        BENCH_VK(fn.vkAllocateMemory(device, &ai, nullptr, &p->memory[i]), "vkAllocateMemory (images)");
        BENCH_VK(fn.vkBindImageMemory(device, p->img[i], p->memory[i], 0), "vkBindImageMemory");

        auto ti = tools::vk_struct<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
        ti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
        auto si = tools::vk_struct<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
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
    const auto &fn = dev_.fn();
    const VkDevice device = dev_.device();
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
    auto bi = tools::vk_struct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bi.size = at;
    bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    BENCH_VK(fn.vkCreateBuffer(device, &bi, nullptr, &s.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    fn.vkGetBufferMemoryRequirements(device, s.buffer, &req);
    auto ai = tools::vk_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
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

    auto pi = tools::vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pi.queueFamilyIndex = dev_.family();
    BENCH_VK(fn.vkCreateCommandPool(device, &pi, nullptr, &s.pool), "vkCreateCommandPool");
    auto cai = tools::vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    cai.commandPool = s.pool;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    BENCH_VK(fn.vkAllocateCommandBuffers(device, &cai, &cmd), "vkAllocateCommandBuffers");
    auto begin = tools::vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    BENCH_VK(fn.vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");

    const unsigned n = multi_plane_ ? 1 : 3;
    auto barriers = [&](VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst) {
        VkImageMemoryBarrier b[3];
        for (unsigned i = 0; i < n; i++) {
            b[i] = tools::vk_struct<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
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
    if (int e = submit_and_wait(dev_, cmd, p->sem, n, 1, err)) return e;
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
