// SPDX-License-Identifier: BSD-2-Clause-Patent
// The import tests' caller: the caller-owned Vulkan device vmaf_bench's
// vulkan-import mode uses too (caller/caller_device.h), adopted by the library
// through vmaf_vulkan_state_init_external(); plus images and exportable memory
// filled from VmafPictures in the layouts callers use (planar, NV12-style
// interleaved chroma, multi-plane formats, msb-aligned 16-bit samples).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "caller/caller_device.h"
#include "context/context.h"
#include "feature/registry.h"
#include "feature/twin.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "picture/picture.h"
#include "vulkan/state.h"
#include "vulkan/import.h"
#include "vulkan/vk.h"

namespace vmaf::test {

inline void vk_check(VkResult r, const char *what)
{
    INFO(what);
    REQUIRE(r == VK_SUCCESS);
}

// How an imported picture is stored.
enum class Layout {
    Planar,      // one single-plane image per plane
    Interleaved, // luma image + interleaved chroma image (NV12, P010 as two images)
    MultiPlane,  // one multi-plane image
    Mono,        // 4:0:0: one image
};

struct ImageCase {
    const char *name;
    Layout layout;
    VkFormat format[3];  // per image
    bool msb_aligned;    // 16-bit samples held high (P010)
};

// The caller's device (caller/caller_device.h, as vmaf_bench's vulkan-import
// mode has it), with the validation layer on unless
// VMAF_TEST_VULKAN_NO_VALIDATION=1, and what the tests build on it.
class Harness {
public:
    // `external_fd`: enable VK_KHR_external_memory_fd when the device has it.
    explicit Harness(bool external_fd = false) : dev_(create(external_fd)), fn(dev_->fn()) {}
    Harness(const Harness &) = delete;
    Harness &operator=(const Harness &) = delete;

    VmafVulkanExternalHandles handles(unsigned outstanding = 0) { return dev_->handles(outstanding); }
    bool has_extension(const char *name) const { return dev_->has_extension(name); }

    // Whether images of this format can be created, filled and copied from.
    // Sampled in both tilings (what the library asks of a plane's view format), or
    // in optimal tiling (what a sampled image of the format needs).
    bool samples(VkFormat f, bool optimal_only = false) const
    {
        const VkFormatProperties p = dev_->format_properties(f);
        const VkFormatFeatureFlags have = optimal_only ? p.optimalTilingFeatures
                                                       : p.optimalTilingFeatures & p.linearTilingFeatures;
        return (have & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) != 0;
    }

    bool supports(VkFormat f) const
    {
        const VkFormatProperties p = dev_->format_properties(f);
        const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
        return (p.optimalTilingFeatures & need) == need;
    }

    // Checked here, on the test's thread: the library calls the lock callbacks
    // and the layer reports on its own threads.
    void check_clean() const
    {
        INFO("validation messages on the caller's instance");
        CHECK(dev_->validation_messages() == 0);
        CHECK(dev_->bad_queue_args() == 0);  // the lock callbacks got our queue
    }
    int locks() const { return dev_->locks(); }
    int unlocks() const { return dev_->unlocks(); }

    // Submit under the queue lock (the library submits to the same queue).
    void submit(const VkSubmitInfo &si, VkFence fence = VK_NULL_HANDLE)
    {
        vk_check(dev_->submit(si, fence), "vkQueueSubmit");
    }

    // A host-visible coherent buffer, mapped.
    struct HostBuffer {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        uint8_t *data = nullptr;
        VkDeviceSize size = 0;
        uint32_t type = 0;
        VkDeviceSize allocation = 0;
    };
    HostBuffer host_buffer(VkDeviceSize size, VkBufferUsageFlags usage, bool exportable = false)
    {
        HostBuffer b;
        b.size = size;
        VkExternalMemoryBufferCreateInfo ei = vk::make<VkExternalMemoryBufferCreateInfo>(VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
        ei.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
        VkBufferCreateInfo bi = vk::make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
        bi.pNext = exportable ? &ei : nullptr;
        bi.size = size;
        bi.usage = usage;
        vk_check(fn.vkCreateBuffer(dev_->device(), &bi, nullptr, &b.buffer), "vkCreateBuffer");
        VkMemoryRequirements req;
        fn.vkGetBufferMemoryRequirements(dev_->device(), b.buffer, &req);
        b.type = memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        b.allocation = req.size;
        VkExportMemoryAllocateInfo ex = vk::make<VkExportMemoryAllocateInfo>(VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO);
        ex.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
        VkMemoryAllocateInfo ai = vk::make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
        ai.pNext = exportable ? &ex : nullptr;
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = b.type;
        vk_check(fn.vkAllocateMemory(dev_->device(), &ai, nullptr, &b.memory), "vkAllocateMemory");
        vk_check(fn.vkBindBufferMemory(dev_->device(), b.buffer, b.memory, 0), "vkBindBufferMemory");
        void *p;
        vk_check(fn.vkMapMemory(dev_->device(), b.memory, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
        b.data = static_cast<uint8_t *>(p);
        return b;
    }
    void destroy(HostBuffer &b)
    {
        if (b.buffer) fn.vkDestroyBuffer(dev_->device(), b.buffer, nullptr);
        if (b.memory) fn.vkFreeMemory(dev_->device(), b.memory, nullptr);
        b = HostBuffer{};
    }
    int export_fd(const HostBuffer &b)
    {
        VkMemoryGetFdInfoKHR gi = vk::make<VkMemoryGetFdInfoKHR>(VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR);
        gi.memory = b.memory;
        gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
        int fd = -1;
        vk_check(fn.vkGetMemoryFdKHR(dev_->device(), &gi, &fd), "vkGetMemoryFdKHR");
        return fd;
    }

    VkSemaphore timeline(uint64_t initial = 0)
    {
        VkSemaphoreTypeCreateInfo ti = vk::make<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
        ti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
        ti.initialValue = initial;
        VkSemaphoreCreateInfo si = vk::make<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
        si.pNext = &ti;
        VkSemaphore s;
        vk_check(fn.vkCreateSemaphore(dev_->device(), &si, nullptr, &s), "vkCreateSemaphore");
        return s;
    }
    uint64_t counter(VkSemaphore s)
    {
        uint64_t v = 0;
        vk_check(fn.vkGetSemaphoreCounterValue(dev_->device(), s, &v), "vkGetSemaphoreCounterValue");
        return v;
    }
    void wait(VkSemaphore s, uint64_t value)
    {
        VkSemaphoreWaitInfo wi = vk::make<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
        wi.semaphoreCount = 1;
        wi.pSemaphores = &s;
        wi.pValues = &value;
        vk_check(fn.vkWaitSemaphores(dev_->device(), &wi, 60ull * 1000 * 1000 * 1000), "vkWaitSemaphores");
    }
    void signal(VkSemaphore s, uint64_t value)
    {
        VkSemaphoreSignalInfo si = vk::make<VkSemaphoreSignalInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO);
        si.semaphore = s;
        si.value = value;
        vk_check(fn.vkSignalSemaphore(dev_->device(), &si), "vkSignalSemaphore");
    }

    // An image for the library to read. `sampled_only`: sampled and never copied
    // (no TRANSFER_SRC usage), with a mutable format where it has several planes
    // or X6/X4 samples, as the library's views of its planes need.
    VkImage image(VkFormat format, unsigned w, unsigned h, bool sampled_only = false)
    {
        VkImageCreateInfo ci = vk::make<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
        ci.imageType = VK_IMAGE_TYPE_2D;
        ci.format = format;
        ci.extent = {w, h, 1};
        ci.mipLevels = 1;
        ci.arrayLayers = 1;
        ci.samples = VK_SAMPLE_COUNT_1_BIT;
        ci.tiling = VK_IMAGE_TILING_OPTIMAL;
        // Sampled too where the format allows, as a decoder's or FFmpeg's frames
        // are: images left in SHADER_READ_ONLY_OPTIMAL need it.
        ci.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        VkFormatProperties props{};
        props = dev_->format_properties(format);
        if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) ci.usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
        if (sampled_only) {
            ci.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
            const vk::ImageFormatInfo *info = vk::image_format_info(format);
            if (info && (info->planes > 1 || info->msb_bits)) ci.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
        }
        ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        VkImage img;
        vk_check(fn.vkCreateImage(dev_->device(), &ci, nullptr, &img), "vkCreateImage");
        VkMemoryRequirements req;
        fn.vkGetImageMemoryRequirements(dev_->device(), img, &req);
        VkMemoryAllocateInfo ai = vk::make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = memory_type(req.memoryTypeBits, 0);
        VkDeviceMemory mem;
        vk_check(fn.vkAllocateMemory(dev_->device(), &ai, nullptr, &mem), "vkAllocateMemory");
        vk_check(fn.vkBindImageMemory(dev_->device(), img, mem, 0), "vkBindImageMemory");
        image_memory_[img] = mem;
        return img;
    }
    void destroy(VkImage img)
    {
        fn.vkDestroyImage(dev_->device(), img, nullptr);
        fn.vkFreeMemory(dev_->device(), image_memory_.at(img), nullptr);
        image_memory_.erase(img);
    }
    void destroy(VkSemaphore s) { fn.vkDestroySemaphore(dev_->device(), s, nullptr); }

    VkDevice device() const { return dev_->device(); }
    VkPhysicalDevice physical() const { return dev_->physical(); }
    uint32_t family() const { return dev_->family(); }

private:
    static std::unique_ptr<tools::CallerDevice> create(bool external_fd)
    {
        const char *off = std::getenv("VMAF_TEST_VULKAN_NO_VALIDATION");
        tools::CallerDevice::Options o;
        o.validation = !(off && *off == '1');
        o.performance_messages = true;
        o.graphics = true;  // the family a decoder or renderer shares with us
        o.external_memory_fd = external_fd;
        o.application_name = "import-test-harness";
        o.on_message = [](const char *m) { std::fprintf(stderr, "validation: %s\n", m); };
        std::unique_ptr<tools::CallerDevice> dev;
        std::string err;
        const int e = tools::CallerDevice::create(o, &dev, &err);
        INFO(err);
        REQUIRE(e == 0);
        return dev;
    }

    uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags need) const
    {
        uint32_t type = 0;
        if (dev_->memory_type(bits, need, &type)) FAIL("no memory type");
        return type;
    }

    std::unique_ptr<tools::CallerDevice> dev_;

public:
    const VolkDeviceTable &fn;

private:
    std::map<VkImage, VkDeviceMemory> image_memory_;
};

// The stored form of one plane of `pic` in an image or buffer: its samples,
// shifted up by `shift` (msb-aligned storage), interleaved with the next plane
// when `interleave` (Cb, Cr pairs). Rows are `pitch` bytes apart.
inline void pack_plane(const VmafPicture &pic, unsigned p, bool interleave, unsigned shift, uint8_t *dst,
                       size_t pitch)
{
    const unsigned bytes = pic.bpc > 8 ? 2 : 1;
    const unsigned comps = interleave ? 2 : 1;
    for (unsigned y = 0; y < pic.h[p]; y++) {
        for (unsigned x = 0; x < pic.w[p]; x++) {
            for (unsigned c = 0; c < comps; c++) {
                const auto *row = static_cast<const uint8_t *>(pic.data[p + c]) + y * pic.stride[p + c];
                uint8_t *out = dst + y * pitch + (x * comps + c) * bytes;
                if (bytes == 1) {
                    *out = row[x];
                } else {
                    uint16_t v;
                    std::memcpy(&v, row + 2 * x, 2);
                    v = uint16_t(v << shift);
                    std::memcpy(out, &v, 2);
                }
            }
        }
    }
}

// Register every feature that has a GPU twin, with default options.
inline std::vector<std::string> use_gpu_features(VmafContext *ctx)
{
    std::vector<std::string> names;
    for (const RegistryEntry &f : registry_entries()) {
        if (!f.gpu) continue;
        REQUIRE(vmaf_use_feature(ctx, f.cpu->name, nullptr) == 0);
        names.push_back(f.cpu->name);
    }
    REQUIRE(!names.empty());
    return names;
}

inline VmafConfiguration quiet_config()
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    return cfg;
}

// Every stored score of a context: name -> per-frame values, and aggregates.
struct Scores {
    std::map<std::string, std::vector<std::optional<double>>> series;
    std::map<std::string, double> aggregates;
};

inline Scores scores_of(VmafContext *ctx)
{
    Scores s;
    for (const std::string &n : ctx->ctx.collector().names()) s.series[n] = ctx->ctx.collector().series(n);
    for (const auto &[n, v] : ctx->ctx.collector().aggregates()) s.aggregates[n] = v;
    return s;
}

// Every series and aggregate of `want`, and nothing else, in `got`: `frames`
// values in each series, all present, each pair of values accepted by `match`.
template <class Match>
void require_matching(const Scores &got, const Scores &want, unsigned frames, Match match)
{
    REQUIRE(!want.series.empty());
    REQUIRE(got.series.size() == want.series.size());
    for (const auto &[name, series] : want.series) {
        INFO(name);
        REQUIRE(got.series.count(name));
        const auto &g = got.series.at(name);
        REQUIRE(series.size() == frames);
        REQUIRE(g.size() == frames);
        for (unsigned i = 0; i < frames; i++) {
            INFO("frame " << i);
            REQUIRE(series[i].has_value());
            REQUIRE(g[i].has_value());
            CHECK(match(*g[i], *series[i]));
        }
    }
    REQUIRE(got.aggregates.size() == want.aggregates.size());
    for (const auto &[name, v] : want.aggregates) {
        INFO(name);
        REQUIRE(got.aggregates.count(name));
        CHECK(match(got.aggregates.at(name), v));
    }
}

inline void require_identical(const Scores &got, const Scores &want, unsigned frames)
{
    require_matching(got, want, frames, [](double a, double b) { return a == b; });
}

// A golden pair's pictures, released with it.
struct Pair {
    std::vector<VmafPicture> ref, dist;
    Pair() = default;
    Pair(const Pair &) = delete;
    Pair(Pair &&) = default;
    ~Pair()
    {
        unref_all(ref);
        unref_all(dist);
    }
};

// Luma only, as 4:0:0 pictures.
inline std::vector<VmafPicture> mono(const std::vector<VmafPicture> &in)
{
    std::vector<VmafPicture> out;
    for (const VmafPicture &p : in) {
        VmafPicture m;
        REQUIRE(vmaf_picture_alloc(&m, VMAF_PIX_FMT_YUV400P, p.bpc, p.w[0], p.h[0]) == 0);
        const size_t row = size_t(p.w[0]) * (p.bpc > 8 ? 2 : 1);
        for (unsigned y = 0; y < p.h[0]; y++)
            std::memcpy(static_cast<uint8_t *>(m.data[0]) + y * m.stride[0],
                        static_cast<const uint8_t *>(p.data[0]) + y * p.stride[0], row);
        out.push_back(m);
    }
    return out;
}

inline Pair load_pair(const std::string &name, bool as_mono = false)
{
    Pair pair;
    pair.ref = load_y4m(data_dir() + "/" + name + "_ref.y4m");
    pair.dist = load_y4m(data_dir() + "/" + name + "_dis.y4m");
    REQUIRE(!pair.ref.empty());
    REQUIRE(pair.ref.size() == pair.dist.size());
    // VMAF_TEST_MAX_FRAMES (tests/meson.build, under the sanitizers): the first
    // frames only. Every check here compares imports with host pictures of the
    // same frames, so any count of two or more checks the same things.
    if (const char *m = std::getenv("VMAF_TEST_MAX_FRAMES"); m && *m) {
        const size_t keep = std::max<size_t>(2, std::strtoul(m, nullptr, 10));
        for (auto *pics : {&pair.ref, &pair.dist}) {
            while (pics->size() > keep) {
                vmaf_picture_unref(&pics->back());
                pics->pop_back();
            }
        }
    }
    if (as_mono) {
        auto r = mono(pair.ref), d = mono(pair.dist);
        unref_all(pair.ref);
        unref_all(pair.dist);
        pair.ref = std::move(r);
        pair.dist = std::move(d);
    }
    return pair;
}

// VMAF_TEST_SANITIZED=1 (tests/meson.build, under the sanitizers): run each
// path of our host code with fewer repetitions.
inline bool sanitized()
{
    const char *s = std::getenv("VMAF_TEST_SANITIZED");
    return s && *s == '1';
}

// A context on `state` running psnr alone (`psnr_only`), or every feature with a
// GPU twin; with `few`, under the sanitizers, psnr (every plane), vif (work
// carried into a submission after the frame's) and motion (the frame before)
// instead: how frames reach the device is the engine's, the same for every
// feature, and under the sanitizers each kernel's dispatch costs most of the time.
inline VmafContext *open_context(VmafVulkanState *state, bool psnr_only = false, bool few = false)
{
    VmafContext *ctx = nullptr;
    REQUIRE(vmaf_init(&ctx, quiet_config()) == 0);
    REQUIRE(vmaf_vulkan_import_state(ctx, state) == 0);
    if (psnr_only) {
        REQUIRE(vmaf_use_feature(ctx, "psnr", nullptr) == 0);
    } else if (few && sanitized()) {
        for (const char *f : {"psnr", "vif", "motion"}) REQUIRE(vmaf_use_feature(ctx, f, nullptr) == 0);
    } else {
        use_gpu_features(ctx);
    }
    return ctx;
}

// Scores through vmaf_read_pictures on the same device: the expectation.
inline Scores host_scores(VmafVulkanState *state, const Pair &pair, bool psnr_only = false, bool few = false)
{
    VmafContext *ctx = open_context(state, psnr_only, few);
    for (size_t i = 0; i < pair.ref.size(); i++) {
        VmafPicture r, d;
        picture_ref(&r, &pair.ref[i]);
        picture_ref(&d, &pair.dist[i]);
        REQUIRE(vmaf_read_pictures(ctx, &r, &d, unsigned(i)) == 0);
    }
    REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
    Scores s = scores_of(ctx);
    REQUIRE(vmaf_close(ctx) == 0);
    return s;
}

// One picture in VkImages of the harness, re-uploaded per frame. Its images'
// timeline semaphores order the upload, the library's read and the next upload.
// How the library is to read the images: copied (the description gives no
// usage), or sampled by its kernels (images without TRANSFER_SRC usage, so that a
// copy would break the validation layer's rules).
enum class Read { Copy, Sampled };

class ImageSet {
public:
    ImageSet(Harness &h, const ImageCase &c, const VmafPicture &like, Read read = Read::Copy)
        : h_(h), c_(c), read_(read)
    {
        bpc_ = like.bpc;
        pix_fmt_ = like.pix_fmt;
        w_ = like.w[0];
        h0_ = like.h[0];
        const unsigned bytes = like.bpc > 8 ? 2 : 1;
        const vk::ImageFormatInfo *info = vk::image_format_info(c.format[0]);
        REQUIRE(info);
        shift_ = (info->msb_bits || c.msb_aligned) ? 16 - like.bpc : 0;
        // Stored planes: (image, aspect, components, plane dims).
        auto add = [&](unsigned image, VkImageAspectFlagBits aspect, unsigned p, bool interleave) {
            Stored s{image, aspect, p, interleave, like.w[p], like.h[p], 0,
                     size_t(like.w[p]) * (interleave ? 2 : 1) * bytes};
            stored_.push_back(s);
        };
        switch (c.layout) {
        case Layout::Planar:
            for (unsigned p = 0; p < 3; p++) add(p, VK_IMAGE_ASPECT_COLOR_BIT, p, false);
            n_images_ = 3;
            break;
        case Layout::Interleaved:
            add(0, VK_IMAGE_ASPECT_COLOR_BIT, 0, false);
            add(1, VK_IMAGE_ASPECT_COLOR_BIT, 1, true);
            n_images_ = 2;
            break;
        case Layout::MultiPlane:
            add(0, VK_IMAGE_ASPECT_PLANE_0_BIT, 0, false);
            if (info->planes == 2) {
                add(0, VK_IMAGE_ASPECT_PLANE_1_BIT, 1, true);
            } else {
                add(0, VK_IMAGE_ASPECT_PLANE_1_BIT, 1, false);
                add(0, VK_IMAGE_ASPECT_PLANE_2_BIT, 2, false);
            }
            n_images_ = 1;
            break;
        case Layout::Mono:
            add(0, VK_IMAGE_ASPECT_COLOR_BIT, 0, false);
            n_images_ = 1;
            break;
        }
        size_t at = 0;
        for (Stored &s : stored_) {
            s.offset = at;
            at += (s.pitch * s.h + 15) & ~size_t(15);
        }
        staging_ = h.host_buffer(at, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        for (unsigned i = 0; i < n_images_; i++) {
            const bool luma_sized = c.layout == Layout::MultiPlane || i == 0;
            img_[i] = h.image(c.format[i], luma_sized ? like.w[0] : like.w[1], luma_sized ? like.h[0] : like.h[1],
                              read == Read::Sampled);
            sem_[i] = h.timeline();
        }
        VkCommandPoolCreateInfo pi = vk::make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
        pi.queueFamilyIndex = h.family();
        vk_check(h.fn.vkCreateCommandPool(h.device(), &pi, nullptr, &pool_), "vkCreateCommandPool");
        VkCommandBufferAllocateInfo ai = vk::make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
        ai.commandPool = pool_;
        ai.commandBufferCount = 1;
        vk_check(h.fn.vkAllocateCommandBuffers(h.device(), &ai, &cmd_), "vkAllocateCommandBuffers");
    }

    ~ImageSet()
    {
        for (unsigned i = 0; i < n_images_; i++) h_.wait(sem_[i], value_[i]);
        h_.fn.vkDestroyCommandPool(h_.device(), pool_, nullptr);
        h_.destroy(staging_);
        destroy_images();
        for (unsigned i = 0; i < n_images_; i++) h_.destroy(sem_[i]);
    }

    void destroy_images()
    {
        for (unsigned i = 0; i < n_images_; i++) {
            if (img_[i]) h_.destroy(img_[i]);
            img_[i] = VK_NULL_HANDLE;
        }
    }

    // Upload `pic`, after whatever read the images last; the upload's submission
    // signals the next value of each image's semaphore.
    void upload(const VmafPicture &pic)
    {
        for (unsigned i = 0; i < n_images_; i++) h_.wait(sem_[i], value_[i]);  // staging and cmd are free
        for (const Stored &s : stored_) pack_plane(pic, s.plane, s.interleave, shift_, staging_.data + s.offset, s.pitch);

        const auto &fn = h_.fn;
        vk_check(fn.vkResetCommandPool(h_.device(), pool_, 0), "vkResetCommandPool");
        VkCommandBufferBeginInfo bi = vk::make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vk_check(fn.vkBeginCommandBuffer(cmd_, &bi), "vkBeginCommandBuffer");
        std::vector<VkImageMemoryBarrier> to_dst;
        for (unsigned i = 0; i < n_images_; i++) {
            VkImageMemoryBarrier b = vk::make<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
            b.srcAccessMask = 0;
            b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            b.oldLayout = layout_[i];  // UNDEFINED the first time: nothing to keep
            b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
            b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            b.image = img_[i];
            b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            to_dst.push_back(b);
        }
        fn.vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                                nullptr, uint32_t(to_dst.size()), to_dst.data());
        for (const Stored &s : stored_) {
            VkBufferImageCopy r{};
            r.bufferOffset = s.offset;
            r.imageSubresource = {VkImageAspectFlags(s.aspect), 0, 0, 1};
            r.imageExtent = {s.w, s.h, 1};
            fn.vkCmdCopyBufferToImage(cmd_, staging_.buffer, img_[s.image], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
        }
        vk_check(fn.vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");

        std::vector<VkSemaphore> sems(sem_, sem_ + n_images_);
        std::vector<uint64_t> waits(value_, value_ + n_images_), signals;
        for (uint64_t v : waits) signals.push_back(v + 1);
        std::vector<VkPipelineStageFlags> stages(n_images_, VK_PIPELINE_STAGE_TRANSFER_BIT);
        VkTimelineSemaphoreSubmitInfo ti = vk::make<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
        ti.waitSemaphoreValueCount = n_images_;
        ti.pWaitSemaphoreValues = waits.data();
        ti.signalSemaphoreValueCount = n_images_;
        ti.pSignalSemaphoreValues = signals.data();
        VkSubmitInfo si = vk::make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
        si.pNext = &ti;
        si.waitSemaphoreCount = n_images_;
        si.pWaitSemaphores = sems.data();
        si.pWaitDstStageMask = stages.data();
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd_;
        si.signalSemaphoreCount = n_images_;
        si.pSignalSemaphores = sems.data();
        h_.submit(si);
        for (unsigned i = 0; i < n_images_; i++) {
            value_[i]++;
            layout_[i] = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        }
    }

    // The import description of the uploaded picture, to be left in `final_layout`
    // (UNDEFINED: as it is).
    VmafVulkanImage describe(VkImageLayout final_layout) const
    {
        VmafVulkanImage d{};
        for (unsigned i = 0; i < n_images_; i++) {
            d.img[i] = img_[i];
            d.format[i] = c_.format[i];
            d.layout[i] = layout_[i];
            d.final_layout[i] = final_layout;
            d.queue_family[i] = VK_QUEUE_FAMILY_IGNORED;
            d.sem[i] = sem_[i];
            d.sem_value[i] = value_[i];
            d.signal_value[i] = value_[i] + 1;
        }
        d.width = w_;
        d.height = h0_;
        d.bpc = bpc_;
        d.pix_fmt = pix_fmt_;
        d.msb_aligned = c_.msb_aligned;
        if (read_ == Read::Sampled) {
            d.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
            const vk::ImageFormatInfo *info = vk::image_format_info(c_.format[0]);
            if (info->planes > 1 || info->msb_bits) d.create_flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
        }
        return d;
    }

    // The library took `d`: what the caller's frame bookkeeping does next
    // (FFmpeg: store back layout and semaphore value).
    void imported(const VmafVulkanImage &d)
    {
        for (unsigned i = 0; i < n_images_; i++) {
            if (d.final_layout[i] != VK_IMAGE_LAYOUT_UNDEFINED) layout_[i] = d.final_layout[i];
            value_[i] = d.signal_value[i];
        }
    }

    VkSemaphore semaphore(unsigned i) const { return sem_[i]; }
    uint64_t value(unsigned i) const { return value_[i]; }
    unsigned images() const { return n_images_; }

private:
    struct Stored {
        unsigned image;
        VkImageAspectFlagBits aspect;
        unsigned plane;
        bool interleave;
        unsigned w, h;
        size_t offset, pitch;
    };
    Harness &h_;
    const ImageCase &c_;
    Read read_;
    unsigned bpc_ = 8, w_ = 0, h0_ = 0, shift_ = 0;
    VmafPixelFormat pix_fmt_ = VMAF_PIX_FMT_UNKNOWN;
    std::vector<Stored> stored_;
    unsigned n_images_ = 0;
    VkImage img_[3] = {};
    VkSemaphore sem_[3] = {};
    uint64_t value_[3] = {0, 0, 0};
    VkImageLayout layout_[3] = {VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_UNDEFINED};
    Harness::HostBuffer staging_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
};

// Every frame of `pair` (the first `frames`; 0: all) imported into `ctx` as `c`
// through a ring of `ring` image sets (left in `final_layout`; frame i in sets
// 2 (i % ring) and the one after), then flushed unless `flush` is false. The
// sets are returned: they must outlive the context, whose last signals they wait
// for when they go.
inline std::vector<std::unique_ptr<ImageSet>> import_through_ring(Harness &h, VmafContext *ctx, const Pair &pair,
                                                                  const ImageCase &c, VkImageLayout final_layout,
                                                                  unsigned ring, Read read, unsigned frames = 0,
                                                                  bool flush = true)
{
    std::vector<std::unique_ptr<ImageSet>> sets;
    for (unsigned k = 0; k < 2 * ring; k++) sets.push_back(std::make_unique<ImageSet>(h, c, pair.ref[0], read));
    const unsigned n = frames ? frames : unsigned(pair.ref.size());
    REQUIRE(n <= pair.ref.size());
    for (unsigned i = 0; i < n; i++) {
        ImageSet &r = *sets[2 * (i % ring)], &d = *sets[2 * (i % ring) + 1];
        r.upload(pair.ref[i]);
        d.upload(pair.dist[i]);
        const VmafVulkanImage rd = r.describe(final_layout), dd = d.describe(final_layout);
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_REFERENCE, &rd, i) == 0);
        REQUIRE(vmaf_vulkan_import_image(ctx, VMAF_VULKAN_IMPORT_DISTORTED, &dd, i) == 0);
        REQUIRE(vmaf_vulkan_read_imported_pictures(ctx, i) == 0);
        r.imported(rd);
        d.imported(dd);
    }
    if (flush) REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
    return sets;
}

inline bool case_supported(const Harness &h, const ImageCase &c)
{
    for (VkFormat f : c.format)
        if (f != VK_FORMAT_UNDEFINED && !h.supports(f)) return false;
    return true;
}

// Whether the device samples every plane of the case through R8/R16 views (what
// the library needs to read the images in place), and the images themselves.
inline bool case_sampled(const Harness &h, const ImageCase &c)
{
    for (VkFormat f : c.format) {
        if (f == VK_FORMAT_UNDEFINED) continue;
        const vk::ImageFormatInfo *info = vk::image_format_info(f);
        const bool deep = info->bytes == 2;
        const VkFormat one = deep ? VK_FORMAT_R16_UNORM : VK_FORMAT_R8_UNORM;
        const VkFormat two = deep ? VK_FORMAT_R16G16_UNORM : VK_FORMAT_R8G8_UNORM;
        const bool interleaved = info->planes == 2 || info->components == 2;
        if (!h.samples(f, true) || !h.samples(one) || (interleaved && !h.samples(two))) return false;
    }
    return true;
}

}  // namespace vmaf::test
