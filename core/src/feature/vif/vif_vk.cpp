// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer VIF on the GPU: the twin of vif_cpu.cpp.
//
// One dispatch per scale (feature/vif/vif_scale0..3.comp, vif_scale.glsl): each
// workgroup filters a tile of its scale (vif_gpu_layout.h), turns every pixel into the
// CPU's integer terms and writes the tile's integer sums; the same dispatch
// halves the tile into the next scale's 16-bit planes, which live in a scratch
// buffer of this feature. collect() adds the workgroups' sums into the CPU's
// vif::Sums and finishes with vif_score.h, so both backends print the same
// numbers. Options: all of the CPU's (the gain limit reaches the kernel as an
// exact mantissa and exponent).
//
// One instance serves up to vif::gpu::kMaxLimits configurations that differ
// only in vif_enhn_gain_limit (vmaf_v0.6.1 and vmaf_v0.6.1neg together): its
// dispatches compute every pixel's terms once and one Σ log2(numer2 /
// numer1) per limit (vif_scale.glsl), and each variant's scores come from the
// shared sums and its own (feature/twin.h's variants).
//
// Scales 2 and 3 are thin (a few hundred workgroups at 1080p). Where the
// Engine takes the offer (ADR 0050), they run in the next frame's stages 0
// and 1, beside its scales 0 and 1. Each dispatch binds only the planes of
// the scratch buffer it reads and writes, so that a frame's scale 0 (writing
// scale 1's planes) and the carried scale 2 (reading scale 2's, writing
// scale 3's) share a stage without a hazard; each plane pair is written
// again only in a later stage than the one that reads it.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <vector>

#include "feature/twin.h"
#include "feature/vif/vif.h"
#include "feature/vif/vif_gpu_layout.h"
#include "feature/vif/vif_score.h"
#include "feature/vif/vif_tables.h"
#include "picture/picture.h"
#include "spirv.h"
#include "util/align.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {

namespace {

const spirv::Shader *const kShaders[vif::kScales] = {&spirv::vif_scale0, &spirv::vif_scale1, &spirv::vif_scale2,
                                                     &spirv::vif_scale3};
// The same with the gain step after the division in double (shaderFloat64):
// the same integers (vif_gain.glsl), fewer instructions.
const spirv::Shader *const kShadersF64[vif::kScales] = {&spirv::vif_scale0_fp64, &spirv::vif_scale1_fp64,
                                                        &spirv::vif_scale2_fp64, &spirv::vif_scale3_fp64};

// The kernel's push constants.
struct Push {
    uint32_t in_ref, in_dist, in_stride;
    uint32_t width, height;
    uint32_t out_ref, out_dist, out_stride;
    uint32_t partial_index;
    uint32_t stats;
    uint32_t limit_lo[vif::gpu::kMaxLimits], limit_hi[vif::gpu::kMaxLimits];
    int32_t limit_exp[vif::gpu::kMaxLimits];
};

// A positive double as m * 2^e with m in [2^52, 2^53): exact.
void split_double(double v, uint32_t *lo, uint32_t *hi, int32_t *exp)
{
    int e = 0;
    const double f = std::frexp(v, &e);  // v = f * 2^e, f in [0.5, 1)
    const uint64_t m = uint64_t(std::ldexp(f, 53));
    *lo = uint32_t(m);
    *hi = uint32_t(m >> 32);
    *exp = e - 53;
}

struct ScaleJob {
    Push push{};
    uint32_t groups_x = 0, groups_y = 0;
    uint32_t first_part = 0;  // index of its first uint in the feature's results
};

// The one gain-limit option configurations of a shared instance may differ in.
constexpr const char *kLimitOption = "vif_enhn_gain_limit";

// The scales a frame carries into the next one (ADR 0050): its last two.
constexpr unsigned kCarried = 2;

class VifVk final : public Feature {
public:
    // One configuration per gain limit, alike in every other option (shares()).
    explicit VifVk(std::span<const FeatureOptions> opts)
    {
        for (const FeatureOptions &o : opts) settings_.push_back(vif::Settings::from(o));
    }

    unsigned variants() const override { return unsigned(settings_.size()); }

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        if (fmt.w < vif::kMinSide || fmt.h < vif::kMinSide) return -EINVAL;
        if (fmt.bpc < 8 || fmt.bpc > 16) return -EINVAL;
        if (settings_.empty() || settings_.size() > vif::gpu::kMaxLimits) return -EINVAL;
        const uint32_t limits = uint32_t(settings_.size());
        const bool skip_scale0 = settings_[0].skip_scale0;
        for (int s = 0; s < vif::kScales; s++)
            if (st.limits().maxComputeSharedMemorySize < vif::gpu::shared_bytes(s)) return -ENOTSUP;
        st_ = &st;
        fmt_ = fmt;

        // Scale sizes, and scales 1-3 (reference, then distorted) in one
        // buffer, each pair at its own aligned offset. Offsets in the kernel
        // count from the start of the pairs a dispatch binds (scale_range()):
        // its input's, if not the picture, then its output's.
        uint32_t w = fmt.w, h = fmt.h, part = 0;
        VkDeviceSize at = 0;
        for (int s = 0; s < vif::kScales; s++) {
            ScaleJob &j = jobs_[s];
            if (s > 0) {
                w /= 2;
                h /= 2;
                pair_at_[s] = at;
                pair_bytes_[s] = VkDeviceSize(2) * w * h * sizeof(uint16_t);
                at = align_up(at + pair_bytes_[s], kBindAlign);
                j.push.in_stride = w;
                j.push.in_ref = 0;
                j.push.in_dist = w * h;
                ScaleJob &prev = jobs_[s - 1];
                const VkDeviceSize base = s == 1 ? pair_at_[1] : pair_at_[s - 1];
                prev.push.out_ref = uint32_t((pair_at_[s] - base) / sizeof(uint16_t));
                prev.push.out_dist = prev.push.out_ref + w * h;
                prev.push.out_stride = w;
            }
            j.push.width = w;
            j.push.height = h;
            j.push.stats = s == 0 && skip_scale0 ? 0 : 1;
            for (uint32_t k = 0; k < vif::gpu::kMaxLimits; k++)  // unused ones: a copy of the first
                split_double(settings_[k < limits ? k : 0].gain_limit, &j.push.limit_lo[k], &j.push.limit_hi[k],
                             &j.push.limit_exp[k]);
            j.groups_x = (w + vif::gpu::kTileW[s] - 1) / vif::gpu::kTileW[s];
            j.groups_y = (h + vif::gpu::kTileH[s] - 1) / vif::gpu::kTileH[s];
            if (j.groups_x > st.limits().maxComputeWorkGroupCount[0] ||
                j.groups_y > st.limits().maxComputeWorkGroupCount[1])
                return -ENOTSUP;
            j.first_part = part;
            part += j.groups_x * j.groups_y * vif::gpu::parts(limits);
        }
        *result_bytes = size_t(part) * sizeof(uint32_t);

        for (int s = 0; s < vif::kScales; s++) {
            const unsigned bits = vif::input_bits(s, fmt.bpc);
            const SpecConstant spec[] = {{0, s == 0 ? bytes_per_sample(fmt.bpc) : 2u},
                                         {1, vif::mean_shift(bits)},
                                         {2, vif::moment_shift(bits)},
                                         {3, limits}};
            PipelineDesc d;
            d.shader = st.float64() ? kShadersF64[s] : kShaders[s];
            d.buffers = 4;
            d.push_constant_size = sizeof(Push);
            d.spec = spec;
            if (int err = ComputePipeline::create(st, d, &pipelines_[s])) return err;
        }

        Allocator &a = st.allocator();
        constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        if (int err = a.create_buffer(at, kStorage, MemoryUse::Device, &scales_)) return err;
        return upload_log2_table(st);
    }

    int bind(const FrameBuffers &fb) override
    {
        if (fb.ref[0].w != fmt_.w || fb.ref[0].h != fmt_.h) return -EINVAL;
        const uint32_t bytes = fb.bytes_per_sample;
        Push &p0 = jobs_[0].push;
        p0.in_ref = uint32_t(fb.ref[0].offset / bytes);
        p0.in_dist = uint32_t(fb.dist[0].offset / bytes);
        p0.in_stride = fb.ref[0].stride / bytes;
        for (int s = 0; s < vif::kScales; s++) {
            const BufferRange buffers[] = {{fb.planes, 0, fb.planes_size},
                                           scale_range(s),
                                           {log2_->get(), 0, log2_->size()},
                                           {fb.results, 0, fb.results_size}};
            if (int err = pipelines_[s]->make_set(buffers, &sets_[s])) return err;
        }
        return 0;
    }

    // Stage s runs scale s, which reads what scale s - 1 wrote (the Engine's
    // barrier between stages orders them); carrying, scales 2 and 3 are the
    // carried stages 0 and 1.
    unsigned stages() const override { return vif::kScales - (carry_ ? kCarried : 0); }
    unsigned carried_stages() const override { return carry_ ? kCarried : 0; }
    unsigned carry_offer() const override { return kCarried; }
    void carry() override { carry_ = true; }
    // Scales 0 and 1's sums come first in the results.
    size_t carried_results_at() const override
    {
        return carry_ ? size_t(jobs_[vif::kScales - kCarried].first_part) * sizeof(uint32_t) : 0;
    }

    int record(const Recording &rec) override
    {
        const unsigned s = rec.stage + (rec.carried ? vif::kScales - kCarried : 0);
        Push push = jobs_[s].push;
        push.partial_index = uint32_t(rec.result_offset / sizeof(uint32_t)) + jobs_[s].first_part;
        pipelines_[s]->dispatch(rec.cmd, sets_[s], &push, jobs_[s].groups_x, jobs_[s].groups_y);
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        return collect_variant(results, index, 0, sink);
    }

    // Variant v: the sums every limit shares and limit v's Σ log2. The
    // workgroups' sums are added once per frame, for every variant.
    int collect_variant(std::span<const std::byte> results, unsigned index, unsigned v, ScoreSink &sink) override
    {
        if (v >= settings_.size()) return -EINVAL;
        if (summed_.data != results.data() || summed_.index != index) add_groups(results, index);
        vif::ScaleScore score[vif::kScales] = {};
        for (int s = 0; s < vif::kScales; s++) {
            if (s == 0 && settings_[v].skip_scale0) continue;
            const uint64_t *sum = summed_.sums[s];
            vif::Sums sums;
            sums.den_lin = int64_t(sum[vif::gpu::kPartDenLin]);
            sums.num_lin = int64_t((sum[vif::gpu::kPartLinHi] << 16) + sum[vif::gpu::kPartLinLo]);
            sums.num_log = int64_t(sum[vif::gpu::num_log_part(v)]);
            sums.den_log = int64_t(sum[vif::gpu::kPartDenLog]);
            score[s] = vif::finish(sums);
        }
        return vif::write_scores(score, settings_[v], index, sink);
    }

    int flush_variant(unsigned v, ScoreSink &) override { return v < settings_.size() ? 0 : -EINVAL; }

private:
    // The scratch pairs scale s binds: the one it reads (none at scale 0)
    // through the one it writes (none at scale 3).
    BufferRange scale_range(int s) const
    {
        const int first = std::max(s, 1), last = std::min(s + 1, vif::kScales - 1);
        return {scales_.get(), pair_at_[first], pair_at_[last] + pair_bytes_[last] - pair_at_[first]};
    }

    // Every scale's workgroup sums of one frame's results, added per part.
    void add_groups(std::span<const std::byte> results, unsigned index)
    {
        const uint32_t stride = vif::gpu::parts(uint32_t(settings_.size()));
        for (int s = 0; s < vif::kScales; s++) {
            uint64_t *sum = summed_.sums[s];
            std::fill(sum, sum + vif::gpu::parts(vif::gpu::kMaxLimits), 0);
            if (s == 0 && settings_[0].skip_scale0) continue;  // alike in every variant
            const ScaleJob &j = jobs_[s];
            const size_t n = size_t(j.groups_x) * j.groups_y * stride;
            for (size_t i = 0; i < n; i += stride)
                for (uint32_t k = 0; k < stride; k++) sum[k] += result_at<uint32_t>(results, j.first_part + i + k);
        }
        summed_.data = results.data();
        summed_.index = index;
    }

    // The Q11 log2 table, built by the CPU's own function, into device memory.
    int upload_log2_table(State &st)
    {
        const vif::Log2Table table = vif::make_log2_table();
        std::vector<uint16_t> words(table.begin(), table.end());
        words.resize((words.size() + 1) / 2 * 2);  // whole 32-bit words
        return upload_table(st, std::as_bytes(std::span(words)), &log2_);
    }

    std::vector<vif::Settings> settings_;  // per variant: only gain_limit differs
    State *st_ = nullptr;
    FrameFormat fmt_{};
    std::array<ScaleJob, vif::kScales> jobs_{};
    VkDeviceSize pair_at_[vif::kScales] = {}, pair_bytes_[vif::kScales] = {};  // scales 1-3 in scales_
    bool carry_ = false;
    std::array<std::unique_ptr<ComputePipeline>, vif::kScales> pipelines_;
    std::array<VkDescriptorSet, vif::kScales> sets_{};
    Buffer scales_;
    std::shared_ptr<const Buffer> log2_;  // the device's one copy (upload_table)
    // The frame add_groups() added last (its results and index).
    struct {
        const std::byte *data = nullptr;
        unsigned index = 0;
        uint64_t sums[vif::kScales][vif::gpu::parts(vif::gpu::kMaxLimits)] = {};
    } summed_;
};

bool supports(const State &, const FrameFormat &, const FeatureOptions &)
{
    return true;  // every option: they shape the host's finishing or a push constant
}

std::unique_ptr<Feature> create(const FeatureOptions &o)
{
    return std::make_unique<VifVk>(std::span<const FeatureOptions>(&o, 1));
}

// Configurations alike but for the gain limit share the whole kernel.
bool shares(const SharedConfig &a, const SharedConfig &b)
{
    return a.info == b.info && a.opts->same_except(*b.opts, kLimitOption);
}

std::unique_ptr<Feature> create_shared(std::span<const SharedConfig> configs)
{
    if (configs.empty() || configs.size() > vif::gpu::kMaxLimits) return nullptr;
    std::vector<FeatureOptions> opts;
    for (const SharedConfig &c : configs) opts.push_back(*c.opts);
    return std::make_unique<VifVk>(opts);
}

}  // namespace

const FeatureInfo kVifFeature = {"vif", supports, create, shares, create_shared, vif::gpu::kMaxLimits};

}  // namespace vmaf::vk
