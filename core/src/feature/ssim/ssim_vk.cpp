// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_ssim and float_ms_ssim on the GPU: the twins of float_ssim_cpu.cpp and
// float_ms_ssim_cpu.cpp.
//
// Four kernels (feature/ssim/ssim_*.comp, sharing ssim_common.glsl):
//   ssim_box    float_ssim's box downscaling of both luma planes (scale > 1),
//   ssim_lpf    MS-SSIM's halving to the next scale (the 9x9 low-pass filter),
//   ssim_terms  SSIM's window sums, per-pixel terms and the sums of l c s, l, c
//               and s, four doubles per workgroup,
//   ssim_sum    a terms dispatch's workgroup sums added in a fixed order into
//               four doubles (skipped where the workgroups are few: the host
//               adds them).
// The first three read the Engine's raw luma samples or a float plane of this
// feature's scratch buffer, in the CPU's order of float and double operations;
// collect() finishes with the CPU's host code (ssim_engine.h's mean_terms and
// ms_ssim_combine, ssim_kernel.h's to_db).
// Stages: float_ssim [box,] terms[, sum]; float_ms_ssim: stage s computes scale
// s's terms, halves scale s into s + 1 and sums scale s - 1's workgroups (scale
// 4's few are left to the host). The kernels need shaderFloat64.
#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <vector>

#include "feature/common/float_picture.h"
#include "feature/ssim/ssim.h"
#include "feature/ssim/ssim_engine.h"
#include "feature/ssim/ssim_gpu_layout.h"
#include "feature/ssim/ssim_kernel.h"
#include "feature/ssim/ssim_tables.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "util/align.h"
#include "util/log.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {


namespace {

// The kernels' layout (ssim_gpu_layout.h).
constexpr uint32_t kTileW = ssim::gpu::kTileW, kTileH = ssim::gpu::kTileH;
constexpr uint32_t kTermsThreads = ssim::gpu::kTermsThreads, kSumThreads = ssim::gpu::kSumThreads;
constexpr uint32_t kPointTile = ssim::gpu::kPointTile;
constexpr uint32_t kTermsPerGroup = 4;  // doubles: sums of l c s, l, c, s
// Workgroups a terms dispatch aims at before it gives each several tiles.
constexpr uint32_t kEnoughGroups = 2500;
// Workgroup sums the host adds itself; more go through ssim_sum.comp.
constexpr uint32_t kHostGroups = 16;

// Kernel inputs (ssim_common.glsl's kInput).
enum Input : uint32_t { kScratch = 0, kRaw8 = 1, kRaw16 = 2 };

// Each dispatch binds only its regions of the scratch and sums buffers
// (ssim_common.glsl), which start at multiples of kBindAlign bytes. The first
// kBindAlign bytes of each are bound where a kernel does not use the binding.
constexpr uint32_t kScratchAlign = kBindAlign / sizeof(float);
constexpr uint32_t kPartialsAlign = kBindAlign / sizeof(double);
constexpr unsigned kMaxSets = 8;  // descriptor sets per pipeline (one per dispatch that uses it)

// A region of a buffer, in its elements (count 0: the unused region).
struct Region {
    uint32_t first = 0, count = 0;
};

struct TermsPush {
    uint32_t in_ref, in_dist, in_stride;
    int32_t width, height, out_w, out_h;
    uint32_t tiles, partial_index, to_partials;
};

struct SumPush {
    uint32_t first, groups, out_index;
};

struct LpfPush {
    uint32_t in_ref, in_dist, in_stride;
    int32_t width, height;
    uint32_t out_ref, out_dist, out_w, out_h;
};

struct BoxPush {
    uint32_t in_ref, in_dist, in_stride;
    int32_t width, height;
    uint32_t out_ref, out_dist, out_w, out_h;
    int32_t factor;
    uint32_t tap_bits;
};

struct TermsJob {
    TermsPush push{};
    uint32_t groups_x = 0, groups_y = 0;
    bool raw = false;      // reads the Engine's planes (else the scratch buffer)
    bool reduced = false;  // its workgroup sums go through ssim_sum.comp
    uint32_t partials = 0;  // reduced: its first double in the partials buffer
    uint32_t first = 0;     // its first double within the feature's results
    uint32_t groups() const { return groups_x * groups_y; }
    // Doubles of the feature's results it fills.
    uint32_t result_doubles() const { return (reduced ? 1 : groups()) * kTermsPerGroup; }
};

// A w x h plane's terms dispatch (placed in the buffers by the caller).
TermsJob terms_job(uint32_t w, uint32_t h)
{
    TermsJob j;
    j.push.width = int32_t(w);
    j.push.height = int32_t(h);
    j.push.out_w = int32_t(w) - ssim::kWindow + 1;
    j.push.out_h = int32_t(h) - ssim::kWindow + 1;
    j.groups_x = (uint32_t(j.push.out_w) + kTileW - 1) / kTileW;
    const uint32_t tiles_y = (uint32_t(j.push.out_h) + kTileH - 1) / kTileH;
    uint32_t tiles = 1;
    while (tiles < 8 && j.groups_x * ((tiles_y + 2 * tiles - 1) / (2 * tiles)) >= kEnoughGroups) tiles *= 2;
    j.push.tiles = tiles;
    j.groups_y = (tiles_y + tiles - 1) / tiles;
    return j;
}

// The pipelines and descriptor sets of both features: one per kernel and input.
class Kernels {
public:
    int init(State &st, unsigned bpc)
    {
        bpc_ = bpc;
        st_ = &st;
        const VkPhysicalDeviceLimits &lim = st.limits();
        // ssim_terms' shared memory: two input tiles and five window-sum planes;
        // the input tiles then hold the reduction's tree, four doubles a thread.
        constexpr uint32_t margin = ssim::kWindow - 1;
        constexpr uint32_t in_tiles = 4 * 2 * (kTileH + margin) * (kTileW + margin);
        static_assert(in_tiles >= 4 * sizeof(double) * kTermsThreads);
        const uint32_t terms_shared = in_tiles + 4 * 5 * (kTileH + margin) * kTileW;
        const uint32_t most = std::max({kTermsThreads, kSumThreads, kPointTile * kPointTile});
        if (lim.maxComputeSharedMemorySize < terms_shared || lim.maxComputeWorkGroupInvocations < most ||
            lim.maxComputeWorkGroupSize[0] < std::max(kTermsThreads, kSumThreads) ||
            lim.maxComputeWorkGroupSize[1] < kPointTile)
            return -ENOTSUP;
        return 0;
    }

    Input raw() const { return bpc_ > 8 ? kRaw16 : kRaw8; }
    const State &state() const { return *st_; }

    // The pipeline of `shader` reading `in`, made on first use.
    int get(const spirv::Shader &shader, Input in, uint32_t push_size, ComputePipeline **out)
    {
        for (Entry &e : entries_)
            if (e.shader == &shader && e.in == in) return *out = e.pipeline.get(), 0;
        const float inv_scaler = 1.0f / float_scaler(bpc_);  // a power of two: exact
        const SpecConstant spec[] = {{0, uint32_t(in)}, {1, std::bit_cast<uint32_t>(inv_scaler)}};
        PipelineDesc d;
        d.shader = &shader;
        d.buffers = 5;
        d.push_constant_size = push_size;
        d.spec = spec;
        d.max_sets = kMaxSets;
        Entry e{&shader, in, nullptr};
        if (int err = ComputePipeline::create(*st_, d, &e.pipeline)) return err;
        *out = e.pipeline.get();
        entries_.push_back(std::move(e));
        return 0;
    }

private:
    struct Entry {
        const spirv::Shader *shader;
        Input in;
        std::unique_ptr<ComputePipeline> pipeline;
    };
    State *st_ = nullptr;
    unsigned bpc_ = 8;
    std::vector<Entry> entries_;
};

// The common part of both features: the scratch buffer, raw plane offsets and
// the terms jobs' finishing.
class SsimVkBase : public Feature {
public:
    int bind(const FrameBuffers &fb) override
    {
        if (fb.ref[0].w != fmt_.w || fb.ref[0].h != fmt_.h) return -EINVAL;
        raw_ref_ = uint32_t(fb.ref[0].offset / fb.bytes_per_sample);
        raw_dist_ = uint32_t(fb.dist[0].offset / fb.bytes_per_sample);
        raw_stride_ = fb.ref[0].stride / fb.bytes_per_sample;
        fb_ = fb;
        return on_bind();
    }

protected:
    // The raw planes' offsets are known: push constants and descriptor sets.
    virtual int on_bind() = 0;

    // A descriptor set of `pipe` for one dispatch: the scratch pair it reads,
    // its workgroup sums (written by a terms dispatch, read by a sum one) and
    // the scratch pair it writes.
    int make_set(ComputePipeline *pipe, Region scratch_in, Region sums, Region scratch_out, VkDescriptorSet *out)
    {
        const BufferRange buffers[] = {{fb_.planes, 0, fb_.planes_size},
                                       range_of(scratch_, scratch_in, sizeof(float)),
                                       {fb_.results, 0, fb_.results_size},
                                       range_of(partials_, sums, sizeof(double)),
                                       range_of(scratch_, scratch_out, sizeof(float))};
        return pipe->make_set(buffers, out);
    }

    // A region of `buffer` in elements of `size` bytes; the unused region is
    // the buffer's first kBindAlign bytes.
    static BufferRange range_of(const Buffer &buffer, Region r, VkDeviceSize size)
    {
        if (!r.count) return BufferRange{buffer.get(), 0, kBindAlign};
        return BufferRange{buffer.get(), r.first * size, r.count * size};
    }

    // A terms job's workgroup sums (reduced jobs only).
    static Region sums_of(const TermsJob &j)
    {
        return j.reduced ? Region{j.partials, j.groups() * kTermsPerGroup} : Region{};
    }

    // Place `j` in the results (from *result_at) and, when it has more than
    // kHostGroups workgroups and `may_reduce`, in the partials buffer.
    void place(TermsJob &j, bool may_reduce, uint32_t *result_at)
    {
        j.reduced = may_reduce && j.groups() > kHostGroups;
        if (j.reduced) {
            j.partials = align_up(partials_doubles_, kPartialsAlign);
            partials_doubles_ = j.partials + j.groups() * kTermsPerGroup;
        }
        j.first = *result_at;
        *result_at += j.result_doubles();
    }

    // After place(): the buffers and the sum kernel.
    int init_common(State &st, const FrameFormat &fmt, size_t scratch_floats)
    {
        if (fmt.bpc < 8 || fmt.bpc > 16) return -EINVAL;
        fmt_ = fmt;
        if (int err = kernels_.init(st, fmt.bpc)) return err;
        // At least a little of each, so that the bindings exist when unused.
        constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        Allocator &a = st.allocator();
        if (int err = a.create_buffer(std::max<size_t>(scratch_floats, kScratchAlign) * sizeof(float), kStorage,
                                      MemoryUse::Device, &scratch_))
            return err;
        if (int err = a.create_buffer(std::max<size_t>(partials_doubles_, kPartialsAlign) * sizeof(double), kStorage,
                                      MemoryUse::Device, &partials_))
            return err;
        return kernels_.get(spirv::ssim_sum, kScratch, sizeof(SumPush), &sum_pipe_);
    }

    // A terms job reading the raw planes (after bind()) or scratch planes.
    void set_terms_input(TermsJob &j, bool raw, uint32_t ref, uint32_t dist, uint32_t stride)
    {
        j.raw = raw;
        j.push.in_ref = ref;
        j.push.in_dist = dist;
        j.push.in_stride = stride;
    }

    int terms_pipeline(const TermsJob &j, ComputePipeline **out)
    {
        return kernels_.get(spirv::ssim_terms, j.raw ? kernels_.raw() : kScratch, sizeof(TermsPush), out);
    }

    // (Sums are indexed from the start of the job's bound region.)
    void record_terms(const Recording &rec, const TermsJob &j, ComputePipeline *pipe, VkDescriptorSet set)
    {
        TermsPush push = j.push;
        push.to_partials = j.reduced ? 1 : 0;
        push.partial_index = j.reduced ? 0 : uint32_t(rec.result_offset / sizeof(double)) + j.first;
        pipe->dispatch(rec.cmd, set, &push, j.groups_x, j.groups_y);
    }

    // A reduced job's sums, in a later stage than its terms.
    void record_sum(const Recording &rec, const TermsJob &j, VkDescriptorSet set)
    {
        if (!j.reduced) return;
        const SumPush push = {0, j.groups(), uint32_t(rec.result_offset / sizeof(double)) + j.first};
        sum_pipe_->dispatch(rec.cmd, set, &push, 1);
    }

    // The job's sums (its workgroups' added in order unless ssim_sum did), as
    // the mean terms.
    static ssim::ScaleTerms finish(std::span<const std::byte> results, const TermsJob &j)
    {
        double sum[kTermsPerGroup] = {};
        const uint32_t groups = j.reduced ? 1 : j.groups();
        const std::byte *at = results.data() + size_t(j.first) * sizeof(double);
        for (uint32_t g = 0; g < groups; g++)
            for (uint32_t k = 0; k < kTermsPerGroup; k++) {
                double v;
                std::memcpy(&v, at + (size_t(g) * kTermsPerGroup + k) * sizeof(double), sizeof v);
                sum[k] += v;
            }
        return ssim::mean_terms(sum[0], sum[1], sum[2], sum[3], double(j.push.out_w * j.push.out_h));
    }

    FrameFormat fmt_{};
    FrameBuffers fb_{};
    Kernels kernels_;
    Buffer scratch_, partials_;
    uint32_t partials_doubles_ = kPartialsAlign;  // the unused region first
    ComputePipeline *sum_pipe_ = nullptr;
    uint32_t raw_ref_ = 0, raw_dist_ = 0, raw_stride_ = 0;
};

// ---------------------------------------------------------------- float_ssim

class FloatSsimVk final : public SsimVkBase {
public:
    explicit FloatSsimVk(const FeatureOptions &o) : setup_(o) {}

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        if (int err = setup_.plan(fmt)) return err;
        const int factor = setup_.factor, sw = setup_.w, sh = setup_.h;
        const uint32_t small = factor > 1 ? uint32_t(sw) * uint32_t(sh) : 0;
        small_ = {kScratchAlign, 2 * small};  // the downscaled pair, after the unused region
        job_ = terms_job(uint32_t(sw), uint32_t(sh));
        uint32_t result_doubles = 0;
        place(job_, true, &result_doubles);
        if (int err = init_common(st, fmt, small_.first + small_.count)) return err;
        if (factor > 1) {
            BoxPush &b = box_;
            b.width = int(fmt.w);
            b.height = int(fmt.h);
            b.out_ref = 0;
            b.out_dist = small;
            b.out_w = uint32_t(sw);
            b.out_h = uint32_t(sh);
            b.factor = factor;
            b.tap_bits = std::bit_cast<uint32_t>(1.0f / float(factor * factor));  // the CPU's tap
            set_terms_input(job_, false, 0, small, uint32_t(sw));
            if (int err = kernels_.get(spirv::ssim_box, kernels_.raw(), sizeof(BoxPush), &box_pipe_)) return err;
        } else {
            job_.raw = true;
        }
        if (int err = terms_pipeline(job_, &terms_pipe_)) return err;
        *result_bytes = size_t(result_doubles) * sizeof(double);
        return 0;
    }

    unsigned stages() const override { return (setup_.factor > 1 ? 2 : 1) + (job_.reduced ? 1 : 0); }

    int record(const Recording &rec) override
    {
        const unsigned terms_stage = setup_.factor > 1 ? 1 : 0;
        if (rec.stage < terms_stage)
            box_pipe_->dispatch(rec.cmd, box_set_, &box_, (box_.out_w + kPointTile - 1) / kPointTile,
                                (box_.out_h + kPointTile - 1) / kPointTile);
        else if (rec.stage == terms_stage)
            record_terms(rec, job_, terms_pipe_, terms_set_);
        else
            record_sum(rec, job_, sum_set_);
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        return ssim::write_ssim(sink, index, finish(results, job_), setup_.db, setup_.lcs, setup_.cap);
    }

private:
    int on_bind() override
    {
        if (setup_.factor > 1) {
            box_.in_ref = raw_ref_;
            box_.in_dist = raw_dist_;
            box_.in_stride = raw_stride_;
            if (int err = make_set(box_pipe_, {}, {}, small_, &box_set_)) return err;
        } else {
            set_terms_input(job_, true, raw_ref_, raw_dist_, raw_stride_);
        }
        if (int err = make_set(terms_pipe_, setup_.factor > 1 ? small_ : Region{}, sums_of(job_), {}, &terms_set_))
            return err;
        return job_.reduced ? make_set(sum_pipe_, {}, sums_of(job_), {}, &sum_set_) : 0;
    }

    ssim::FloatSsimSetup setup_;
    TermsJob job_{};
    BoxPush box_{};
    Region small_;  // the downscaled pair in the scratch buffer
    ComputePipeline *box_pipe_ = nullptr, *terms_pipe_ = nullptr;
    VkDescriptorSet box_set_ = VK_NULL_HANDLE, terms_set_ = VK_NULL_HANDLE, sum_set_ = VK_NULL_HANDLE;
};

// ------------------------------------------------------------- float_ms_ssim

// What one configuration writes: float_ms_ssim's scores from all five scales,
// or float_ssim's at full size (scale=1) from the first scale alone, which is
// the same computation (the same kernel on the same planes, summed in the
// same order), so its scores are those of FloatSsimVk.
struct SsimOutput {
    bool ms, lcs, db, clip;
};

SsimOutput output_of(const FeatureInfo &fi, const FeatureOptions &o);

class FloatMsSsimVk final : public SsimVkBase {
public:
    // float_ms_ssim configurations and float_ssim ones at full size, in the
    // order of their variants (shares()).
    explicit FloatMsSsimVk(std::vector<SsimOutput> outputs) : outputs_(std::move(outputs))
    {
        for (const SsimOutput &o : outputs_) {
            ms_ = ms_ || o.ms;
            ssim_ = ssim_ || !o.ms;
        }
    }

    unsigned variants() const override { return unsigned(outputs_.size()); }

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        if (ssim_ && (fmt.w < unsigned(ssim::kWindow) || fmt.h < unsigned(ssim::kWindow))) {
            log(VMAF_LOG_LEVEL_ERROR, "float_ssim: %ux%u is smaller than the %dx%d window\n", fmt.w, fmt.h,
                ssim::kWindow, ssim::kWindow);
            return -EINVAL;
        }
        scales_ = ms_ ? ssim::kScales : 1;
        if (ms_ && (fmt.w < ssim::kMsSsimMinSide || fmt.h < ssim::kMsSsimMinSide)) {
            log(VMAF_LOG_LEVEL_WARNING,
                "float_ms_ssim: %ux%u is below the %ux%u minimum of five scales; no float_ms_ssim scores\n",
                fmt.w, fmt.h, ssim::kMsSsimMinSide, ssim::kMsSsimMinSide);
            ms_ = false;
            scales_ = ssim_ ? 1 : 0;
        }
        *result_bytes = 0;
        if (scales_ == 0) return 0;
        cap_ = ssim::max_db(fmt.bpc, fmt.w, fmt.h);
        // Scales 1-4 in the scratch buffer, each a pair (reference, then
        // distorted) in a region of its own after the unused one; offsets in
        // the kernels' push constants are from the start of the bound pair.
        uint32_t w = fmt.w, h = fmt.h, at = kScratchAlign, first = 0;
        for (int s = 0; s < scales_; s++) {
            if (s > 0) {
                lpf_[s - 1].out_ref = 0;
                lpf_[s - 1].out_dist = w * h;
                lpf_[s - 1].out_w = w;
                lpf_[s - 1].out_h = h;
                pairs_[s] = {align_up(at, kScratchAlign), 2 * w * h};
                at = pairs_[s].first + pairs_[s].count;
            }
            jobs_[s] = terms_job(w, h);
            // The last of five scales' few workgroups: the host's.
            place(jobs_[s], s + 1 < ssim::kScales, &first);
            if (s > 0) set_terms_input(jobs_[s], false, 0, w * h, w);
            else jobs_[s].raw = true;
            if (s + 1 < scales_) {
                LpfPush &l = lpf_[s];
                l.width = int32_t(w);
                l.height = int32_t(h);
                if (s > 0) {
                    l.in_ref = 0;
                    l.in_dist = w * h;
                    l.in_stride = w;
                }
            }
            w = uint32_t(ssim::decimated_size(int(w), 2));
            h = uint32_t(ssim::decimated_size(int(h), 2));
        }
        if (int err = init_common(st, fmt, at)) return err;
        for (int s = 0; s < scales_; s++) {
            if (int err = terms_pipeline(jobs_[s], &terms_pipe_[s])) return err;
            if (s + 1 < scales_)
                if (int err = kernels_.get(spirv::ssim_lpf, s == 0 ? kernels_.raw() : kScratch, sizeof(LpfPush),
                                           &lpf_pipe_[s]))
                    return err;
        }
        *result_bytes = size_t(first) * sizeof(double);
        return 0;
    }

    int bind(const FrameBuffers &fb) override
    {
        if (scales_ == 0) return 0;
        return SsimVkBase::bind(fb);
    }

    // Stage s computes scale s's terms, halves scale s into s + 1 and sums
    // scale s - 1's workgroups; one more stage sums the last scale's where
    // they go through ssim_sum.comp (scale 0 alone).
    unsigned stages() const override
    {
        if (scales_ == 0) return 1;
        return unsigned(scales_) + (jobs_[scales_ - 1].reduced ? 1 : 0);
    }

    int record(const Recording &rec) override
    {
        if (scales_ == 0) return 0;
        // One stage, three dispatches and no barrier between them: the sum of
        // scale s - 1 reads the sums that scale s's terms do not write, and the
        // halving writes a scratch pair that the terms do not read. Each
        // binds only its own regions (make_set()), which tells Vulkan so.
        const int s = int(rec.stage);
        if (s > 0) record_sum(rec, jobs_[s - 1], sum_set_[s - 1]);
        if (s < scales_) record_terms(rec, jobs_[s], terms_pipe_[s], terms_set_[s]);
        if (s + 1 < scales_) {
            const LpfPush &l = lpf_[s];
            lpf_pipe_[s]->dispatch(rec.cmd, lpf_set_[s], &l, (l.out_w + kPointTile - 1) / kPointTile,
                                   (l.out_h + kPointTile - 1) / kPointTile);
        }
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        return collect_variant(results, index, 0, sink);
    }

    int collect_variant(std::span<const std::byte> results, unsigned index, unsigned v, ScoreSink &sink) override
    {
        if (v >= outputs_.size()) return -EINVAL;
        const SsimOutput &o = outputs_[v];
        const double cap = o.clip ? cap_ : INFINITY;
        if (!o.ms) return ssim::write_ssim(sink, index, finish(results, jobs_[0]), o.db, o.lcs, cap);
        if (!ms_) return 0;
        std::array<ssim::ScaleTerms, ssim::kScales> t;
        for (int i = 0; i < ssim::kScales; i++) t[i] = finish(results, jobs_[i]);
        return ssim::write_ms_ssim(sink, index, t.data(), o.db, o.lcs, cap);
    }

    int flush_variant(unsigned v, ScoreSink &) override { return v < outputs_.size() ? 0 : -EINVAL; }

private:
    int on_bind() override
    {
        set_terms_input(jobs_[0], true, raw_ref_, raw_dist_, raw_stride_);
        lpf_[0].in_ref = raw_ref_;
        lpf_[0].in_dist = raw_dist_;
        lpf_[0].in_stride = raw_stride_;
        for (int s = 0; s < scales_; s++) {
            if (int err = make_set(terms_pipe_[s], pairs_[s], sums_of(jobs_[s]), {}, &terms_set_[s])) return err;
            if (s + 1 < scales_)
                if (int err = make_set(lpf_pipe_[s], pairs_[s], {}, pairs_[s + 1], &lpf_set_[s])) return err;
            if (jobs_[s].reduced)
                if (int err = make_set(sum_pipe_, {}, sums_of(jobs_[s]), {}, &sum_set_[s])) return err;
        }
        return 0;
    }

    std::vector<SsimOutput> outputs_;
    bool ms_ = false, ssim_ = false;  // some variant is float_ms_ssim, float_ssim
    int scales_ = 0;                  // computed: 5, 1 (float_ssim alone), 0 (nothing)
    double cap_ = INFINITY;
    std::array<TermsJob, ssim::kScales> jobs_{};
    std::array<LpfPush, ssim::kScales - 1> lpf_{};
    Region pairs_[ssim::kScales];  // scales 1-4 in the scratch buffer (scale 0: the Engine's planes)
    ComputePipeline *terms_pipe_[ssim::kScales] = {}, *lpf_pipe_[ssim::kScales - 1] = {};
    VkDescriptorSet terms_set_[ssim::kScales] = {}, lpf_set_[ssim::kScales - 1] = {}, sum_set_[ssim::kScales] = {};
};

// Both kernels' sums and quotients are in double: a device without
// shaderFloat64 leaves these features to the CPU.
bool supports(const State &st, const FrameFormat &, const FeatureOptions &)
{
    return st.float64();
}

std::unique_ptr<Feature> create_ssim(const FeatureOptions &o)
{
    return std::make_unique<FloatSsimVk>(o);
}

std::unique_ptr<Feature> create_ms_ssim(const FeatureOptions &o)
{
    return std::make_unique<FloatMsSsimVk>(std::vector<SsimOutput>{output_of(kFloatMsSsimFeature, o)});
}

// float_ssim at full size is float_ms_ssim's first scale: configurations of
// either (float_ssim with scale=1; the automatic scale depends on the picture)
// share one instance, which computes the five scales where one asks for them.
bool full_size(const SharedConfig &c)
{
    return c.info == &kFloatMsSsimFeature || (c.info == &kFloatSsimFeature && c.opts->number("scale") == 1);
}

bool shares(const SharedConfig &a, const SharedConfig &b)
{
    return full_size(a) && full_size(b);
}

std::unique_ptr<Feature> create_shared(std::span<const SharedConfig> configs)
{
    std::vector<SsimOutput> outputs;
    for (const SharedConfig &c : configs) {
        if (!full_size(c)) return nullptr;
        outputs.push_back(output_of(*c.info, *c.opts));
    }
    return std::make_unique<FloatMsSsimVk>(std::move(outputs));
}

SsimOutput output_of(const FeatureInfo &fi, const FeatureOptions &o)
{
    return {&fi == &kFloatMsSsimFeature, o.flag("enable_lcs"), o.flag("enable_db"), o.flag("clip_db")};
}

}  // namespace

constexpr unsigned kMaxShared = 8;
const FeatureInfo kFloatSsimFeature = {"float_ssim", supports, create_ssim, shares, create_shared, kMaxShared};
const FeatureInfo kFloatMsSsimFeature = {"float_ms_ssim", supports, create_ms_ssim, shares, create_shared, kMaxShared};

}  // namespace vmaf::vk
