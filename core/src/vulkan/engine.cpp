#include "vulkan/engine.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "context/context.h"
#include "picture/picture.h"
#include "util/log.h"
#include "vulkan/command.h"
#include "vulkan/context.h"

namespace vmaf::vk {

namespace {

VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

bool valid_format(const FrameFormat &f)
{
    const bool fmt_ok = f.pix_fmt == VMAF_PIX_FMT_YUV420P || f.pix_fmt == VMAF_PIX_FMT_YUV422P ||
                        f.pix_fmt == VMAF_PIX_FMT_YUV444P || f.pix_fmt == VMAF_PIX_FMT_YUV400P;
    const bool bpc_ok = f.bpc == 8 || f.bpc == 10 || f.bpc == 12 || f.bpc == 16;
    return fmt_ok && bpc_ok && f.w && f.h;
}

}  // namespace

bool Engine::supports(const ExtractorInfo &info, const FeatureOptions &opts)
{
    const FeatureInfo *f = find_gpu_feature(info.name);
    return f && f->supports(opts);
}

int Engine::create(State *state, const FrameFormat &fmt, FeatureList features, std::unique_ptr<Engine> *out)
{
    if (!state || !out) return -EINVAL;
    if (!valid_format(fmt)) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: unsupported picture format (%d, %u-bit, %ux%u)\n",
            fmt.pix_fmt, fmt.bpc, fmt.w, fmt.h);
        return -EINVAL;
    }
    std::unique_ptr<Engine> e(new Engine(*state));
    if (int err = e->init(fmt, features)) return err;
    *out = std::move(e);
    return 0;
}

int Engine::create(State *state, const FrameFormat &fmt, FeatureList features,
                   std::unique_ptr<Engine, EngineDeleter> *out)
{
    std::unique_ptr<Engine> e;
    if (int err = create(state, fmt, std::move(features), &e)) return err;
    out->reset(e.release());
    return 0;
}

Engine::~Engine()
{
    // The GPU must be done with everything before features and buffers go.
    if (ring_) ring_->wait_all();
    ring_.reset();
    features_.clear();
}

void Engine::layout_planes(const FrameFormat &fmt)
{
    unsigned ss_x, ss_y;
    chroma_shift(fmt.pix_fmt, &ss_x, &ss_y);
    frame_.n_planes = plane_count(fmt.pix_fmt);
    frame_.bpc = fmt.bpc;
    frame_.bytes_per_sample = bytes_per_sample(fmt.bpc);
    VkDeviceSize at = 0;
    for (PlaneRegion *pic : {frame_.ref, frame_.dist}) {
        for (unsigned p = 0; p < frame_.n_planes; p++) {
            PlaneRegion &r = pic[p];
            r.w = p ? (fmt.w + ss_x) >> ss_x : fmt.w;  // the picture's own rounding
            r.h = p ? (fmt.h + ss_y) >> ss_y : fmt.h;
            r.stride = uint32_t(align_up(VkDeviceSize(r.w) * frame_.bytes_per_sample, kRowAlign));
            r.offset = at;
            at = align_up(at + VkDeviceSize(r.stride) * r.h, kPlaneAlign);
        }
    }
    frame_.planes_size = at;
}

int Engine::init(const FrameFormat &fmt, const FeatureList &list)
{
    fmt_ = fmt;
    layout_planes(fmt);
    if (frame_.planes_size > st_.limits().maxStorageBufferRange) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: %ux%u %u-bit pictures need %llu bytes of planes; %s binds "
                                  "at most %u\n", fmt.w, fmt.h, fmt.bpc, (unsigned long long)frame_.planes_size,
            st_.info().name.c_str(), st_.limits().maxStorageBufferRange);
        return -ENOTSUP;
    }

    // Features, and where each one's results go within a slot.
    const VkDeviceSize result_align = std::max<VkDeviceSize>(st_.limits().minStorageBufferOffsetAlignment, 16);
    VkDeviceSize at = 0;
    for (const auto &[info, opts] : list) {
        const FeatureInfo *fi = find_gpu_feature(info->name);
        if (!fi || !fi->supports(opts)) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: feature %s cannot run on the GPU\n", info->name);
            return -ENOTSUP;
        }
        Entry e{fi->create(opts), fi->name, at, 0};
        if (!e.feature) return -ENOMEM;
        if (int err = e.feature->init(st_, fmt, &e.bytes)) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: feature %s failed to start (%d)\n", fi->name, err);
            return err;
        }
        at = align_up(at + e.bytes, result_align);
        features_.push_back(std::move(e));
    }
    slot_results_size_ = std::max<VkDeviceSize>(at, result_align);

    const unsigned n = st_.frames_in_flight();
    Allocator &a = st_.allocator();
    constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (int err = a.create_buffer(frame_.planes_size, kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                  MemoryUse::Device, &planes_))
        return err;
    if (int err = a.create_buffer(slot_results_size_ * n, kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  MemoryUse::Device, &results_))
        return err;
    slots_.resize(n);
    for (Slot &s : slots_) {
        if (int err = a.create_buffer(frame_.planes_size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload,
                                      &s.staging))
            return err;
        if (int err = a.create_buffer(slot_results_size_, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback,
                                      &s.readback))
            return err;
    }
    frame_.planes = planes_.get();
    frame_.results = results_.get();
    frame_.results_size = results_.size();

    for (Entry &e : features_)
        if (int err = e.feature->bind(frame_)) return err;
    if (int err = FrameRing::create(st_, n, &ring_)) return err;

    log(VMAF_LOG_LEVEL_INFO, "Vulkan engine: %zu feature(s) on %s, %u frames in flight\n", features_.size(),
        st_.info().name.c_str(), n);
    return 0;
}

int Engine::check_picture(const VmafPicture &pic) const
{
    bool ok = pic.pix_fmt == fmt_.pix_fmt && pic.bpc == fmt_.bpc;
    for (unsigned p = 0; ok && p < frame_.n_planes; p++)
        ok = pic.data[p] && pic.w[p] == frame_.ref[p].w && pic.h[p] == frame_.ref[p].h &&
             pic.stride[p] >= ptrdiff_t(pic.w[p] * frame_.bytes_per_sample);
    if (ok) return 0;
    log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: a picture does not match the %ux%u %u-bit format it started with\n",
        fmt_.w, fmt_.h, fmt_.bpc);
    return -EINVAL;
}

void Engine::upload(const VmafPicture &ref, const VmafPicture &dist, unsigned slot)
{
    std::byte *base = slots_[slot].staging.data();
    const PlaneRegion *regions[2] = {frame_.ref, frame_.dist};
    const VmafPicture *pics[2] = {&ref, &dist};
    for (unsigned k = 0; k < 2; k++) {
        for (unsigned p = 0; p < frame_.n_planes; p++) {
            const PlaneRegion &r = regions[k][p];
            const auto *src = static_cast<const std::byte *>(pics[k]->data[p]);
            const size_t row = size_t(r.w) * frame_.bytes_per_sample;
            std::byte *dst = base + r.offset;
            if (pics[k]->stride[p] == ptrdiff_t(r.stride)) {
                std::memcpy(dst, src, size_t(r.stride) * (r.h - 1) + row);  // one run, padding and all
                continue;
            }
            for (unsigned y = 0; y < r.h; y++)
                std::memcpy(dst + size_t(y) * r.stride, src + y * pics[k]->stride[p], row);
        }
    }
}

int Engine::record_and_submit(unsigned slot, unsigned index)
{
    const auto &fn = st_.fn();
    VkCommandBuffer cmd;
    if (int err = ring_->begin(slot, &cmd)) return err;

    // Frames run in submission order: everything earlier frames did is complete
    // and visible before this one overwrites the shared planes.
    constexpr VkPipelineStageFlags kWork = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    memory_barrier(st_, cmd, kWork, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, kWork,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                       VK_ACCESS_TRANSFER_WRITE_BIT);
    const VkBufferCopy up{0, 0, frame_.planes_size};
    fn.vkCmdCopyBuffer(cmd, slots_[slot].staging.get(), planes_.get(), 1, &up);
    memory_barrier(st_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);

    const VkDeviceSize results_at = slot_results_size_ * slot;
    for (Entry &e : features_) {
        if (int err = e.feature->record({cmd, slot, index, results_at + e.offset})) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: feature %s failed to record frame %u (%d)\n", e.name,
                index, err);
            return err;
        }
    }

    memory_barrier(st_, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferCopy down{results_at, 0, slot_results_size_};
    fn.vkCmdCopyBuffer(cmd, results_.get(), slots_[slot].readback.get(), 1, &down);
    memory_barrier(st_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    return ring_->submit(slot);
}

int Engine::collect_oldest(ScoreSink &sink)
{
    const Pending f = pending_.front();
    if (int err = ring_->wait(f.slot)) return err;
    const Buffer &rb = slots_[f.slot].readback;
    if (int err = rb.invalidate()) return err;
    pending_.pop_front();
    for (Entry &e : features_) {
        const std::span<const std::byte> results(rb.data() + e.offset, e.bytes);
        if (int err = e.feature->collect(results, f.index, sink)) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: feature %s failed on frame %u (%d)\n", e.name, f.index,
                err);
            return err;
        }
    }
    return 0;
}

int Engine::collect_done(ScoreSink &sink)
{
    while (!pending_.empty()) {
        bool done = false;
        if (int err = ring_->poll(pending_.front().slot, &done)) return err;
        if (!done) return 0;
        if (int err = collect_oldest(sink)) return err;
    }
    return 0;
}

int Engine::fail(int err)
{
    if (!error_) error_ = err;
    return err;
}

int Engine::submit(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &sink)
{
    if (error_) return error_;
    if (flushed_) return -EINVAL;
    if (int err = check_picture(ref)) return err;
    if (int err = check_picture(dist)) return err;
    if (int err = collect_done(sink)) return fail(err);
    // The ring is used in order, so the slot to fill is the oldest one in flight.
    if (pending_.size() == slots_.size())
        if (int err = collect_oldest(sink)) return fail(err);
    const unsigned slot = next_slot_;
    upload(ref, dist, slot);
    if (int err = slots_[slot].staging.flush()) return fail(err);
    if (int err = record_and_submit(slot, index)) return fail(err);
    pending_.push_back({slot, index});
    next_slot_ = (slot + 1) % unsigned(slots_.size());
    return 0;
}

int Engine::flush(ScoreSink &sink)
{
    if (error_) return error_;
    if (flushed_) return 0;
    while (!pending_.empty())
        if (int err = collect_oldest(sink)) return fail(err);
    flushed_ = true;
    for (Entry &e : features_)
        if (int err = e.feature->flush(sink)) return fail(err);
    return 0;
}

}  // namespace vmaf::vk
