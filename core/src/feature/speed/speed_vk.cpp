// SPDX-License-Identifier: BSD-2-Clause-Patent
// speed_chroma and speed_temporal on the GPU: the twins of speed_cpu.cpp.
//
// The per-sample work runs in four stages of kernels (speed_*.comp, sharing
// speed_common.glsl), one dispatch per prepared plane ("job": speed_chroma's
// reference and distorted Cb and Cr planes, speed_temporal's reference and
// distorted differences):
//   0 speed_blur   the anti-aliasing blur at every 16th row and column of the
//                  float picture (speed_temporal: of the previous frame minus
//                  this one; speed_copy keeps this frame's luma planes for the
//                  next),
//   1 speed_local  the local mean removed: the prepared plane, also written
//                  to the results,
//   2 speed_mean   the 25 window means,
//   3 speed_cov    the 325 covariance sums, as CovAcc's 9 accumulators each.
// Each follows the CPU's float and double operations in its order
// (speed_engine.cpp's prepare() and covariance(), float_vif's filters,
// speed_kernel.h's cov_row with the lanes of CovKernels::Best). collect()
// adds the lanes (CovAcc::total()), divides (Engine::covariance_entry) and
// runs speed::Engine's fit and comparison on them: the CPU's own code from
// there on, on the Engine's workers where it has them (a copy of the
// speed::Engine per worker, ADR 0066). speed_prescale resamples where the blur reads, from tables of
// input samples and weights per output row and column that the CPU's own
// float_vif_scale.h computes. Declined (the CPU extractor runs): devices
// without shaderFloat64, bilinear resampling wider than float_vif's limit,
// and what the CPU extractor rejects (4:0:0 for speed_chroma, planes too
// small, unknown kernel scales), so that its messages stay its own.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "feature/common/float_picture.h"
#include "feature/common/float_vif_kernel.h"
#include "feature/common/float_vif_scale.h"
#include "feature/options.h"
#include "feature/speed/speed.h"
#include "feature/speed/speed_engine.h"
#include "feature/speed/speed_kernel.h"
#include "feature/speed/speed_tables.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "util/align.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

using namespace speed;

constexpr unsigned kStages = 4;
constexpr uint32_t kCovDoubles = uint32_t(gpu::kCovEntries) * gpu::kCovLanes;
constexpr uint32_t kCovGroups = (kCovDoubles + gpu::kCovThreads - 1) / gpu::kCovThreads;
constexpr uint32_t kCopyGroups = 256;
constexpr uint32_t kScratchAlign = kBindAlign / sizeof(float);

struct CopyPush {
    uint32_t src, dst, count;
};
struct BlurPush {
    uint32_t cur, prev, stride;
    int32_t w, h;
    uint32_t dw, dh, out_at, rows_at;
};
struct LocalPush {
    uint32_t raw_at, dec_at, dw, dh, result_at;
};
struct MeanPush {
    uint32_t dec_at, mean_at, dw, sw, sh;
};
struct CovPush {
    uint32_t dec_at, mean_at, dw, sw, sh, result_at;
};

// One prepared plane: where its inputs are (the plane in the Engine's
// planes, for speed_temporal the side's copy in the history), its scratch
// and its results.
struct Job {
    unsigned plane = 0;   // the picture plane
    bool dist = false;    // which picture the blurred samples come from
    bool history_dist = false;  // speed_temporal: whose previous plane is subtracted from them
    uint32_t raw_at = 0, dec_at = 0, mean_at = 0;  // floats in the scratch
    uint32_t cov_at = 0, dec_result_at = 0;        // bytes in the feature's results
};

// speed_prescale on the GPU (speed_common.glsl's kResample).
enum class Resample : uint32_t { None = 0, Nearest = 1, Bilinear = 2, Bicubic = 3, Lanczos4 = 4 };

// How the twin resamples; false where it does not (bilinear wider than
// float_vif's limit).
bool resample_of(const Params &p, const Dims &d, Resample *out)
{
    // The same size in and out is a copy (float_vif::scale_plane).
    if (!prescales(p.prescale) || (d.scaled_w == d.w && d.scaled_h == d.h)) *out = Resample::None;
    else if (p.prescale_method == float_vif::ScaleMethod::Nearest) *out = Resample::Nearest;
    else if (p.prescale_method == float_vif::ScaleMethod::Bilinear && d.scaled_w <= float_vif::kBilinearMaxWidth)
        *out = Resample::Bilinear;
    else if (p.prescale_method == float_vif::ScaleMethod::Bicubic) *out = Resample::Bicubic;
    else if (p.prescale_method == float_vif::ScaleMethod::Lanczos4) *out = Resample::Lanczos4;
    else return false;
    return true;
}

// The taps as specialization constants (speed_tables.glsl).
bool taps_fit(const Params &p)
{
    const float ks = float(p.kernelscale);
    return float_vif::filter_taps(1, ks) <= gpu::kMaxAaTaps && float_vif::filter_taps(kScales, ks) <= gpu::kMaxLocalTaps;
}

// The plane size the CPU extractor scores; false where it would fail.
bool plane_size(bool chroma, const FrameFormat &fmt, unsigned *w, unsigned *h)
{
    if (!chroma) {
        *w = fmt.w;
        *h = fmt.h;
        return true;
    }
    return chroma_size(fmt, w, h);
}

class SpeedVk final : public Feature {
public:
    SpeedVk(const FeatureOptions &o, bool chroma)
        : chroma_(chroma), p_(read_params(o, chroma)), max_val_(o.number("speed_max_val")),
          use_ref_diff_(!chroma && o.flag("speed_use_ref_diff"))
    {
    }

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        st_ = &st;
        fmt_ = fmt;
        unsigned w, h;
        if (!plane_size(chroma_, fmt, &w, &h) || !taps_fit(p_)) return -ENOTSUP;
        char what[96];
        if (chroma_) std::snprintf(what, sizeof what, "the chroma planes of %ux%u pictures", fmt.w, fmt.h);
        else std::snprintf(what, sizeof what, "the luma planes");
        if (int err = engine_.init(int(w), int(h), p_, chroma_ ? "speed_chroma" : "speed_temporal", what))
            return err;
        finishers_.assign(1, Finisher{engine_, {}, {}});
        const Dims &d = engine_.dims();
        if (!resample_of(p_, d, &resample_)) return -ENOTSUP;
        if (int err = make_tables(st, d)) return err;
        dec_floats_ = uint32_t(d.dec_w) * uint32_t(d.dec_h);

        // Jobs: chroma's ref Cb, dist Cb, ref Cr, dist Cr; temporal's ref, dist.
        jobs_.clear();
        if (chroma_)
            for (unsigned c = 1; c <= 2; c++)
                for (bool dist : {false, true}) jobs_.push_back(Job{c, dist, dist});
        else {
            jobs_.push_back(Job{0, false, false});
            jobs_.push_back(Job{0, use_ref_diff_ ? false : true, true});
        }
        uint32_t scratch = 0;
        size_t result_at = 0;
        for (Job &j : jobs_) {
            j.raw_at = scratch;
            scratch = align_up(scratch + dec_floats_, kScratchAlign);
            j.dec_at = scratch;
            scratch = align_up(scratch + dec_floats_, kScratchAlign);
            j.mean_at = scratch;
            scratch = align_up(scratch + uint32_t(kBlockElems), kScratchAlign);
            j.cov_at = uint32_t(result_at);
            result_at += kCovDoubles * sizeof(double);
        }
        for (Job &j : jobs_) {
            j.dec_result_at = uint32_t(result_at);
            result_at += dec_floats_ * sizeof(float);
        }
        *result_bytes = align_up(result_at, sizeof(double));
        if (int err = st.allocator().create_buffer(VkDeviceSize(scratch) * sizeof(float),
                                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Device, &scratch_))
            return err;

        // The specialization constants every kernel shares; the taps are the
        // CPU engine's own.
        const float_vif::Kernel &aa = engine_.antialias(), &local = engine_.local();
        if (aa.taps > gpu::kMaxAaTaps || local.taps > gpu::kMaxLocalTaps) return -ENOTSUP;
        spec_.clear();
        spec_.push_back({0, fmt.bpc > 8 ? 2u : 1u});
        spec_.push_back({1, std::bit_cast<uint32_t>(1.0f / float_scaler(fmt.bpc))});  // a power of two: exact
        spec_.push_back({2, uint32_t(aa.taps)});
        spec_.push_back({3, uint32_t(local.taps)});
        spec_.push_back({4, chroma_ ? 0u : 1u});
        spec_.push_back({5, uint32_t(resample_)});
        for (int k = 0; k < aa.taps; k++)
            spec_.push_back({uint32_t(gpu::kAaTapsSpecId + k), std::bit_cast<uint32_t>(aa.f[k])});
        for (int k = 0; k < local.taps; k++)
            spec_.push_back({uint32_t(gpu::kLocalTapsSpecId + k), std::bit_cast<uint32_t>(local.f[k])});

        struct Kernel {
            const spirv::Shader *shader;
            uint32_t push;
            std::unique_ptr<ComputePipeline> *out;
        };
        const Kernel kernels[] = {{&spirv::speed_copy, sizeof(CopyPush), &copy_},
                                  {&spirv::speed_blur, sizeof(BlurPush), &blur_},
                                  {&spirv::speed_local, sizeof(LocalPush), &local_},
                                  {&spirv::speed_mean, sizeof(MeanPush), &mean_},
                                  {&spirv::speed_cov, sizeof(CovPush), &cov_}};
        for (const Kernel &k : kernels) {
            if (chroma_ && k.shader == &spirv::speed_copy) continue;
            PipelineDesc desc;
            desc.shader = k.shader;
            desc.buffers = 5;
            desc.push_constant_size = k.push;
            desc.spec = spec_;
            desc.max_sets = 2;
            if (int err = ComputePipeline::create(st, desc, k.out)) return err;
        }
        return 0;
    }

    int bind(const FrameBuffers &fb) override
    {
        const unsigned bps = fb.bytes_per_sample;
        for (const Job &j : jobs_) {
            const PlaneRegion &r = fb.ref[j.plane];
            if (int(r.w) < engine_.dims().w || int(r.h) < engine_.dims().h) return -EINVAL;
        }
        VkBuffer history = fb.planes;
        VkDeviceSize history_size = fb.planes_size;
        if (!chroma_) {
            // Two copies (by frame parity) of both luma planes.
            const PlaneRegion &luma = fb.ref[0];
            slot_bytes_ = align_up(VkDeviceSize(luma.stride) * luma.h, kBindAlign);
            if (slot_bytes_ * 4 > st_->limits().maxStorageBufferRange) return -ENOTSUP;
            if (int err = st_->allocator().create_buffer(slot_bytes_ * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                         MemoryUse::Device, &history_))
                return err;
            history = history_.get();
            history_size = history_.size();
        }
        for (size_t i = 0; i < jobs_.size(); i++) {
            const Job &j = jobs_[i];
            const PlaneRegion &pr = j.dist ? fb.dist[j.plane] : fb.ref[j.plane];
            plane_at_[i] = uint32_t(pr.offset / bps);
            stride_at_[i] = pr.stride / bps;
        }
        ref_word_ = uint32_t(fb.ref[0].offset / 4);
        dist_word_ = uint32_t(fb.dist[0].offset / 4);
        copy_words_ = uint32_t(VkDeviceSize(fb.ref[0].stride) * fb.ref[0].h / 4);
        bps_ = bps;
        // speed_temporal's copy of frame parity p binds the history slots of
        // p, its blur those of the other parity (the frame before), so that
        // the two dispatches of a stage touch disjoint ranges.
        for (unsigned parity = 0; parity < 2; parity++) {
            BufferRange own = {history, 0, history_size}, before = own;
            if (!chroma_) {
                own = {history, 2 * parity * slot_bytes_, 2 * slot_bytes_};
                before = {history, 2 * (parity ^ 1u) * slot_bytes_, 2 * slot_bytes_};
            }
            const BufferRange planes = {fb.planes, 0, fb.planes_size};
            const BufferRange scratch = {scratch_.get(), 0, scratch_.size()};
            const BufferRange results = {fb.results, 0, fb.results_size};
            const BufferRange tables = {tables_.get(), 0, tables_.size()};
            const BufferRange copy[] = {planes, own, scratch, results, tables};
            const BufferRange rest[] = {planes, before, scratch, results, tables};
            if (copy_)
                if (int err = copy_->make_set(copy, &copy_set_[parity])) return err;
            if (int err = blur_->make_set(rest, &blur_set_[parity])) return err;
            if (parity) continue;
            if (int err = local_->make_set(rest, &local_set_)) return err;
            if (int err = mean_->make_set(rest, &mean_set_)) return err;
            if (int err = cov_->make_set(rest, &cov_set_)) return err;
        }
        return 0;
    }

    unsigned stages() const override { return kStages; }

    int record(const Recording &rec) override
    {
        if (rec.result_offset % sizeof(uint32_t)) return -EINVAL;
        const uint32_t result_word = uint32_t(rec.result_offset / sizeof(uint32_t));
        const Dims &d = engine_.dims();
        if (rec.stage == 0) {
            parity_ = recorded_ & 1u;
            first_ = recorded_ == 0;
            if (first_) first_index_ = rec.index;
            recorded_++;
        }
        if (!chroma_ && rec.stage == 0) {
            // This frame's planes into the history copies of its parity.
            for (unsigned side = 0; side < 2; side++) {
                const CopyPush push = {side ? dist_word_ : ref_word_, history_word(side), copy_words_};
                copy_->dispatch(rec.cmd, copy_set_[parity_], &push, kCopyGroups);
            }
        }
        if (!chroma_ && first_) return 0;  // speed_temporal's first frame scores 0
        for (size_t i = 0; i < jobs_.size(); i++) {
            const Job &j = jobs_[i];
            switch (rec.stage) {
            case 0: {
                BlurPush push = {};
                push.cur = plane_at_[i];
                push.prev = chroma_ ? 0 : history_sample(j.history_dist ? 1 : 0);
                push.stride = stride_at_[i];
                push.w = d.scaled_w;
                push.h = d.scaled_h;
                push.rows_at = uint32_t(d.scaled_w);
                push.dw = uint32_t(d.dec_w);
                push.dh = uint32_t(d.dec_h);
                push.out_at = j.raw_at;
                blur_->dispatch(rec.cmd, blur_set_[parity_], &push, tiles(d.dec_w), tiles(d.dec_h));
                break;
            }
            case 1: {
                const LocalPush push = {j.raw_at, j.dec_at, uint32_t(d.dec_w), uint32_t(d.dec_h),
                                        result_word + j.dec_result_at / 4};
                local_->dispatch(rec.cmd, local_set_, &push, tiles(d.dec_w), tiles(d.dec_h));
                break;
            }
            case 2: {
                const MeanPush push = {j.dec_at, j.mean_at, uint32_t(d.dec_w), uint32_t(d.sub_w), uint32_t(d.sub_h)};
                mean_->dispatch(rec.cmd, mean_set_, &push, 1);
                break;
            }
            default: {
                const CovPush push = {j.dec_at,          j.mean_at,        uint32_t(d.dec_w),
                                      uint32_t(d.sub_w), uint32_t(d.sub_h), result_word + j.cov_at / 4};
                cov_->dispatch(rec.cmd, cov_set_, &push, kCovGroups);
                break;
            }
            }
        }
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        return finish(finishers_[0], results, index, sink);
    }

    // Each worker fits with a copy of the engine (its scratch is per call).
    bool collect_on_workers(unsigned workers) override
    {
        finishers_.assign(workers, Finisher{engine_, {}, {}});
        return true;
    }
    int collect_on(unsigned worker, std::span<const std::byte> results, unsigned index, unsigned v,
                   ScoreSink &sink) override
    {
        if (v != 0 || worker >= finishers_.size()) return -EINVAL;
        return finish(finishers_[worker], results, index, sink);
    }

private:
    // What one collecting thread fits with: speed::Engine keeps its scratch.
    struct Finisher {
        Engine engine;
        std::vector<float> dec[2], cov[2];  // the sides' copies
    };

    int finish(Finisher &w, std::span<const std::byte> results, unsigned index, ScoreSink &sink)
    {
        if (!chroma_) {
            // The first frame recorded has no frame before it.
            if (index == first_index_) return sink.append(kTemporalName, index, 0.0);
            bool singular;
            const float score = score_pair(w, results, 0, &singular);
            return sink.append(kTemporalName, index, double(score));
        }
        float score[2];
        bool singular[2];
        for (unsigned c = 0; c < 2; c++) score[c] = score_pair(w, results, 2 * c, &singular[c]);
        const float uv = chroma_uv(score, singular);
        if (int err = sink.append(kChromaUName, index, clip_score(score[0], max_val_))) return err;
        if (int err = sink.append(kChromaVName, index, clip_score(score[1], max_val_))) return err;
        return sink.append(kChromaUvName, index, clip_score(uv, max_val_));
    }

    // speed_prescale's tables (speed_common.glsl): per output column, then
    // per output row, i1, i2 and d, from the CPU's own float_vif_scale.h.
    int make_tables(State &st, const Dims &d)
    {
        std::vector<uint32_t> t;
        auto add = [&](int n_out, int n_in) {
            const float ratio = float_vif::scale_ratio(n_in, n_out);
            for (int i = 0; i < n_out; i++) {
                if (resample_ == Resample::Nearest) {
                    const int k = float_vif::nearest_index(i, ratio);
                    t.insert(t.end(), {uint32_t(k), uint32_t(k), 0u});
                } else if (resample_ == Resample::Bilinear) {
                    const float_vif::BilinearTap b = float_vif::bilinear_tap(i, ratio, n_in);
                    t.insert(t.end(), {uint32_t(b.i1), uint32_t(b.i2), std::bit_cast<uint32_t>(b.d)});
                } else if (resample_ == Resample::Bicubic) {
                    append(t, float_vif::bicubic_axis(float_vif::source_coord(i, ratio), n_in));
                } else {
                    append(t, float_vif::lanczos_axis(float_vif::source_coord(i, ratio), n_in));
                }
            }
        };
        if (resample_ != Resample::None) {
            add(d.scaled_w, d.w);
            add(d.scaled_h, d.h);
        } else {
            t.assign(4, 0u);  // the binding exists, unused
        }
        const VkDeviceSize bytes = t.size() * sizeof(uint32_t);
        if (int err = st.allocator().create_buffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Shared,
                                                   &tables_))
            return err;
        if (!tables_.data()) return -ENOTSUP;
        std::memcpy(tables_.data(), t.data(), bytes);
        return tables_.flush();
    }

    template <int K>
    static void append(std::vector<uint32_t> &t, const float_vif::AxisTaps<K> &a)
    {
        for (int k = 0; k < K; k++) t.push_back(uint32_t(a.index[k]));
        for (int k = 0; k < K; k++) t.push_back(std::bit_cast<uint32_t>(a.weight[k]));
    }

    static uint32_t tiles(int n) { return (uint32_t(n) + gpu::kTile - 1) / gpu::kTile; }
    // A side's slot in the history range a set binds (one parity's).
    uint32_t history_word(unsigned side) const { return uint32_t(slot_bytes_ * side / 4); }
    uint32_t history_sample(unsigned side) const { return uint32_t(slot_bytes_ * side / bps_); }

    // The score of jobs first (reference) and first + 1 (distorted).
    float score_pair(Finisher &w, std::span<const std::byte> results, size_t first, bool *singular)
    {
        for (unsigned s = 0; s < 2; s++) {
            const Job &j = jobs_[first + s];
            w.dec[s].resize(dec_floats_);
            std::memcpy(w.dec[s].data(), results.data() + j.dec_result_at, dec_floats_ * sizeof(float));
            w.cov[s].resize(gpu::kCovEntries);
            for (int e = 0; e < gpu::kCovEntries; e++) {
                double lanes[gpu::kCovLanes];
                std::memcpy(lanes, results.data() + j.cov_at + size_t(e) * sizeof lanes, sizeof lanes);
                w.cov[s][size_t(e)] = w.engine.covariance_entry(gpu::cov_from_lanes(lanes).total());
            }
        }
        return w.engine.score(Engine::Prepared{w.dec[0].data(), w.cov[0].data()},
                              Engine::Prepared{w.dec[1].data(), w.cov[1].data()}, singular);
    }

    const bool chroma_;
    const Params p_;
    const double max_val_;
    const bool use_ref_diff_;
    State *st_ = nullptr;
    FrameFormat fmt_{};
    Resample resample_ = Resample::None;
    Engine engine_;
    uint32_t dec_floats_ = 0;
    std::vector<Job> jobs_;
    std::vector<SpecConstant> spec_;
    Buffer scratch_, history_, tables_;
    std::unique_ptr<ComputePipeline> copy_, blur_, local_, mean_, cov_;
    VkDescriptorSet copy_set_[2] = {}, blur_set_[2] = {};  // by frame parity
    VkDescriptorSet local_set_ = VK_NULL_HANDLE, mean_set_ = VK_NULL_HANDLE, cov_set_ = VK_NULL_HANDLE;
    std::array<uint32_t, 4> plane_at_{}, stride_at_{};
    uint32_t ref_word_ = 0, dist_word_ = 0, copy_words_ = 0;
    unsigned bps_ = 1;
    VkDeviceSize slot_bytes_ = 0;
    uint64_t recorded_ = 0;
    unsigned first_index_ = 0;  // of the first frame recorded
    unsigned parity_ = 0;
    bool first_ = true;
    std::vector<Finisher> finishers_;  // [0] for collect(); one per worker (collect_on_workers)
};

bool supports_common(const State &st, const FrameFormat &fmt, const FeatureOptions &o, bool chroma)
{
    if (!st.float64() || fmt.bpc < 8 || fmt.bpc > 16) return false;
    const Params p = read_params(o, chroma);
    if (!float_vif::valid_kernel_scale(float(p.kernelscale)) || !taps_fit(p)) return false;
    unsigned w, h;
    if (!plane_size(chroma, fmt, &w, &h)) return false;
    const Dims d = speed_dims(int(w), int(h), p.prescale);
    Resample r;
    return !d.too_small() && resample_of(p, d, &r);
}

bool supports_chroma(const State &st, const FrameFormat &fmt, const FeatureOptions &o)
{
    return supports_common(st, fmt, o, true);
}

bool supports_temporal(const State &st, const FrameFormat &fmt, const FeatureOptions &o)
{
    return supports_common(st, fmt, o, false);
}

std::unique_ptr<Feature> create_chroma(const FeatureOptions &o)
{
    return std::make_unique<SpeedVk>(o, true);
}

std::unique_ptr<Feature> create_temporal(const FeatureOptions &o)
{
    return std::make_unique<SpeedVk>(o, false);
}

}  // namespace

const FeatureInfo kSpeedChromaFeature = {"speed_chroma", supports_chroma, create_chroma};
const FeatureInfo kSpeedTemporalFeature = {"speed_temporal", supports_temporal, create_temporal};

}  // namespace vmaf::vk
