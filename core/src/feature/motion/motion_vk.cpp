// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer motion on the GPU: the twin of motion_cpu.cpp.
//
// The CPU blurs the difference of the previous and the current reference luma,
// so the previous luma itself (not a blurred frame: blurring each picture on its
// own would round differently) is kept on the device, in this feature's history
// buffer: a ring of lag + 1 luma planes indexed by the count of frames recorded,
// two for the usual window and three for the five-frame one. Stage 0
// (feature/motion/motion_sad.comp, one workgroup per tile of 64 x 16 outputs) copies
// the reference luma into the ring's plane of this frame and, when the frame
// compares (index >= lag, not force_zero), blurs its difference with the plane
// from `lag` frames back and writes each tile row's 32-bit SAD; stage 1
// (motion_rows.comp) adds a row's tiles into one 32-bit SAD per row.
//
// The Engine's barrier at the start of every frame orders each frame's copy
// before the next frames' reads. collect() adds the rows into the CPU's 64-bit
// SAD and scores it with motion_score.h, which also writes motion2 and motion3
// at flush: both backends print the same numbers by the same code.
#include <algorithm>
#include <cerrno>

#include "feature/motion/motion.h"
#include "feature/motion/motion_score.h"
#include "feature/motion/motion_tables.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "util/align.h"
#include "vulkan/state.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {

namespace {

using motion::gpu::kTileW;
using motion::gpu::kTileH;
constexpr uint32_t kRowsGroup = 64;  // motion_rows.comp's workgroup size (spec constant 0): rows

// feature/motion/motion_sad.comp's push constants.
struct Push {
    uint32_t cur, prev, keep, stride;  // 32-bit words
    uint32_t width, height;            // samples
    uint32_t compare;
};

// feature/motion/motion_rows.comp's.
struct RowsPush {
    uint32_t height, tiles_per_row, out_index;
};

class MotionVk final : public Feature {
public:
    explicit MotionVk(const FeatureOptions &o) : settings_(motion::Settings::from(o)) {}

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        if (fmt.w < 3 || fmt.h < 3) return -EINVAL;  // the 5-tap mirror needs 3 samples, as on the CPU
        st_ = &st;
        fmt_ = fmt;
        *result_bytes = 0;
        if (settings_.force_zero) return 0;  // every score is 0: no GPU work at all

        const VkPhysicalDeviceLimits &lim = st.limits();
        tiles_x_ = (fmt.w + kTileW - 1) / kTileW;
        tiles_y_ = (fmt.h + kTileH - 1) / kTileH;
        if (tiles_x_ > lim.maxComputeWorkGroupCount[0] || tiles_y_ > lim.maxComputeWorkGroupCount[1] ||
            (fmt.h + kRowsGroup - 1) / kRowsGroup > lim.maxComputeWorkGroupCount[0])
            return -ENOTSUP;
        const SpecConstant spec[] = {{1, bytes_per_sample(fmt.bpc)},
                                     {2, motion::vertical_shift(fmt.bpc)},
                                     {3, motion::wide_vertical_sum(fmt.bpc) ? 1u : 0u}};
        PipelineDesc d;
        d.shader = &spirv::motion_sad;
        d.buffers = 3;
        d.push_constant_size = sizeof(Push);
        d.spec = spec;
        if (int err = ComputePipeline::create(st, d, &pipeline_)) return err;
        const SpecConstant rows_spec[] = {{0, kRowsGroup}};
        PipelineDesc r;
        r.shader = &spirv::motion_rows;
        r.spec = rows_spec;
        r.buffers = 2;
        r.push_constant_size = sizeof(RowsPush);
        if (int err = ComputePipeline::create(st, r, &rows_pipeline_)) return err;

        push_.width = fmt.w;
        push_.height = fmt.h;
        rows_push_.height = fmt.h;
        rows_push_.tiles_per_row = tiles_x_;
        *result_bytes = size_t(fmt.h) * sizeof(uint32_t);
        return 0;
    }

    int bind(const FrameBuffers &fb) override
    {
        if (settings_.force_zero) return 0;
        const PlaneRegion &luma = fb.ref[0];
        if (luma.w != fmt_.w || luma.h != fmt_.h) return -EINVAL;
        slot_bytes_ = align_up(VkDeviceSize(luma.stride) * luma.h, kBindAlign);
        depth_ = settings_.lag() + 1;
        if (slot_bytes_ * depth_ > st_->limits().maxStorageBufferRange) return -ENOTSUP;
        if (int err = st_->allocator().create_buffer(slot_bytes_ * depth_, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                     MemoryUse::Device, &history_))
            return err;
        if (int err = st_->allocator().create_buffer(size_t(tiles_x_) * fmt_.h * sizeof(uint32_t),
                                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Device, &tiles_))
            return err;
        push_.cur = uint32_t(luma.offset / 4);
        push_.stride = luma.stride / 4;
        const BufferRange buffers[] = {{fb.planes, 0, fb.planes_size},
                                       {history_.get(), 0, history_.size()},
                                       {tiles_.get(), 0, tiles_.size()}};
        if (int err = pipeline_->make_set(buffers, &set_)) return err;
        const BufferRange rows[] = {{tiles_.get(), 0, tiles_.size()}, {fb.results, 0, fb.results_size}};
        return rows_pipeline_->make_set(rows, &rows_set_);
    }

    // Stage 0: the tiles; stage 1: their rows' sums.
    unsigned stages() const override { return 2; }

    int record(const Recording &rec) override
    {
        if (settings_.force_zero) return 0;
        const bool compares = settings_.compares(rec.index);
        if (rec.stage == 1) {
            if (compares) {
                RowsPush r = rows_push_;
                r.out_index = uint32_t(rec.result_offset / sizeof(uint32_t));
                rows_pipeline_->dispatch(rec.cmd, rows_set_, &r, (fmt_.h + kRowsGroup - 1) / kRowsGroup);
            }
            return 0;
        }
        const unsigned lag = settings_.lag();
        Push push = push_;
        push.keep = slot_word(recorded_);
        if (compares) {
            if (recorded_ < lag) return -EINVAL;  // as on the CPU: no picture `lag` frames back
            push.compare = 1;
            push.prev = slot_word(recorded_ - lag);
        }
        pipeline_->dispatch(rec.cmd, set_, &push, tiles_x_, tiles_y_);
        recorded_++;
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        double score = 0.0;
        if (settings_.compares(index)) {
            uint64_t sad = 0;
            for (uint32_t y = 0; y < fmt_.h; y++) sad += result_at<uint32_t>(results, y);
            score = motion::frame_score(sad, fmt_.w, fmt_.h, settings_);
        }
        return motion::write_frame(score, settings_, index, sink);
    }

    int flush(ScoreSink &sink) override { return motion::write_sequence(settings_, sink); }

private:
    uint32_t slot_word(uint64_t frame) const { return uint32_t(frame % depth_ * slot_bytes_ / 4); }

    motion::Settings settings_;
    State *st_ = nullptr;
    FrameFormat fmt_{};
    std::unique_ptr<ComputePipeline> pipeline_, rows_pipeline_;
    VkDescriptorSet set_ = VK_NULL_HANDLE, rows_set_ = VK_NULL_HANDLE;
    Push push_{};
    RowsPush rows_push_{};
    uint32_t tiles_x_ = 0, tiles_y_ = 0;
    Buffer history_;            // the ring of luma planes, laid out like the engine's
    Buffer tiles_;              // each tile row's SAD, [row][tile column]
    VkDeviceSize slot_bytes_ = 0;
    unsigned depth_ = 2;
    uint64_t recorded_ = 0;     // frames recorded so far
};

bool supports(const State &, const FrameFormat &, const FeatureOptions &)
{
    return true;  // every option: the GPU computes the SAD, the rest is shared host code
}

std::unique_ptr<Feature> create(const FeatureOptions &o)
{
    return std::make_unique<MotionVk>(o);
}

}  // namespace

const FeatureInfo kMotionFeature = {"motion", supports, create};

}  // namespace vmaf::vk
