// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/import.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <utility>

#include "picture/picture.h"
#include "util/env.h"
#include "util/log.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

constexpr ImageFormatInfo kFormats[] = {
    // Single-plane formats: one image per plane.
    {VK_FORMAT_R8_UNORM, 1, 1, 1, 0, 0, 0},
    {VK_FORMAT_R8G8_UNORM, 1, 2, 1, 0, 0, 0},
    {VK_FORMAT_R16_UNORM, 1, 1, 2, 0, 0, 0},
    {VK_FORMAT_R16G16_UNORM, 1, 2, 2, 0, 0, 0},
    {VK_FORMAT_R10X6_UNORM_PACK16, 1, 1, 2, 10, 0, 0},
    {VK_FORMAT_R10X6G10X6_UNORM_2PACK16, 1, 2, 2, 10, 0, 0},
    {VK_FORMAT_R12X4_UNORM_PACK16, 1, 1, 2, 12, 0, 0},
    {VK_FORMAT_R12X4G12X4_UNORM_2PACK16, 1, 2, 2, 12, 0, 0},
    // Multi-plane formats: one image per picture.
    {VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, 2, 0, 1, 0, 1, 1},
    {VK_FORMAT_G8_B8R8_2PLANE_422_UNORM, 2, 0, 1, 0, 1, 0},
    {VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, 3, 0, 1, 0, 1, 1},
    {VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM, 3, 0, 1, 0, 1, 0},
    {VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM, 3, 0, 1, 0, 0, 0},
    {VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16, 2, 0, 2, 10, 1, 1},
    {VK_FORMAT_G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16, 2, 0, 2, 10, 1, 0},
    {VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16, 3, 0, 2, 10, 1, 1},
    {VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_422_UNORM_3PACK16, 3, 0, 2, 10, 1, 0},
    {VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16, 3, 0, 2, 10, 0, 0},
    {VK_FORMAT_G12X4_B12X4R12X4_2PLANE_420_UNORM_3PACK16, 2, 0, 2, 12, 1, 1},
    {VK_FORMAT_G12X4_B12X4R12X4_2PLANE_422_UNORM_3PACK16, 2, 0, 2, 12, 1, 0},
    {VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_420_UNORM_3PACK16, 3, 0, 2, 12, 1, 1},
    {VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_422_UNORM_3PACK16, 3, 0, 2, 12, 1, 0},
    {VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_444_UNORM_3PACK16, 3, 0, 2, 12, 0, 0},
    {VK_FORMAT_G16_B16R16_2PLANE_420_UNORM, 2, 0, 2, 0, 1, 1},
    {VK_FORMAT_G16_B16R16_2PLANE_422_UNORM, 2, 0, 2, 0, 1, 0},
    {VK_FORMAT_G16_B16_R16_3PLANE_420_UNORM, 3, 0, 2, 0, 1, 1},
    {VK_FORMAT_G16_B16_R16_3PLANE_422_UNORM, 3, 0, 2, 0, 1, 0},
    {VK_FORMAT_G16_B16_R16_3PLANE_444_UNORM, 3, 0, 2, 0, 0, 0},
};

constexpr VkImageAspectFlagBits kPlaneAspect[3] = {VK_IMAGE_ASPECT_PLANE_0_BIT, VK_IMAGE_ASPECT_PLANE_1_BIT,
                                                   VK_IMAGE_ASPECT_PLANE_2_BIT};

int invalid(const char *what, const char *why)
{
    log(VMAF_LOG_LEVEL_ERROR, "%s: %s\n", what, why);
    return -EINVAL;
}

bool reserved_zero(const uint64_t *r, size_t n)
{
    return std::all_of(r, r + n, [](uint64_t v) { return v == 0; });
}

// The picture geometry every import describes.
int check_geometry(const char *what, VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h)
{
    if (!picture_storage_size(pix_fmt, bpc, w, h)) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: unsupported picture %ux%u, %u-bit, pix_fmt %d\n", what, w, h, bpc, pix_fmt);
        return -EINVAL;
    }
    return 0;
}

// The right shift that brings samples down to bpc bits; -1 when the container
// cannot hold these samples.
int sample_shift(unsigned bytes, unsigned msb_bits, unsigned bpc, bool msb_aligned)
{
    if (bytes == 1) return bpc == 8 ? 0 : -1;
    if (bpc == 8) return -1;
    if (msb_bits) return bpc == msb_bits ? int(16 - msb_bits) : -1;
    return msb_aligned ? int(16 - bpc) : 0;
}

bool can_copy_from(const State &st, VkFormat f)
{
    VkFormatProperties p{};
    st.ifn().GetPhysicalDeviceFormatProperties(st.physical_device(), f, &p);
    return ((p.optimalTilingFeatures | p.linearTilingFeatures) & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT) != 0;
}

// The format of a view of one plane: R8/R16 per component. The X6/X4 formats are
// viewed as R16 too, so the kernels see the stored 16 bits exactly as a copy
// does: drivers differ in whether they normalize those over 10/12 or 16 bits.
VkFormat plane_view_format(unsigned components, unsigned bytes)
{
    const bool two = components == 2;
    if (bytes == 1) return two ? VK_FORMAT_R8G8_UNORM : VK_FORMAT_R8_UNORM;
    return two ? VK_FORMAT_R16G16_UNORM : VK_FORMAT_R16_UNORM;
}

// Sampled in either tiling: the description does not say which the images have.
bool can_sample(const State &st, VkFormat f)
{
    VkFormatProperties p{};
    st.ifn().GetPhysicalDeviceFormatProperties(st.physical_device(), f, &p);
    return (p.optimalTilingFeatures & p.linearTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) != 0;
}

// The layout the frame reads an image in: the one it comes in where the read can.
VkImageLayout read_layout(VkImageLayout l, bool sampled)
{
    if (l == VK_IMAGE_LAYOUT_GENERAL) return l;
    if (sampled) return VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    return VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
}

bool sampled_import_allowed()
{
    return env_switch("VMAF_VULKAN_SAMPLED_IMPORT", true);
}

// Whether the kernels can read the images of `img` through views of their
// planes: null if they can, else why not.
const char *why_not_sampled(const State &st, const VmafVulkanImage &img, unsigned n,
                            const ImageFormatInfo *const info[3])
{
    if (!sampled_import_allowed()) return "VMAF_VULKAN_SAMPLED_IMPORT=0";
    if (!(img.usage & VK_IMAGE_USAGE_SAMPLED_BIT)) return "usage has no VK_IMAGE_USAGE_SAMPLED_BIT";
    // Views of one plane of a multi-plane image, and R16 views of X6/X4 images,
    // need a mutable format.
    const bool mutable_format = img.create_flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    if ((info[0]->planes > 1 || info[0]->msb_bits) && !mutable_format)
        return "multi-plane or X6/X4 images without VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT";
    for (unsigned i = 0; i < n; i++) {
        const unsigned most = info[i]->planes == 2 ? 2 : 1;  // the widest plane's components
        for (unsigned c = 1; c <= std::max(most, info[i]->components); c++)
            if (!can_sample(st, plane_view_format(c, info[i]->bytes))) return "the device cannot sample the planes";
    }
    return nullptr;
}

// Views of the sources' planes, owned by the picture.
int make_views(State &st, ImportedPicture *pic)
{
    const auto &fn = st.fn();
    pic->owned = std::make_unique<ImportedObjects>(st);
    for (PlaneSource &src : pic->sources) {
        auto usage = make<VkImageViewUsageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO);
        usage.usage = VK_IMAGE_USAGE_SAMPLED_BIT;  // of all the image's usages, the one this view has
        auto vi = make<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
        vi.pNext = &usage;
        vi.image = src.image;
        vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vi.format = plane_view_format(src.components, src.bytes);
        vi.subresourceRange = {VkImageAspectFlags(src.aspect), 0, 1, 0, 1};
        VkImageView view;
        if (VkResult r = fn.vkCreateImageView(st.device(), &vi, nullptr, &view); r != VK_SUCCESS) {
            log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_image: vkCreateImageView: %s\n", result_name(r));
            return errno_from(r);
        }
        pic->owned->views.push_back(view);
        src.view = view;
    }
    return 0;
}

}  // namespace

const ImageFormatInfo *image_format_info(VkFormat f)
{
    for (const ImageFormatInfo &i : kFormats)
        if (i.format == f) return &i;
    return nullptr;
}

ImportedObjects::~ImportedObjects()
{
    const auto &fn = st_.fn();
    for (VkImageView v : views) fn.vkDestroyImageView(st_.device(), v, nullptr);
    for (VkBuffer b : buffers) fn.vkDestroyBuffer(st_.device(), b, nullptr);
    for (VkImage i : images) fn.vkDestroyImage(st_.device(), i, nullptr);
    for (VkDeviceMemory m : memory) fn.vkFreeMemory(st_.device(), m, nullptr);
}

// ---------------------------------------------------------------------------
// VkImages

namespace {

// Which images hold which planes: fills sources, source[] and component[].
int map_image_planes(const char *what, const VmafVulkanImage &img, unsigned n_images,
                     const ImageFormatInfo *const info[3], ImportedPicture *out)
{
    const bool mono = img.pix_fmt == VMAF_PIX_FMT_YUV400P;
    unsigned ss_x, ss_y;
    chroma_shift(img.pix_fmt, &ss_x, &ss_y);
    auto add = [&](VkImage image, VkImageAspectFlagBits aspect, unsigned components) {
        PlaneSource s;
        s.image = image;
        s.aspect = aspect;
        s.components = components;
        s.bytes = info[0]->bytes;
        out->sources.push_back(s);
    };

    if (n_images == 1 && info[0]->planes > 1) {
        if (mono || info[0]->ss_x != ss_x || info[0]->ss_y != ss_y)
            return invalid(what, "the multi-plane format's chroma subsampling is not pix_fmt's");
        if (info[0]->planes == 2) {
            add(img.img[0], kPlaneAspect[0], 1);
            add(img.img[0], kPlaneAspect[1], 2);
            const unsigned source[3] = {0, 1, 1}, component[3] = {0, 0, 1};
            std::copy(source, source + 3, out->source);
            std::copy(component, component + 3, out->component);
        } else {
            for (unsigned p = 0; p < 3; p++) {
                add(img.img[0], kPlaneAspect[p], 1);
                out->source[p] = p;
            }
        }
        return 0;
    }
    for (unsigned i = 0; i < n_images; i++)
        if (info[i]->planes != 1) return invalid(what, "multi-plane formats come one image per picture");
    if (n_images == 1) {
        if (!mono || info[0]->components != 1)
            return invalid(what, "one single-plane image holds a 4:0:0 picture only");
        add(img.img[0], VK_IMAGE_ASPECT_COLOR_BIT, 1);
        return 0;
    }
    if (mono) return invalid(what, "a 4:0:0 picture is one image");
    if (n_images == 2) {
        if (info[0]->components != 1 || info[1]->components != 2)
            return invalid(what, "two images are luma (R8/R16) and interleaved chroma (R8G8/R16G16)");
        add(img.img[0], VK_IMAGE_ASPECT_COLOR_BIT, 1);
        add(img.img[1], VK_IMAGE_ASPECT_COLOR_BIT, 2);
        const unsigned source[3] = {0, 1, 1}, component[3] = {0, 0, 1};
        std::copy(source, source + 3, out->source);
        std::copy(component, component + 3, out->component);
        return 0;
    }
    for (unsigned p = 0; p < 3; p++) {
        if (info[p]->components != 1) return invalid(what, "three images hold one component each");
        add(img.img[p], VK_IMAGE_ASPECT_COLOR_BIT, 1);
        out->source[p] = p;
    }
    return 0;
}

}  // namespace

int import_image(State &st, const VmafVulkanImage &img, ImportedPicture *out)
{
    constexpr const char *what = "vmaf_vulkan_import_image";
    if (!reserved_zero(img.reserved, std::size(img.reserved))) return invalid(what, "reserved fields must be zero");
    if (int err = check_geometry(what, img.pix_fmt, img.bpc, img.width, img.height)) return err;
    unsigned n = 0;
    while (n < VMAF_VULKAN_MAX_IMAGES && img.img[n]) n++;
    if (!n) return invalid(what, "img[0] is VK_NULL_HANDLE");

    const ImageFormatInfo *info[3] = {};
    for (unsigned i = 0; i < n; i++) {
        info[i] = image_format_info(img.format[i]);
        if (!info[i]) {
            log(VMAF_LOG_LEVEL_ERROR, "%s: image %u: VkFormat %d is not a YUV plane format the library reads\n",
                what, i, int(img.format[i]));
            return -ENOTSUP;
        }
        if (info[i]->bytes != info[0]->bytes || info[i]->msb_bits != info[0]->msb_bits)
            return invalid(what, "the images' formats differ in sample size");
    }
    const char *why_copied = why_not_sampled(st, img, n, info);
    const bool sampled = !why_copied;
    for (unsigned i = 0; i < n && !sampled; i++) {
        if (!can_copy_from(st, img.format[i])) {
            log(VMAF_LOG_LEVEL_ERROR, "%s: %s cannot copy from VkFormat %d images (no TRANSFER_SRC support)\n",
                what, st.info().name.c_str(), int(img.format[i]));
            return -ENOTSUP;
        }
    }
    const int shift = sample_shift(info[0]->bytes, info[0]->msb_bits, img.bpc, img.msb_aligned != 0);
    if (shift < 0) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: %u-bit samples do not fit VkFormat %d\n", what, img.bpc, int(img.format[0]));
        return -EINVAL;
    }

    ImportedPicture pic;
    pic.fmt = FrameFormat{img.pix_fmt, img.bpc, img.width, img.height};
    pic.shift = unsigned(shift);
    if (int err = map_image_planes(what, img, n, info, &pic)) return err;
    pic.sampled = sampled;
    pic.why_copied = why_copied;

    for (unsigned i = 0; i < n; i++) {
        ImageUse u;
        u.image = img.img[i];
        u.layout = img.layout[i];
        u.final_layout = img.final_layout[i] == VK_IMAGE_LAYOUT_UNDEFINED ? img.layout[i] : img.final_layout[i];
        u.family = img.queue_family[i] == st.queue_family() ? VK_QUEUE_FAMILY_IGNORED : img.queue_family[i];
        u.semaphore = img.sem[i];
        u.wait = img.sem_value[i];
        u.signal = img.signal_value[i];
        if (u.layout == VK_IMAGE_LAYOUT_UNDEFINED)
            return invalid(what, "an image's layout is UNDEFINED: its contents would be lost");
        if (u.final_layout == VK_IMAGE_LAYOUT_PREINITIALIZED)
            return invalid(what, "PREINITIALIZED cannot be a final layout");
        if (!u.semaphore) return invalid(what, "every image needs its timeline semaphore (sem[i])");
        if (u.signal <= u.wait) return invalid(what, "signal_value[i] must be greater than sem_value[i]");
        if (u.family == VK_QUEUE_FAMILY_EXTERNAL || u.family == VK_QUEUE_FAMILY_FOREIGN_EXT)
            return invalid(what, "queue_family[i]: external images go through vmaf_vulkan_import_external");
        u.read_layout = read_layout(u.layout, sampled);
        pic.images.push_back(u);
    }
    if (sampled)
        if (int err = make_views(st, &pic)) return err;
    *out = std::move(pic);
    return 0;
}

// ---------------------------------------------------------------------------
// External memory

namespace {

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd()
    {
        if (fd_ >= 0) close(fd_);
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

private:
    int fd_;
};

int need_extension(const State &st, const char *ext, const char *what)
{
    if (st.has_extension(ext)) return 0;
    log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: %s needs %s, which %s%s\n", what, ext,
        st.info().name.c_str(), st.owned() ? " does not support" : " was not created with");
    return -ENOTSUP;
}

struct ExternalPlane {
    unsigned object, w, h, components;
    VkDeviceSize offset, pitch;
};

// Import `fd` (dup()ed) as memory for `req`; `dedicated` ties it to one image.
int import_memory(State &st, VkExternalMemoryHandleTypeFlagBits type, int fd, VkDeviceSize size,
                  uint32_t type_index, const VkMemoryRequirements &req, VkImage dedicated, VkDeviceMemory *out)
{
    const auto &fn = st.fn();
    Fd dup_fd(dup(fd));
    if (dup_fd.get() < 0) {
        const int e = errno;
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: dup(%d): %s\n", fd, std::strerror(e));
        return -e;
    }
    uint32_t allowed = req.memoryTypeBits;
    if (type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT) {
        VkMemoryFdPropertiesKHR fp = make<VkMemoryFdPropertiesKHR>(VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR);
        const VkResult r = fn.vkGetMemoryFdPropertiesKHR(st.device(), type, dup_fd.get(), &fp);
        if (r != VK_SUCCESS) {
            log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: vkGetMemoryFdPropertiesKHR: %s\n",
                result_name(r));
            return r == VK_ERROR_INVALID_EXTERNAL_HANDLE ? -EINVAL : errno_from(r);
        }
        allowed &= fp.memoryTypeBits;
        type_index = allowed ? uint32_t(__builtin_ctz(allowed)) : 0;
    }
    if (type_index >= VK_MAX_MEMORY_TYPES || !(allowed & (1u << type_index))) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: memory type %u cannot back the import "
                                  "(allowed: 0x%x)\n", type_index, allowed);
        return -EINVAL;
    }
    if (size < req.size) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: the object holds %llu bytes, %llu are needed\n",
            (unsigned long long)size, (unsigned long long)req.size);
        return -EINVAL;
    }
    VkImportMemoryFdInfoKHR ii = make<VkImportMemoryFdInfoKHR>(VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR);
    ii.handleType = type;
    ii.fd = dup_fd.get();
    VkMemoryDedicatedAllocateInfo di = make<VkMemoryDedicatedAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO);
    di.image = dedicated;
    if (dedicated) ii.pNext = &di;
    VkMemoryAllocateInfo ai = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.pNext = &ii;
    ai.allocationSize = dedicated ? req.size : size;
    ai.memoryTypeIndex = type_index;
    const VkResult r = fn.vkAllocateMemory(st.device(), &ai, nullptr, out);
    if (r != VK_SUCCESS) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: importing fd %d: %s\n", fd, result_name(r));
        return r == VK_ERROR_INVALID_EXTERNAL_HANDLE ? -EINVAL : errno_from(r);
    }
    dup_fd.release();  // the memory owns it now
    return 0;
}

// Linear planes: one buffer over each object; planes are rows of it.
int import_linear(State &st, const VmafVulkanExternalPicture &pic, VkExternalMemoryHandleTypeFlagBits type,
                  const std::vector<VkDeviceSize> &sizes, const std::vector<ExternalPlane> &planes,
                  ImportedPicture *out)
{
    const auto &fn = st.fn();
    std::vector<VkBuffer> object_buffer(pic.n_objects);
    for (unsigned o = 0; o < pic.n_objects; o++) {
        VkExternalMemoryBufferCreateInfo ei = make<VkExternalMemoryBufferCreateInfo>(VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
        ei.handleTypes = VkExternalMemoryHandleTypeFlags(type);
        VkBufferCreateInfo bi = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
        bi.pNext = &ei;
        bi.size = sizes[o];
        bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        VkBuffer b;
        if (VkResult r = fn.vkCreateBuffer(st.device(), &bi, nullptr, &b); r != VK_SUCCESS) {
            log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: vkCreateBuffer: %s\n", result_name(r));
            return errno_from(r);
        }
        out->owned->buffers.push_back(b);
        VkMemoryRequirements req;
        fn.vkGetBufferMemoryRequirements(st.device(), b, &req);
        VkDeviceMemory mem;
        if (int err = import_memory(st, type, pic.objects[o].fd, sizes[o], pic.objects[o].memory_type_index, req,
                                    VK_NULL_HANDLE, &mem))
            return err;
        out->owned->memory.push_back(mem);
        if (VkResult r = fn.vkBindBufferMemory(st.device(), b, mem, 0); r != VK_SUCCESS) {
            log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: vkBindBufferMemory: %s\n", result_name(r));
            return errno_from(r);
        }
        object_buffer[o] = b;
        out->external_buffers.push_back(b);
    }
    for (const ExternalPlane &p : planes) {
        PlaneSource s;
        s.buffer = object_buffer[p.object];
        s.offset = p.offset;
        s.pitch = p.pitch;
        s.components = p.components;
        s.bytes = out->fmt.bpc > 8 ? 2 : 1;
        out->sources.push_back(s);
    }
    return 0;
}

// Tiled DMA-BUF planes: one image per plane with the explicit modifier layout.
int import_tiled(State &st, const VmafVulkanExternalPicture &pic, const std::vector<VkDeviceSize> &sizes,
                 const std::vector<ExternalPlane> &planes, ImportedPicture *out)
{
    const auto &fn = st.fn();
    const bool deep = out->fmt.bpc > 8;
    for (const ExternalPlane &p : planes) {
        VkSubresourceLayout layout{};
        layout.offset = p.offset;
        layout.rowPitch = p.pitch;
        VkImageDrmFormatModifierExplicitCreateInfoEXT mi = make<VkImageDrmFormatModifierExplicitCreateInfoEXT>(VK_STRUCTURE_TYPE_IMAGE_DRM_FORMAT_MODIFIER_EXPLICIT_CREATE_INFO_EXT);
        mi.drmFormatModifier = pic.drm_format_modifier;
        mi.drmFormatModifierPlaneCount = 1;
        mi.pPlaneLayouts = &layout;
        VkExternalMemoryImageCreateInfo ei = make<VkExternalMemoryImageCreateInfo>(VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO);
        ei.pNext = &mi;
        ei.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
        VkImageCreateInfo ci = make<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
        ci.pNext = &ei;
        ci.imageType = VK_IMAGE_TYPE_2D;
        ci.format = p.components == 2 ? (deep ? VK_FORMAT_R16G16_UNORM : VK_FORMAT_R8G8_UNORM)
                                      : (deep ? VK_FORMAT_R16_UNORM : VK_FORMAT_R8_UNORM);
        ci.extent = {p.w, p.h, 1};
        ci.mipLevels = 1;
        ci.arrayLayers = 1;
        ci.samples = VK_SAMPLE_COUNT_1_BIT;
        ci.tiling = VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT;
        ci.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
        ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        // Creating an image of a format and modifier the device cannot import is
        // undefined: ask first.
        VkPhysicalDeviceImageDrmFormatModifierInfoEXT qm = make<VkPhysicalDeviceImageDrmFormatModifierInfoEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_DRM_FORMAT_MODIFIER_INFO_EXT);
        qm.drmFormatModifier = pic.drm_format_modifier;
        qm.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        VkPhysicalDeviceExternalImageFormatInfo qe = make<VkPhysicalDeviceExternalImageFormatInfo>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO);
        qe.pNext = &qm;
        qe.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
        VkPhysicalDeviceImageFormatInfo2 qi = make<VkPhysicalDeviceImageFormatInfo2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2);
        qi.pNext = &qe;
        qi.format = ci.format;
        qi.type = ci.imageType;
        qi.tiling = ci.tiling;
        qi.usage = ci.usage;
        VkExternalImageFormatProperties ep = make<VkExternalImageFormatProperties>(VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES);
        VkImageFormatProperties2 fp = make<VkImageFormatProperties2>(VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2);
        fp.pNext = &ep;
        const auto query = st.ifn().GetPhysicalDeviceImageFormatProperties2;
        const VkResult q = query ? query(st.physical_device(), &qi, &fp) : VK_ERROR_FORMAT_NOT_SUPPORTED;
        if (q != VK_SUCCESS || !(ep.externalMemoryProperties.externalMemoryFeatures &
                                 VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT) ||
            p.w > fp.imageFormatProperties.maxExtent.width || p.h > fp.imageFormatProperties.maxExtent.height) {
            log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: the device cannot import a %ux%u VkFormat %d "
                                      "DMA-BUF with DRM format modifier 0x%llx\n", p.w, p.h, int(ci.format),
                (unsigned long long)pic.drm_format_modifier);
            return -ENOTSUP;
        }
        VkImage image;
        if (VkResult r = fn.vkCreateImage(st.device(), &ci, nullptr, &image); r != VK_SUCCESS) {
            log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: modifier 0x%llx, VkFormat %d: vkCreateImage: "
                                      "%s\n", (unsigned long long)pic.drm_format_modifier, int(ci.format),
                result_name(r));
            return errno_from(r);
        }
        out->owned->images.push_back(image);
        VkMemoryRequirements req;
        fn.vkGetImageMemoryRequirements(st.device(), image, &req);
        VkDeviceMemory mem;
        if (int err = import_memory(st, VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, pic.objects[p.object].fd,
                                    sizes[p.object], 0, req, image, &mem))
            return err;
        out->owned->memory.push_back(mem);
        if (VkResult r = fn.vkBindImageMemory(st.device(), image, mem, 0); r != VK_SUCCESS) {
            log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_import_external: vkBindImageMemory: %s\n", result_name(r));
            return errno_from(r);
        }
        PlaneSource s;
        s.image = image;
        s.components = p.components;
        s.bytes = deep ? 2 : 1;
        out->sources.push_back(s);
        out->external_images.push_back(image);
    }
    return 0;
}

// The value a C caller stored in an enum field, out-of-range ones included
// (loading those through the C++ enum type is undefined).
template <typename E>
int enum_value(const E &field)
{
    static_assert(sizeof(E) == sizeof(int));
    int v;
    std::memcpy(&v, &field, sizeof v);
    return v;
}

}  // namespace

int import_external(State &st, const VmafVulkanExternalPicture &pic, ImportedPicture *out)
{
    constexpr const char *what = "vmaf_vulkan_import_external";
    if (!reserved_zero(pic.reserved, std::size(pic.reserved))) return invalid(what, "reserved fields must be zero");
    if (int err = check_geometry(what, pic.pix_fmt, pic.bpc, pic.width, pic.height)) return err;
    const int memory = enum_value(pic.type);
    const bool dma_buf = memory == VMAF_VULKAN_EXTERNAL_MEMORY_DMA_BUF;
    if (!dma_buf && memory != VMAF_VULKAN_EXTERNAL_MEMORY_OPAQUE_FD) return invalid(what, "unknown memory type");
    const bool linear = pic.drm_format_modifier == VMAF_VULKAN_DRM_FORMAT_MOD_LINEAR;
    if (!dma_buf && !linear) return invalid(what, "opaque fds hold linear planes (drm_format_modifier 0)");
    if (pic.n_objects < 1 || pic.n_objects > VMAF_VULKAN_MAX_IMAGES) return invalid(what, "n_objects is 1 to 3");
    const bool mono = pic.pix_fmt == VMAF_PIX_FMT_YUV400P;
    if (pic.n_planes != (mono ? 1u : 2u) && pic.n_planes != (mono ? 1u : 3u))
        return invalid(what, "n_planes is 1 for 4:0:0, else 2 (interleaved chroma) or 3");

    // The device can do it at all?
    if (int err = need_extension(st, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
                                 dma_buf ? "DMA-BUF import" : "opaque fd import"))
        return err;
    if (dma_buf)
        if (int err = need_extension(st, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME, "DMA-BUF import")) return err;
    if (!linear)
        if (int err = need_extension(st, VK_EXT_IMAGE_DRM_FORMAT_MODIFIER_EXTENSION_NAME,
                                     "a DMA-BUF with a tiled DRM format modifier"))
            return err;

    const int shift = sample_shift(pic.bpc > 8 ? 2 : 1, 0, pic.bpc, pic.msb_aligned != 0);
    ImportedPicture res;
    res.fmt = FrameFormat{pic.pix_fmt, pic.bpc, pic.width, pic.height};
    res.shift = unsigned(shift);
    res.owned = std::make_unique<ImportedObjects>(st);

    std::vector<VkDeviceSize> sizes(pic.n_objects);
    for (unsigned o = 0; o < pic.n_objects; o++) {
        if (pic.objects[o].fd < 0) return invalid(what, "a file descriptor is negative");
        sizes[o] = pic.objects[o].size;
        if (!sizes[o] && dma_buf) {
            const off_t end = lseek(pic.objects[o].fd, 0, SEEK_END);
            if (end > 0) sizes[o] = VkDeviceSize(end);
        }
        if (!sizes[o]) return invalid(what, "an object's size is unknown (set objects[i].size)");
    }

    unsigned ss_x, ss_y;
    chroma_shift(pic.pix_fmt, &ss_x, &ss_y);
    const unsigned bytes = pic.bpc > 8 ? 2 : 1;
    std::vector<ExternalPlane> planes;
    for (unsigned i = 0; i < pic.n_planes; i++) {
        const auto &d = pic.planes[i];
        ExternalPlane p;
        p.object = d.object;
        p.w = i ? (pic.width + ss_x) >> ss_x : pic.width;
        p.h = i ? (pic.height + ss_y) >> ss_y : pic.height;
        p.components = pic.n_planes == 2 && i == 1 ? 2 : 1;
        p.offset = d.offset;
        p.pitch = d.pitch;
        if (d.object >= pic.n_objects) return invalid(what, "a plane's object index is out of range");
        if (d.offset % 4 || d.pitch % 4) return invalid(what, "plane offsets and pitches must be multiples of 4");
        const VkDeviceSize row = VkDeviceSize(p.w) * p.components * bytes;
        if (d.pitch < row) return invalid(what, "a plane's pitch is shorter than its row");
        if (linear && d.offset + d.pitch * (p.h - 1) + row > sizes[d.object])
            return invalid(what, "a plane reaches past the end of its object");
        planes.push_back(p);
    }
    if (pic.n_planes == 2) {
        const unsigned source[3] = {0, 1, 1}, component[3] = {0, 0, 1};
        std::copy(source, source + 3, res.source);
        std::copy(component, component + 3, res.component);
    } else {
        for (unsigned p = 0; p < pic.n_planes; p++) res.source[p] = p;
    }

    const VkExternalMemoryHandleTypeFlagBits type =
        dma_buf ? VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT : VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    const int err = linear ? import_linear(st, pic, type, sizes, planes, &res) : import_tiled(st, pic, sizes, planes, &res);
    if (err) return err;
    *out = std::move(res);
    return 0;
}

}  // namespace vmaf::vk
