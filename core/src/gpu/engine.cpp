#include "gpu/engine.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "context/collector.h"  // CallScope: scores listed as the CPU would write them
#include "feature/registry.h"
#include "picture/picture.h"
#include "util/align.h"
#include "util/env.h"
#include "util/log.h"
#include "spirv.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
#include "vulkan/device_picture.h"
#include "vulkan/host_import.h"
#include "vulkan/import.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {

namespace {

bool valid_format(const FrameFormat &f)
{
    const bool fmt_ok = f.pix_fmt == VMAF_PIX_FMT_YUV420P || f.pix_fmt == VMAF_PIX_FMT_YUV422P ||
                        f.pix_fmt == VMAF_PIX_FMT_YUV444P || f.pix_fmt == VMAF_PIX_FMT_YUV400P;
    const bool bpc_ok = f.bpc == 8 || f.bpc == 10 || f.bpc == 12 || f.bpc == 16;
    return fmt_ok && bpc_ok && f.w && f.h;
}

}  // namespace

bool Engine::supports(const State &st, const FrameFormat &fmt, const ExtractorInfo &info, const FeatureOptions &opts)
{
    const FeatureInfo *f = gpu_twin(info);
    return f && f->supports(st, fmt, opts);
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
    if (int err = e->init(fmt, features)) {
        if (state->hung()) (void)e.release();  // its set-up work may still run: keep what it uses
        return err;
    }
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

Engine::Engine(State &st) : st_(st) {}

Engine::~Engine()
{
    // The GPU must be done with everything before features, buffers and the
    // pictures and imports of frames in flight go.
    if (ring_) ring_->wait_all();
    ring_.reset();
    lane_ring_.reset();  // waits for the lane (done before the frames that waited for it)
    for (Slot &s : slots_) release_slot(s);
    host_imports_.reset();  // after the pictures: nothing reads them any more
    features_.clear();
    unpack_.reset();
    sample_.reset();
    if (timestamps_) st_.fn().vkDestroyQueryPool(st_.device(), timestamps_, nullptr);
}

void Engine::release_slot(Slot &s)
{
    for (VmafPicture &p : s.pictures) vmaf_picture_unref(&p);
    s.pictures.clear();
    s.imported[0].reset();
    s.imported[1].reset();
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
            at = align_up(at + VkDeviceSize(r.stride) * r.h, kBindAlign);
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
    // Configurations one instance serves together (FeatureInfo::shares), in
    // the order of their first, whose FeatureInfo makes the instance.
    struct Group {
        const FeatureInfo *fi;
        std::vector<SharedConfig> configs;
        std::vector<ScoreSink *> sinks;
    };
    std::vector<Group> groups;
    // A plain reference, not a structured binding: the lambda below captures
    // the options, which C++20 compilers before clang 16 refuse for bindings.
    for (const FeatureConfig &config : list) {
        const ExtractorInfo *info = config.info;
        const FeatureInfo *fi = gpu_twin(*info);
        if (!fi || !fi->supports(st_, fmt, config.opts)) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: feature %s cannot run on the GPU\n", info->name);
            return -ENOTSUP;
        }
        const SharedConfig c{fi, &config.opts};
        auto joins = [&](const Group &g) {
            const FeatureInfo *gi = g.fi;
            if (!gi->shares || !gi->create_shared || g.configs.size() >= gi->max_shared) return false;
            return std::all_of(g.configs.begin(), g.configs.end(),
                               [&](const SharedConfig &o) { return gi->shares(o, c); });
        };
        const auto g = std::find_if(groups.begin(), groups.end(), joins);
        if (g != groups.end()) {
            g->configs.push_back(c);
            g->sinks.push_back(config.sink);
        } else {
            groups.push_back({fi, {c}, {config.sink}});
        }
    }
    for (Group &g : groups) {
        const FeatureInfo *fi = g.fi;
        // Named after the features it serves, each once, in order.
        std::string name;
        const SharedConfig *configs = g.configs.data();
        for (const SharedConfig &c : g.configs)
            if (std::none_of(configs, &c, [&](const SharedConfig &o) { return o.info == c.info; })) {
                if (!name.empty()) name += '+';
                name += c.info->name;
            }
        Entry e{g.configs.size() > 1 ? fi->create_shared(g.configs) : fi->create(*g.configs[0].opts),
                std::move(name), at, 0, std::move(g.sinks), {}, {}};
        if (!e.feature) return -ENOMEM;
        if (e.feature->variants() != e.sinks.size()) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: feature %s serves %u configurations, not %zu\n",
                e.name.c_str(), e.feature->variants(), e.sinks.size());
            return -EINVAL;
        }
        if (int err = e.feature->init(st_, fmt, &e.bytes)) {
            log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: feature %s failed to start (%d)\n", e.name.c_str(), err);
            return err;
        }
        at = align_up(at + e.bytes, result_align);
        features_.push_back(std::move(e));
    }
    accept_carries();
    for (const Entry &e : features_) {
        stages_ = std::max({stages_, e.feature->stages(), e.feature->carried_stages()});
        carried_stages_ = std::max(carried_stages_, e.feature->carried_stages());
    }
    slot_results_size_ = std::max<VkDeviceSize>(at, result_align);

    const unsigned n = st_.frames_in_flight();
    Allocator &a = st_.allocator();
    constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (int err = a.create_buffer(frame_.planes_size,
                                  kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  MemoryUse::Device, &planes_))
        return err;
    // The features write their results straight into host memory: a frame's
    // are a few hundred KiB at most, and a copy from device memory at the end
    // of every frame cost the GPU a pause of its own (ADR 0051).
    if (int err = a.create_buffer(slot_results_size_ * n, kStorage, MemoryUse::Readback, &results_)) return err;
    slots_.resize(n);
    frame_.planes = planes_.get();
    frame_.results = results_.get();
    frame_.results_size = results_.size();

    for (Entry &e : features_)
        if (int err = e.feature->bind(frame_)) return err;
    if (int err = FrameRing::create(st_, n, &ring_)) return err;
    if (int err = init_timestamps()) return err;

    std::string why;
    host_imports_ = HostImports::create(st_, &why);
    log(VMAF_LOG_LEVEL_INFO, "Vulkan engine: %zu feature(s) (%zu instance(s)) on %s, %u frames in flight; host "
                             "pictures %s%s%s\n",
        list.size(), features_.size(), st_.info().name.c_str(), n,
        host_imports_ ? "read in place where their memory imports (VK_EXT_external_memory_host), else copied"
                      : "copied", host_imports_ ? "" : ": ", host_imports_ ? "" : why.c_str());
    return 0;
}

// Carrying on offer (gpu/feature.h, ADR 0050): taken when the frame then
// has fewer stages, unless VMAF_VULKAN_CARRY=0.
void Engine::accept_carries()
{
    unsigned plain = 0, carrying = 0;
    bool offered = false;
    for (const Entry &e : features_) {
        const Feature &f = *e.feature;
        const unsigned offer = std::min(f.carry_offer(), f.stages());
        plain = std::max({plain, f.stages(), f.carried_stages()});
        carrying = std::max({carrying, f.stages() - offer, std::max(f.carried_stages(), offer)});
        offered |= offer > 0;
    }
    if (!offered) return;
    const bool off = env_off("VMAF_VULKAN_CARRY");
    const bool take = carrying < plain && !off;
    log(VMAF_LOG_LEVEL_DEBUG, "Vulkan engine: %s the offered carries (%u stages per frame, %u with them)%s\n",
        take ? "taking" : "not taking", plain, carrying, off ? ": VMAF_VULKAN_CARRY=0" : "");
    if (!take) return;
    for (Entry &e : features_)
        if (e.feature->carry_offer() > 0) e.feature->carry();
}

int Engine::init_timestamps()
{
    if (!st_.timestamps()) return 0;
    if (st_.profiling()) {
        // The frame's parts in recording order (record_and_submit); "host copy"
        // joins them if enable_host_frames() is called.
        profile_.intervals.push_back({"upload"});
        for (unsigned stage = 0; stage < stages_; stage++) {
            for (const Entry &e : features_)
                if (stage < e.feature->carried_stages()) profile_.intervals.push_back({e.name, int(stage), true});
            for (const Entry &e : features_)
                if (stage < e.feature->stages()) profile_.intervals.push_back({e.name, int(stage)});
        }
        profile_.intervals.push_back({"readback"});
        points_ = unsigned(profile_.intervals.size()) + 1;
        slot_queries_ = points_ + 1;
    }
    VkQueryPoolCreateInfo qi = make<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = slot_queries_ * unsigned(slots_.size());
    const VkResult r = st_.fn().vkCreateQueryPool(st_.device(), &qi, nullptr, &timestamps_);
    if (r != VK_SUCCESS) {
        timestamps_ = VK_NULL_HANDLE;
        profile_.intervals.clear();
        log(VMAF_LOG_LEVEL_WARNING, "Vulkan engine: no timestamps (vkCreateQueryPool: %s)\n", result_name(r));
    }
    return 0;
}

std::vector<const char *> Engine::feature_names() const
{
    std::vector<const char *> names;
    for (const Entry &e : features_) names.push_back(e.name.c_str());
    return names;
}

// Profile mode: a timestamp once every command recorded so far is done, ending
// the interval `*point` - 1 and starting the next.
void Engine::mark(VkCommandBuffer cmd, unsigned slot, unsigned *point)
{
    if (profile_.intervals.empty()) return;
    st_.fn().vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_,
                                 slot * slot_queries_ + (*point)++);
}

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

int Engine::check_picture(const VmafPicture &pic) const
{
    if (const DevicePicture *d = device_picture(pic); d && d->state != &st_) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: a device picture from another Vulkan state\n");
        return -EINVAL;
    }
    bool ok = pic.pix_fmt == fmt_.pix_fmt && pic.bpc == fmt_.bpc;
    for (unsigned p = 0; ok && p < frame_.n_planes; p++)
        ok = pic.data[p] && pic.w[p] == frame_.ref[p].w && pic.h[p] == frame_.ref[p].h &&
             pic.stride[p] >= ptrdiff_t(pic.w[p] * frame_.bytes_per_sample);
    if (ok) return 0;
    log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: a picture does not match the %ux%u %u-bit format it started with\n",
        fmt_.w, fmt_.h, fmt_.bpc);
    return -EINVAL;
}

unsigned Engine::upload_threads(const FrameFormat &fmt)
{
    // One thread copies a few GB/s into staging memory: a 1080p pair (6 MB) takes
    // about a millisecond. Large frames are split over up to kMaxUploadThreads
    // threads; small ones are not worth waking threads for.
    constexpr unsigned kMaxUploadThreads = 6;
    constexpr uint64_t kBytesPerThread = 1u << 20;
    if (const char *e = std::getenv("VMAF_VULKAN_UPLOAD_THREADS"))
        return std::clamp(unsigned(std::strtoul(e, nullptr, 10)), 1u, 64u);
    const uint64_t bytes = 2 * picture_storage_size(fmt.pix_fmt, fmt.bpc, fmt.w, fmt.h);
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    return unsigned(std::clamp<uint64_t>(bytes / kBytesPerThread, 1, std::min(kMaxUploadThreads, hw)));
}

void Engine::upload(const VmafPicture &ref, const VmafPicture &dist, const bool copy[2], unsigned slot)
{
    std::byte *base = slots_[slot].staging.data();
    const PlaneRegion *regions[2] = {frame_.ref, frame_.dist};
    const VmafPicture *pics[2] = {&ref, &dist};
    // Part `part` of `parts`: the same band of rows of every plane of both pictures.
    auto copy_part = [&](unsigned part, unsigned parts) {
        for (unsigned k = 0; k < 2; k++) {
            if (!copy[k]) continue;
            for (unsigned p = 0; p < frame_.n_planes; p++) {
                const PlaneRegion &r = regions[k][p];
                const unsigned y0 = unsigned(uint64_t(r.h) * part / parts);
                const unsigned y1 = unsigned(uint64_t(r.h) * (part + 1) / parts);
                if (y0 == y1) continue;
                const ptrdiff_t sstride = pics[k]->stride[p];
                const auto *src = static_cast<const std::byte *>(pics[k]->data[p]) + ptrdiff_t(y0) * sstride;
                std::byte *dst = base + r.offset + size_t(y0) * r.stride;
                const size_t row = size_t(r.w) * frame_.bytes_per_sample;
                if (sstride == ptrdiff_t(r.stride)) {
                    std::memcpy(dst, src, size_t(r.stride) * (y1 - y0 - 1) + row);  // one run, padding and all
                    continue;
                }
                for (unsigned y = y0; y < y1; y++, src += sstride, dst += r.stride) std::memcpy(dst, src, row);
            }
        }
    };
    if (!upload_pool_) {
        copy_part(0, 1);
        return;
    }
    const unsigned parts = upload_pool_->size() + 1;  // the workers and this thread
    for (unsigned part = 1; part < parts; part++)
        upload_pool_->enqueue([&copy_part, part, parts](unsigned) { copy_part(part, parts); });
    copy_part(0, parts);
    upload_pool_->wait();
}

int Engine::record_feature(Entry &e, const Recording &rec, unsigned *point)
{
    // Profile mode: each feature's work after everything before it, so the
    // timestamps around it measure it alone.
    if (!profile_.intervals.empty()) full_barrier(rec.cmd);
    if (int err = e.feature->record(rec)) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: feature %s failed to record %sframe %u (%d)\n", e.name.c_str(),
            rec.carried ? "the work carried from " : "", rec.index, err);
        return err;
    }
    if (point) mark(rec.cmd, rec.slot, point);
    return 0;
}

void Engine::full_barrier(VkCommandBuffer cmd) const
{
    constexpr VkPipelineStageFlags kWork = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    memory_barrier(st_, cmd, kWork, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, kWork,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                       VK_ACCESS_TRANSFER_WRITE_BIT);
}

int Engine::record_and_submit(unsigned slot, unsigned index, const Loader &load, std::span<const SemaphoreOp> waits,
                              std::span<const SemaphoreOp> signals)
{
    const auto &fn = st_.fn();
    VkCommandBuffer cmd;
    if (int err = ring_->begin(slot, &cmd)) return err;
    unsigned point = 1;  // profile mode's next timestamp
    const bool profile = !profile_.intervals.empty();
    // The carried work alone is not a frame: no timestamps.
    const bool timed = timestamps_ && load;
    if (timed) {
        // The slot's last frame is done and its timestamps read.
        if (st_.host_query_reset())
            fn.vkResetQueryPool(st_.device(), timestamps_, slot * slot_queries_, points_);
        else
            fn.vkCmdResetQueryPool(cmd, timestamps_, slot * slot_queries_, points_);
        // Profile mode starts the frame once the earlier frames' work is done
        // (the barrier below waits for it), so its upload excludes their tail.
        fn.vkCmdWriteTimestamp(cmd, profile ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                               timestamps_, slot * slot_queries_);
    }

    // Frames run in submission order: everything earlier frames did is complete
    // and visible before this one overwrites the shared planes.
    full_barrier(cmd);
    constexpr VkPipelineStageFlags kWork = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    if (load) {
        if (int err = load(cmd)) return err;
        // The loads (copies, and unpack kernels for imports) are visible to the features.
        memory_barrier(st_, cmd, kWork, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
        mark(cmd, slot, &point);
        if (host_frames_) {
            // The planes as loaded, for the features that run on the CPU; the
            // barrier at the end of the frame makes them visible to the host.
            memory_barrier(st_, cmd, kWork, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
            const VkBufferCopy all{0, 0, frame_.planes_size};
            fn.vkCmdCopyBuffer(cmd, planes_.get(), slots_[slot].host_planes.get(), 1, &all);
            mark(cmd, slot, &point);
        }
    }

    // Stage by stage (gpu/feature.h): one barrier between stages serves every
    // feature, and the features' dispatches of a stage run side by side, after
    // the work carried from the frame before. Without pictures (submit_carry())
    // only that carried work, untimed.
    const VkDeviceSize results_at = slot_results_size_ * slot;
    unsigned *const timed_point = timed ? &point : nullptr;
    for (unsigned stage = 0; stage < (load ? stages_ : carried_stages_); stage++) {
        if (stage > 0 && !profile) compute_barrier(st_, cmd);
        for (Entry &e : features_) {
            if (stage >= e.feature->carried_stages()) continue;
            if (carry_held_) {
                if (int err = record_feature(e, {cmd, slot, carry_from_, results_at + e.offset, stage, true},
                                             timed_point))
                    return err;
            } else if (timed_point) {
                mark(cmd, slot, timed_point);  // nothing carried: profile mode's intervals stay in place
            }
        }
        if (!load) continue;
        for (Entry &e : features_)
            if (stage < e.feature->stages())
                if (int err = record_feature(e, {cmd, slot, index, results_at + e.offset, stage}, &point)) return err;
    }

    // The results, written in host memory, are visible to the host; so are
    // the planes' host copies (enable_host_frames()).
    if (host_frames_ && load)
        memory_barrier(st_, cmd, kWork, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    else
        memory_barrier(st_, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    if (timed)
        fn.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, slot * slot_queries_ + point);
    if (int err = ring_->submit(slot, waits, signals)) return err;
    pending_.push_back({slot, index, carry_held_, carry_from_, !load});
    next_slot_ = (slot + 1) % unsigned(slots_.size());
    // A frame of carrying features holds work for the next; the carried work alone holds none.
    carry_held_ = carried_stages_ > 0 && load;
    carry_from_ = index;
    return 0;
}

int Engine::submit_carry(ScoreSink &sink)
{
    if (!carry_held_) return 0;
    unsigned slot;
    if (int err = begin_frame(sink, &slot)) return err;
    return record_and_submit(slot, carry_from_, nullptr, {}, {});
}

void Engine::record_device_copies(VkCommandBuffer cmd, const VmafPicture *const pics[2])
{
    for (unsigned k = 0; k < 2; k++) {
        const DevicePicture &d = *device_picture(*pics[k]);
        record_plane_copies(cmd, d.buffer, d.plane_offset, *pics[k], k, planes_.get());
    }
}

void Engine::record_plane_copies(VkCommandBuffer cmd, VkBuffer src, const VkDeviceSize offset[3],
                                 const VmafPicture &pic, unsigned k, VkBuffer dst)
{
    const PlaneRegion *regions = k ? frame_.dist : frame_.ref;
    for (unsigned p = 0; p < frame_.n_planes; p++) {
        const PlaneRegion &r = regions[p];
        const VkDeviceSize row = VkDeviceSize(r.w) * frame_.bytes_per_sample;
        const VkDeviceSize src_stride = VkDeviceSize(pic.stride[p]);
        std::vector<VkBufferCopy> copies;
        if (src_stride == r.stride) {
            copies.push_back({offset[p], r.offset, VkDeviceSize(r.stride) * (r.h - 1) + row});
        } else {
            for (unsigned y = 0; y < r.h; y++)
                copies.push_back({offset[p] + y * src_stride, r.offset + VkDeviceSize(y) * r.stride, row});
        }
        st_.fn().vkCmdCopyBuffer(cmd, src, dst, uint32_t(copies.size()), copies.data());
    }
}

void Engine::record_host_copies(VkCommandBuffer cmd, unsigned slot, const HostLoad &h, VkBuffer dst)
{
    const VkBuffer staging = slots_[slot].staging.get();
    if (h.staged[0] && h.staged[1]) {
        const VkBufferCopy up{0, 0, frame_.planes_size};
        st_.fn().vkCmdCopyBuffer(cmd, staging, dst, 1, &up);
        return;
    }
    for (unsigned k = 0; k < 2; k++) {
        if (!h.staged[k]) {
            record_plane_copies(cmd, h.buffer[k], h.offset[k], *h.pics[k], k, dst);
            continue;
        }
        // This picture's planes alone, staged where the planes go.
        const PlaneRegion *r = k ? frame_.dist : frame_.ref;
        const PlaneRegion &last = r[frame_.n_planes - 1];
        const VkDeviceSize end =
            last.offset + VkDeviceSize(last.stride) * (last.h - 1) + VkDeviceSize(last.w) * frame_.bytes_per_sample;
        const VkBufferCopy up{r[0].offset, r[0].offset, end - r[0].offset};
        st_.fn().vkCmdCopyBuffer(cmd, staging, dst, 1, &up);
    }
}

void Engine::record_landing_handover(VkCommandBuffer cmd, unsigned slot, bool release)
{
    if (st_.transfer_family() == st_.queue_family()) return;  // the semaphore alone orders it
    VkBufferMemoryBarrier b = make<VkBufferMemoryBarrier>(VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER);
    b.srcAccessMask = release ? VK_ACCESS_TRANSFER_WRITE_BIT : 0;
    b.dstAccessMask = release ? 0 : VK_ACCESS_TRANSFER_READ_BIT;
    b.srcQueueFamilyIndex = st_.transfer_family();
    b.dstQueueFamilyIndex = st_.queue_family();
    b.buffer = slots_[slot].landing.get();
    b.offset = 0;
    b.size = VK_WHOLE_SIZE;
    // The acquire's first scope is the stage the frame's semaphore wait blocks
    // (submit_lane's `wait`), which chains it to the lane's copies.
    st_.fn().vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                  release ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT : VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                                  nullptr, 1, &b, 0, nullptr);
}

int Engine::submit_lane(unsigned slot, const HostLoad &h, SemaphoreOp *wait)
{
    Slot &s = slots_[slot];
    if (!lane_ring_)
        if (int err = FrameRing::create(st_, unsigned(slots_.size()), &lane_ring_, true)) return err;
    // The landing buffer's previous frame is done: this slot's frame was
    // collected before the slot came round again (begin_frame). Its contents
    // are not kept across frames, so no ownership goes back to the lane.
    if (!s.landing)
        if (int err = st_.allocator().create_buffer(frame_.planes_size,
                                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                    MemoryUse::Device, &s.landing))
            return err;
    VkCommandBuffer cmd;
    if (int err = lane_ring_->begin(slot, &cmd)) return err;
    record_host_copies(cmd, slot, h, s.landing.get());
    record_landing_handover(cmd, slot, true);
    if (int err = lane_ring_->submit(slot)) return err;
    *wait = lane_ring_->done(slot, VK_PIPELINE_STAGE_TRANSFER_BIT);
    uploads_.lane_frames++;
    return 0;
}

HostUploadStats Engine::host_uploads() const
{
    HostUploadStats u = uploads_;
    if (host_imports_) {
        u.imports = host_imports_->imports();
        u.live_imports = host_imports_->live();
    }
    return u;
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

void Engine::read_timestamps(unsigned slot)
{
    if (!timestamps_) return;
    uint64_t fixed[2] = {0, 0};
    std::vector<uint64_t> many;
    uint64_t *t = fixed;
    if (points_ > 2) {
        many.resize(points_);
        t = many.data();
    }
    const VkResult r = st_.fn().vkGetQueryPoolResults(st_.device(), timestamps_, slot * slot_queries_, points_,
                                                      points_ * sizeof(uint64_t), t, sizeof(uint64_t),
                                                      VK_QUERY_RESULT_64_BIT);
    if (r != VK_SUCCESS) return;
    const uint32_t bits = st_.timestamp_bits();
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    const double tick_ms = st_.timestamp_period_ns() * 1e-6;
    const double ms = double((t[points_ - 1] - t[0]) & mask) * tick_ms;
    if (!profile_.intervals.empty()) {
        for (size_t i = 0; i + 1 < points_; i++)
            profile_.intervals[i].total_ms += double((t[i + 1] - t[i]) & mask) * tick_ms;
        profile_.total_ms += ms;
        profile_.frames++;
    }
    timing_.min_ms = timing_.frames ? std::min(timing_.min_ms, ms) : ms;
    timing_.max_ms = timing_.frames ? std::max(timing_.max_ms, ms) : ms;
    timing_.total_ms += ms;
    timing_.frames++;
}

int Engine::collect_oldest(ScoreSink &sink)
{
    const Pending f = pending_.front();
    if (int err = ring_->wait(f.slot)) return err;
    Slot &s = slots_[f.slot];
    release_slot(s);  // the GPU is done with its pictures and imports
    if (!f.carry_only) read_timestamps(f.slot);
    if (int err = results_.invalidate(slot_results_size_ * f.slot, slot_results_size_)) return err;
    const std::byte *const slot_results = results_.data() + slot_results_size_ * f.slot;
    pending_.pop_front();
    for (Entry &e : features_) {
        // A carrying feature's results are those of the frame it carried work
        // for: what that frame's own stages wrote (held from its readback),
        // then what the carried work wrote in this one's.
        const bool carries = e.feature->carried_stages() > 0;
        const size_t own = carries ? std::min(e.feature->carried_results_at(), e.bytes) : 0;
        const std::byte *const region = slot_results + e.offset;
        if (carries ? !f.carries : f.carry_only) {
            if (own && !f.carry_only) e.held.assign(region, region + own);
            continue;
        }
        const unsigned index = carries ? f.carried : f.index;
        const CallScope call(index);  // listed as the CPU extraction of this frame would be
        std::span<const std::byte> results(region, e.bytes);
        if (own) {
            if (e.held.size() != own) return -EIO;  // the frame it carried work for was never read back
            e.merged.resize(e.bytes);
            std::memcpy(e.merged.data(), e.held.data(), own);
            std::memcpy(e.merged.data() + own, region + own, e.bytes - own);
            results = e.merged;
            if (!f.carry_only) e.held.assign(region, region + own);
        }
        for (unsigned v = 0; v < e.sinks.size(); v++) {
            if (int err = e.feature->collect_variant(results, index, v, e.sinks[v] ? *e.sinks[v] : sink)) {
                log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: feature %s failed on frame %u (%d)\n", e.name.c_str(), index,
                    err);
                return err;
            }
        }
    }
    if (host_frames_ && !f.carry_only) {
        const Buffer &hp = s.host_planes;
        if (int err = hp.invalidate()) return err;
        VmafPicture pics[2]{};
        const PlaneRegion *regions[2] = {frame_.ref, frame_.dist};
        for (unsigned k = 0; k < 2; k++) {
            VmafPicture &p = pics[k];
            p.pix_fmt = fmt_.pix_fmt;
            p.bpc = fmt_.bpc;
            for (unsigned i = 0; i < frame_.n_planes; i++) {
                const PlaneRegion &r = regions[k][i];
                p.data[i] = hp.data() + r.offset;
                p.stride[i] = std::ptrdiff_t(r.stride);
                p.w[i] = r.w;
                p.h[i] = r.h;
            }
        }
        if (int err = host_frames_(pics[0], pics[1], f.index)) return err;
    }
    return 0;
}

int Engine::enable_host_frames(HostFrameFn fn)
{
    if (!pending_.empty() || host_frames_) return -EINVAL;
    for (Slot &s : slots_)
        if (int err = st_.allocator().create_buffer(frame_.planes_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                    MemoryUse::Readback, &s.host_planes))
            return err;
    host_frames_ = std::move(fn);
    if (!profile_.intervals.empty()) {
        profile_.intervals.insert(profile_.intervals.begin() + 1, GpuProfile::Interval{"host copy"});
        points_++;
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

// Collect what is done and free the slot the next frame goes to.
int Engine::begin_frame(ScoreSink &sink, unsigned *slot)
{
    if (int err = collect_done(sink)) return fail(err);
    // The ring is used in order, so the slot to fill is the oldest one in flight.
    if (pending_.size() == slots_.size())
        if (int err = collect_oldest(sink)) return fail(err);
    *slot = next_slot_;
    return 0;
}

int Engine::submit(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &sink)
{
    if (error_) return error_;
    if (flushed_) return -EINVAL;
    if (int err = check_picture(ref)) return err;
    if (int err = check_picture(dist)) return err;
    const bool on_device = device_picture(ref) != nullptr;
    if (on_device != (device_picture(dist) != nullptr)) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: one picture of frame %u is a device picture, the other is not\n",
            index);
        return -EINVAL;
    }
    unsigned slot;
    if (int err = begin_frame(sink, &slot)) return err;
    Slot &s = slots_[slot];
    Loader load;
    SemaphoreOp lane_wait{VK_NULL_HANDLE, 0};
    if (on_device) {
        // Referenced until the GPU has copied them.
        s.pictures.resize(2);
        picture_ref(&s.pictures[0], &ref);
        picture_ref(&s.pictures[1], &dist);
        const VmafPicture *pics[2] = {&ref, &dist};
        load = [this, pics](VkCommandBuffer cmd) {
            record_device_copies(cmd, pics);
            return 0;
        };
    } else {
        // Each picture read in place where its memory imports (held until the
        // frame is done, so its storage is neither freed nor reused meanwhile),
        // else copied into staging first.
        HostLoad h{{&ref, &dist}, {true, true}, {}, {}};
        bool *copy = h.staged;
        for (unsigned k = 0; k < 2 && host_imports_; k++) {
            size_t rows[3] = {};
            for (unsigned p = 0; p < frame_.n_planes; p++) rows[p] = size_t(frame_.ref[p].w) * frame_.bytes_per_sample;
            copy[k] = !host_imports_->find(*h.pics[k], frame_.n_planes, rows, &h.buffer[k], h.offset[k]);
            if (!copy[k]) {
                s.pictures.emplace_back();
                picture_ref(&s.pictures.back(), h.pics[k]);
            }
        }
        if (copy[0] || copy[1]) {
            if (!s.staging)
                if (int err = st_.allocator().create_buffer(frame_.planes_size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                            MemoryUse::Upload, &s.staging)) {
                    release_slot(s);
                    return fail(err);
                }
            if (!upload_pool_ && upload_threads(fmt_) > 1)  // on the first copied frame
                upload_pool_ = std::make_unique<ThreadPool>(upload_threads(fmt_) - 1, upload_threads(fmt_));
            upload(ref, dist, copy, slot);
            if (int err = s.staging.flush()) {
                release_slot(s);
                return fail(err);
            }
        }
        for (unsigned k = 0; k < 2; k++) (copy[k] ? uploads_.copied : uploads_.imported)++;
        if (st_.transfer_lane() != State::Lane::None) {
            // On the transfer lane, beside the earlier frames' kernels; the
            // frame then copies them from device memory into the planes.
            if (int err = submit_lane(slot, h, &lane_wait)) {
                release_slot(s);
                return fail(err);
            }
            load = [this, slot](VkCommandBuffer cmd) {
                record_landing_handover(cmd, slot, false);
                const VkBufferCopy all{0, 0, frame_.planes_size};
                st_.fn().vkCmdCopyBuffer(cmd, slots_[slot].landing.get(), planes_.get(), 1, &all);
                return 0;
            };
        } else {
            // Runs within this call, while the caller's pictures are there.
            load = [this, slot, h](VkCommandBuffer cmd) {
                record_host_copies(cmd, slot, h, planes_.get());
                return 0;
            };
        }
    }
    const std::span<const SemaphoreOp> waits(&lane_wait, lane_wait.semaphore ? 1 : 0);
    if (int err = record_and_submit(slot, index, load, waits, {})) {
        release_slot(s);
        return fail(err);
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
    if (error_) return error_;
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

int Engine::collect_one(ScoreSink &sink, bool *collected)
{
    *collected = false;
    if (error_) return error_;
    if (pending_.empty()) return 0;
    if (int err = collect_oldest(sink)) return fail(err);
    *collected = true;
    return 0;
}

int Engine::wait_idle(ScoreSink &sink)
{
    if (error_) return error_;
    if (int err = submit_carry(sink)) return fail(err);
    while (!pending_.empty())
        if (int err = collect_oldest(sink)) return fail(err);
    return 0;
}

int Engine::flush(ScoreSink &sink)
{
    if (error_) return error_;
    if (flushed_) return 0;
    if (int err = wait_idle(sink)) return err;
    flushed_ = true;
    const CallScope call(OrderKey::kFlush);
    for (Entry &e : features_)
        for (unsigned v = 0; v < e.sinks.size(); v++)
            if (int err = e.feature->flush_variant(v, e.sinks[v] ? *e.sinks[v] : sink)) return fail(err);
    return 0;
}

}  // namespace vmaf::vk
