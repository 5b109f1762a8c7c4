// SPDX-License-Identifier: BSD-2-Clause-Patent
// The frame engine (gpu/engine.h): its life (create, init, the features and
// their stages), recording and submitting a frame, collecting results in frame
// order. Host uploads are in engine_upload.cpp, imports in engine_import.cpp,
// timestamps and profile mode in engine_profile.cpp.
#include "gpu/engine.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "feature/registry.h"
#include "feature/score_order.h"  // CallScope: scores listed as the CPU would write them
#include "picture/picture.h"
#include "util/align.h"
#include "util/clock.h"
#include "util/env.h"
#include "util/log.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
#include "vulkan/device_picture.h"
#include "vulkan/host_import.h"
#include "vulkan/import.h"
#include "vulkan/pipeline.h"
#include "vulkan/pipeline_cache.h"

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

Engine::Engine(State &st) : st_(st) {}

Engine::~Engine()
{
    stop_collect_workers();  // collections still queued write nowhere: their sinks may be gone
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
    for (VmafPicture &p : s.pictures) picture_unref(&p);
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
    // Where the engine's start goes, for its line: the features' kernels (their
    // pipelines, from the cache file when warm), writing that file, the rest.
    const SteadyTime t0 = std::chrono::steady_clock::now();
    // The kernels compile on worker threads while the features and the engine
    // make their buffers and sets; they are waited for before the cache file.
    PipelineDeferral kernels(st_.pipelines());
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
    const double features_ms = ms_since(t0);
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
    if (host_imports_)
        why = host_imports_->min_bytes() ? "where their memory imports (VK_EXT_external_memory_host) and is of at "
                                           "least " + std::to_string(host_imports_->min_bytes() >> 10) + " KiB"
                                         : "where their memory imports (VK_EXT_external_memory_host)";
    const SteadyTime waiting = std::chrono::steady_clock::now();
    if (int err = kernels.wait()) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: the features' kernels could not be built (%d)\n", err);
        return err;
    }
    // The features' kernels: their start, and the wait for the compiling left.
    const double kernels_ms = features_ms + ms_since(waiting);
    // New pipelines may have grown the cache: its file is written now, not only
    // when the device goes (vulkan/pipeline_cache.h; nothing when none were made).
    const SteadyTime saving = std::chrono::steady_clock::now();
    if (PipelineCache *cache = st_.pipeline_cache_file()) cache->save();
    const double cache_ms = ms_since(saving);
    const double total_ms = ms_since(t0);
    log(VMAF_LOG_LEVEL_INFO, "Vulkan engine: %zu feature(s) (%zu instance(s)) on %s, %u frames in flight; host "
                             "pictures %s%s%s; ready in %.1f ms (kernels %.1f, cache file %.1f, the rest %.1f)\n",
        list.size(), features_.size(), st_.info().name.c_str(), n, host_imports_ ? "read in place " : "copied",
        host_imports_ ? why.c_str() : ": ", host_imports_ ? ", else copied" : why.c_str(), total_ms, kernels_ms,
        cache_ms, total_ms - kernels_ms - cache_ms);
    return 0;
}

// Carrying on offer (feature/twin.h, ADR 0050): taken when the frame then
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
    const bool off = !env_switch("VMAF_VULKAN_CARRY", true);
    const bool take = carrying < plain && !off;
    log(VMAF_LOG_LEVEL_DEBUG, "Vulkan engine: %s the offered carries (%u stages per frame, %u with them)%s\n",
        take ? "taking" : "not taking", plain, carrying, off ? ": VMAF_VULKAN_CARRY=0" : "");
    if (!take) return;
    for (Entry &e : features_)
        if (e.feature->carry_offer() > 0) e.feature->carry();
}

std::vector<const char *> Engine::feature_names() const
{
    std::vector<const char *> names;
    for (const Entry &e : features_) names.push_back(e.name.c_str());
    return names;
}

int Engine::record_feature(Entry &e, const Recording &rec, unsigned *point)
{
    // Profile mode: each feature's work after everything before it, so the
    // timestamps around it measure it alone.
    const bool profile = !profile_.intervals.empty();
    if (profile) full_barrier(rec.cmd);
    Recording r = rec;
    // Its steps (carried work has none), each after the one before.
    if (profile && point && !rec.carried && !e.feature->steps(rec.stage).empty())
        r.step_done = [this, &rec, point] { mark(rec.cmd, rec.slot, point); };
    if (int err = e.feature->record(r)) {
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

    // Stage by stage (feature/twin.h): one barrier between stages serves every
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
                if (int err = record_feature(e, {cmd, slot, carry_from_, results_at + e.offset, stage, true, {}},
                                             timed_point))
                    return err;
            } else if (timed_point) {
                mark(cmd, slot, timed_point);  // nothing carried: profile mode's intervals stay in place
            }
        }
        if (!load) continue;
        for (Entry &e : features_)
            if (stage < e.feature->stages())
                if (int err = record_feature(e, {cmd, slot, index, results_at + e.offset, stage, false, {}}, &point))
                    return err;
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
        std::span<const std::byte> results(region, e.bytes);
        if (own) {
            if (e.held.size() != own) return -EIO;  // the frame it carried work for was never read back
            e.merged.resize(e.bytes);
            std::memcpy(e.merged.data(), e.held.data(), own);
            std::memcpy(e.merged.data() + own, region + own, e.bytes - own);
            results = e.merged;
            if (!f.carry_only) e.held.assign(region, region + own);
        }
        if (e.on_workers) {
            collect_later(e, results, index);
            continue;
        }
        const CallScope call(index);  // listed as the CPU extraction of this frame would be
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

int Engine::set_collect_workers(unsigned workers)
{
    if (!pending_.empty() || flushed_ || collect_pool_) return -EINVAL;
    if (workers < 2) return 0;
    unsigned taken = 0;
    for (Entry &e : features_) {
        bool own_sinks = !e.sinks.empty();
        for (ScoreSink *s : e.sinks) own_sinks = own_sinks && s;
        e.on_workers = own_sinks && e.feature->collect_on_workers(workers);
        taken += e.on_workers;
    }
    if (taken) collect_pool_ = std::make_unique<ThreadPool>(workers, size_t(workers) * 2);
    return 0;
}

void Engine::stop_collect_workers()
{
    collect_cancelled_ = true;
    collect_pool_.reset();  // the job running on each worker ends first
}

unsigned Engine::collecting_on_workers() const
{
    unsigned n = 0;
    for (const Entry &e : features_) n += e.on_workers;
    return n;
}

void Engine::collect_later(Entry &e, std::span<const std::byte> results, unsigned index)
{
    // A copy: the slot's results are overwritten by a later frame. The queue
    // is bounded, so this waits while every worker is busy.
    auto bytes = std::make_shared<const std::vector<std::byte>>(results.begin(), results.end());
    collect_pool_->enqueue([this, &e, bytes, index](unsigned worker) {
        if (collect_cancelled_ || collect_error_) return;
        const CallScope call(index);  // listed as the CPU extraction of this frame would be
        for (unsigned v = 0; v < e.sinks.size(); v++) {
            if (int err = e.feature->collect_on(worker, *bytes, index, v, *e.sinks[v])) {
                log(VMAF_LOG_LEVEL_ERROR, "Vulkan engine: feature %s failed on frame %u (%d)\n", e.name.c_str(),
                    index, err);
                int none = 0;
                collect_error_.compare_exchange_strong(none, err);
                return;
            }
        }
    });
}

int Engine::worker_error()
{
    const int err = collect_error_.load();
    return err ? fail(err) : 0;
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
    const auto t0 = std::chrono::steady_clock::now();
    const int err = submit_frame(ref, dist, index, sink);
    note_call(t0, std::chrono::steady_clock::now());
    return err;
}

void Engine::note_call(std::chrono::steady_clock::time_point t0, std::chrono::steady_clock::time_point t1)
{
    if (!host_timing_.frames) host_timing_.first = t0;
    host_timing_.last = t1;
    host_timing_.frames++;
    host_timing_.call_ms += ms_between(t0, t1);
}

int Engine::submit_frame(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &sink)
{
    if (error_) return error_;
    if (int err = worker_error()) return err;
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
    const auto waiting = std::chrono::steady_clock::now();
    const int began = begin_frame(sink, &slot);
    host_timing_.wait_ms += ms_since(waiting);
    if (began) return began;
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
            const auto copying = std::chrono::steady_clock::now();
            upload(ref, dist, copy, slot);
            host_timing_.copy_ms += ms_since(copying);
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
    if (collect_pool_) collect_pool_->wait();
    return worker_error();
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
