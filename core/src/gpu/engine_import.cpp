// SPDX-License-Identifier: BSD-2-Clause-Patent
// The frame engine's imports: caller images and external memory, acquired,
// copied or sampled into the planes of FrameBuffers (the unpack kernels), and
// their submission with the semaphores they carry.
#include "gpu/engine.h"

#include <algorithm>
#include <cerrno>

#include "util/align.h"
#include "util/log.h"
#include "spirv.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
#include "vulkan/import.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {

// The raw copies of stored planes, per picture and plane: room for two samples
// per pixel (interleaved chroma) in rows of whole vectors.
int Engine::init_unpack()
{
    if (unpack_) return 0;
    VkDeviceSize at = 0;
    for (unsigned k = 0; k < 2; k++) {
        for (unsigned p = 0; p < frame_.n_planes; p++) {
            const PlaneRegion &r = frame_.ref[p];
            raw_region_[k][p].offset = at;
            raw_region_[k][p].stride = uint32_t(align_up(VkDeviceSize(r.w) * 2 * frame_.bytes_per_sample, kRowAlign));
            at = align_up(at + VkDeviceSize(raw_region_[k][p].stride) * r.h, kBindAlign);
        }
    }
    if (int err = st_.allocator().create_buffer(at, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                MemoryUse::Device, &raw_))
        return err;
    PipelineDesc d;
    d.shader = &spirv::import_unpack;
    d.buffers = 2;
    d.push_constant_size = 10 * sizeof(uint32_t);
    if (int err = ComputePipeline::create(st_, d, &unpack_)) return err;
    const BufferRange buffers[] = {{raw_.get(), 0, raw_.size()}, {planes_.get(), 0, frame_.planes_size}};
    if (int err = unpack_->make_set(buffers, &unpack_set_)) return err;

    PipelineDesc sd;
    sd.shader = &spirv::import_sample;
    sd.buffers = 1;
    sd.images = 1;
    sd.push_constant_size = 8 * sizeof(uint32_t);
    sd.max_sets = unsigned(slots_.size()) * 2 * 3;
    if (int err = ComputePipeline::create(st_, sd, &sample_)) return err;
    sample_sets_.resize(sd.max_sets);
    const BufferRange planes[] = {{planes_.get(), 0, frame_.planes_size}};
    for (VkDescriptorSet &set : sample_sets_)
        if (int err = sample_->make_set(planes, &set)) return err;
    return 0;
}

int Engine::check_imported(const ImportedPicture &pic) const
{
    if (pic.fmt.pix_fmt == fmt_.pix_fmt && pic.fmt.bpc == fmt_.bpc && pic.fmt.w == fmt_.w && pic.fmt.h == fmt_.h)
        return 0;
    log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: an imported %ux%u %u-bit picture (pix_fmt %d) does not match the "
                              "%ux%u %u-bit pix_fmt %d of the first import\n", pic.fmt.w, pic.fmt.h, pic.fmt.bpc,
        pic.fmt.pix_fmt, fmt_.w, fmt_.h, fmt_.bpc, fmt_.pix_fmt);
    return -EINVAL;
}

// Before the copies: acquire images and external memory from their owners and
// bring images to a layout copies read from. After: the images' final layouts.
void Engine::record_image_barriers(VkCommandBuffer cmd, ImportedPicture *const pics[2], bool before)
{
    const auto &fn = st_.fn();
    const uint32_t ours = st_.queue_family();
    std::vector<VkImageMemoryBarrier> acquire, transition;
    std::vector<VkBufferMemoryBarrier> buffers;
    auto image_barrier = [&](VkImage image, VkImageLayout from, VkImageLayout to, uint32_t src_family) {
        VkImageMemoryBarrier b = make<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
        b.srcAccessMask = 0;  // the semaphore wait made the producer's writes visible
        b.dstAccessMask = before ? VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT : 0;
        b.oldLayout = from;
        b.newLayout = to;
        b.srcQueueFamilyIndex = src_family;
        b.dstQueueFamilyIndex = src_family == VK_QUEUE_FAMILY_IGNORED ? VK_QUEUE_FAMILY_IGNORED : ours;
        b.image = image;
        b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        return b;
    };
    std::vector<VkImage> seen;  // an image both pictures read is transitioned once
    for (unsigned k = 0; k < 2; k++) {
        for (const ImageUse &u : pics[k]->images) {
            if (std::find(seen.begin(), seen.end(), u.image) != seen.end()) continue;
            seen.push_back(u.image);
            const VkImageLayout read = u.read_layout;
            if (before) {
                // The acquire half of an ownership transfer keeps the layout the
                // owner released it in; the transition follows on our queue.
                if (u.family != VK_QUEUE_FAMILY_IGNORED) acquire.push_back(image_barrier(u.image, u.layout, u.layout, u.family));
                if (read != u.layout) transition.push_back(image_barrier(u.image, u.layout, read, VK_QUEUE_FAMILY_IGNORED));
            } else if (read != u.final_layout) {
                transition.push_back(image_barrier(u.image, read, u.final_layout, VK_QUEUE_FAMILY_IGNORED));
            }
        }
        if (!before) continue;
        // External memory: acquired from outside Vulkan (or another device).
        const uint32_t outside = st_.has_extension(VK_EXT_QUEUE_FAMILY_FOREIGN_EXTENSION_NAME)
                                     ? VK_QUEUE_FAMILY_FOREIGN_EXT : VK_QUEUE_FAMILY_EXTERNAL;
        for (VkImage image : pics[k]->external_images) {
            VkImageMemoryBarrier b = image_barrier(image, VK_IMAGE_LAYOUT_UNDEFINED,
                                                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, outside);
            transition.push_back(b);
        }
        for (VkBuffer buffer : pics[k]->external_buffers) {
            VkBufferMemoryBarrier b = make<VkBufferMemoryBarrier>(VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER);
            b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
            b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
            b.dstQueueFamilyIndex = ours;
            b.buffer = buffer;
            b.size = VK_WHOLE_SIZE;
            buffers.push_back(b);
        }
    }
    // Before: after the semaphore waits, which block the copies and kernels that
    // read the images. After: once those reads are done.
    constexpr VkPipelineStageFlags kRead = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    const VkPipelineStageFlags src = kRead;
    const VkPipelineStageFlags dst = before ? kRead : VkPipelineStageFlags(VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    if (!acquire.empty())
        fn.vkCmdPipelineBarrier(cmd, src, dst, 0, 0, nullptr, 0, nullptr, uint32_t(acquire.size()), acquire.data());
    if (!transition.empty() || !buffers.empty())
        fn.vkCmdPipelineBarrier(cmd, src, dst, 0, 0, nullptr, uint32_t(buffers.size()), buffers.data(),
                                uint32_t(transition.size()), transition.data());
}

// A sampled picture: each plane read from its source's view by one kernel.
void Engine::record_sampled(VkCommandBuffer cmd, unsigned slot, unsigned k, const ImportedPicture &pic)
{
    const PlaneRegion *regions = k ? frame_.dist : frame_.ref;
    for (unsigned p = 0; p < frame_.n_planes; p++) {
        const PlaneSource &src = pic.sources[pic.source[p]];
        const VkDescriptorSet set = sample_sets_[(slot * 2 + k) * 3 + p];
        sample_->set_image(set, 0, src.view, pic.read_layout_of(VK_IMAGE_LAYOUT_UNDEFINED, src.image));
        const PlaneRegion &r = regions[p];
        const uint32_t max_code = (1u << (8 * src.bytes)) - 1;  // of the R8/R16 view's UNORM
        const uint32_t push[8] = {uint32_t(r.offset / 4), r.stride / 4, r.w, r.h, pic.component[p],
                                  max_code, src.bytes, pic.shift};
        const uint32_t per_word = 4 / src.bytes;
        const uint32_t words = (r.w + per_word - 1) / per_word;
        // Workgroups of 64 x 4 invocations, each four words of two rows
        // (16-byte blocks: kBindAlign, kRowAlign).
        sample_->dispatch(cmd, set, push, (words + 255) / 256, (r.h + 7) / 8);
    }
}

int Engine::record_imported(VkCommandBuffer cmd, unsigned slot, ImportedPicture *const pics[2])
{
    const auto &fn = st_.fn();
    const PlaneRegion *regions[2] = {frame_.ref, frame_.dist};
    record_image_barriers(cmd, pics, true);
    for (unsigned k = 0; k < 2; k++)
        if (pics[k]->sampled) record_sampled(cmd, slot, k, *pics[k]);

    // Copies: straight into the planes where the stored plane already is one
    // (one component, nothing to shift), else into the raw buffer to unpack.
    struct Unpack {
        unsigned k, p, source_plane;
        const PlaneSource *src;
    };
    std::vector<Unpack> unpacks;
    for (unsigned k = 0; k < 2; k++) {
        const ImportedPicture &pic = *pics[k];
        if (pic.sampled) continue;
        for (unsigned p = 0; p < frame_.n_planes; p++) {
            const unsigned si = pic.source[p];
            // The first plane that reads a source copies it.
            unsigned first = p;
            for (unsigned q = 0; q < p; q++)
                if (pic.source[q] == si) first = q;
            const PlaneSource &src = pic.sources[si];
            const bool direct = src.components == 1 && pic.shift == 0;
            if (!direct) unpacks.push_back({k, p, first, &src});
            if (first != p) continue;
            const PlaneRegion &r = regions[k][p];
            const VkBuffer dst = direct ? planes_.get() : raw_.get();
            const VkDeviceSize dst_offset = direct ? r.offset : raw_region_[k][p].offset;
            const uint32_t dst_stride = direct ? r.stride : raw_region_[k][p].stride;
            const uint32_t texel = src.components * src.bytes;
            if (src.image) {
                VkBufferImageCopy c{};
                c.bufferOffset = dst_offset;
                c.bufferRowLength = dst_stride / texel;
                c.imageSubresource = {VkImageAspectFlags(src.aspect), 0, 0, 1};
                c.imageExtent = {r.w, r.h, 1};
                const VkImageLayout layout = pic.read_layout_of(VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, src.image);
                fn.vkCmdCopyImageToBuffer(cmd, src.image, layout, dst, 1, &c);
            } else {
                const VkDeviceSize row = VkDeviceSize(r.w) * texel;
                std::vector<VkBufferCopy> copies;
                if (src.pitch == dst_stride) {
                    copies.push_back({src.offset, dst_offset, src.pitch * (r.h - 1) + row});
                } else {
                    for (unsigned y = 0; y < r.h; y++)
                        copies.push_back({src.offset + y * src.pitch, dst_offset + VkDeviceSize(y) * dst_stride, row});
                }
                fn.vkCmdCopyBuffer(cmd, src.buffer, dst, uint32_t(copies.size()), copies.data());
            }
        }
    }
    record_image_barriers(cmd, pics, false);
    if (unpacks.empty()) return 0;

    // The unpack kernels read the raw copies and write the planes the copies
    // may also have written (a plane-per-image source next to an interleaved one).
    memory_barrier(st_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    for (const Unpack &u : unpacks) {
        const PlaneRegion &r = regions[u.k][u.p];
        const RawRegion &raw = raw_region_[u.k][u.source_plane];
        const uint32_t push[10] = {uint32_t(raw.offset), raw.stride, uint32_t(r.offset / 4), r.stride / 4, r.w, r.h,
                                   u.src->components, pics[u.k]->component[u.p], u.src->bytes, pics[u.k]->shift};
        const uint32_t per_word = 4 / u.src->bytes;
        const uint32_t words = (r.w + per_word - 1) / per_word;
        unpack_->dispatch(cmd, unpack_set_, push, (words + 63) / 64, (r.h + 3) / 4);
    }
    return 0;
}

namespace {

// One wait and one signal per semaphore: the largest values asked for.
void add_op(std::vector<SemaphoreOp> *ops, VkSemaphore sem, uint64_t value, VkPipelineStageFlags stage)
{
    for (SemaphoreOp &o : *ops) {
        if (o.semaphore != sem) continue;
        o.value = std::max(o.value, value);
        return;
    }
    ops->push_back({sem, value, stage});
}

}  // namespace

int Engine::submit_imported(std::unique_ptr<ImportedPicture> ref, std::unique_ptr<ImportedPicture> dist,
                            unsigned index, ScoreSink &sink)
{
    const auto t0 = std::chrono::steady_clock::now();
    const int err = submit_imported_frame(std::move(ref), std::move(dist), index, sink);
    note_call(t0, std::chrono::steady_clock::now());
    return err;
}

int Engine::submit_imported_frame(std::unique_ptr<ImportedPicture> ref, std::unique_ptr<ImportedPicture> dist,
                                  unsigned index, ScoreSink &sink)
{
    if (error_) return error_;
    if (int err = worker_error()) return err;
    if (flushed_ || !ref || !dist) return -EINVAL;
    if (int err = check_imported(*ref)) return err;
    if (int err = check_imported(*dist)) return err;
    // An image both pictures read must be left in one layout.
    for (const ImageUse &a : ref->images) {
        for (const ImageUse &b : dist->images) {
            if (a.image == b.image && (a.layout != b.layout || a.final_layout != b.final_layout)) {
                log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: frame %u reads one image with two layouts\n", index);
                return -EINVAL;
            }
            if (a.image == b.image && a.read_layout != b.read_layout) {
                log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: frame %u reads one image both sampled and copied (the two "
                    "descriptions give it different usage or flags)\n", index);
                return -EINVAL;
            }
        }
    }
    if (int err = init_unpack()) return fail(err);
    if (!import_logged_) {
        import_logged_ = true;
        for (const ImportedPicture *pic : {ref.get(), dist.get()}) {
            const char *side = pic == ref.get() ? "reference" : "distorted";
            if (pic->sampled)
                log(VMAF_LOG_LEVEL_INFO, "Vulkan engine: imported %s pictures are sampled in place\n", side);
            else
                log(VMAF_LOG_LEVEL_INFO, "Vulkan engine: imported %s pictures are copied (%s)\n", side,
                    pic->why_copied);
        }
    }

    std::vector<SemaphoreOp> waits, signals;
    for (const ImportedPicture *pic : {ref.get(), dist.get()}) {
        for (const ImageUse &u : pic->images) {
            add_op(&waits, u.semaphore, u.wait, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
            add_op(&signals, u.semaphore, u.signal, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
        }
    }
    unsigned slot;
    if (int err = begin_frame(sink, &slot)) return err;
    ImportedPicture *pics[2] = {ref.get(), dist.get()};
    const Loader load = [this, slot, pics](VkCommandBuffer cmd) { return record_imported(cmd, slot, pics); };
    if (int err = record_and_submit(slot, index, load, waits, signals)) return fail(err);
    slots_[slot].imported[0] = std::move(ref);
    slots_[slot].imported[1] = std::move(dist);
    return 0;
}

}  // namespace vmaf::vk
