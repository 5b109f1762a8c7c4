// SPDX-License-Identifier: BSD-2-Clause-Patent
// psnr_hvs on the GPU: the twin of psnr_hvs_cpu.cpp, to the bit. Four kernels:
//   0. psnr_hvs_blocks.comp: every 8x8 block of the three planes in one
//      dispatch, 32 blocks per workgroup of 256 threads sharing the work, with
//      the CPU's integer DCT and its float masking arithmetic: the block's 64 weighted errors (the CPU's, bit for
//      bit) and their sum in double;
//   1. psnr_hvs_prefix.comp: per plane, the prefix sums of the blocks' sums
//      at each run of 64 blocks, an estimate of where the CPU's running float
//      sum stands there;
//   2. psnr_hvs_steps.comp: per block, the effect of its 64 float additions on
//      the running sum, for the few binades that sum may be in there, and the
//      same for each run of 64 consecutive blocks;
//   3. psnr_hvs_walk.comp: per plane, the CPU's serial float sum of all its
//      errors (psnr_hvs_sum.glsl says how it is reproduced without adding them
//      one by one), written as three floats: the whole readback.
// The first three are the frame's stages 0 to 3: the prefix runs in two
// passes (the runs' sums, then their prefixes), a stage each, so the barrier
// between them is a stage boundary the other features' chains share rather
// than a drain of its own. The walk, a chain of
// dependent rounds on three workgroups whose latency would add a stage to every
// frame, is carried into the next frame's command buffer (feature/twin.h,
// ADR 0047), where it runs beside that frame's stage 0. So the blocks' errors,
// which it reads, have two copies, one per frame parity.
// collect() finishes the scores with the CPU's code (psnr_hvs_tables.h).
#include <algorithm>
#include <array>
#include <cerrno>

#include "feature/psnr_hvs/psnr_hvs.h"
#include "feature/psnr_hvs/psnr_hvs_tables.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {

namespace {

constexpr uint32_t kBlocksPerGroup = 32;  // psnr_hvs_blocks.comp: a run of 32 blocks per workgroup
constexpr uint32_t kRunsPerPrefixGroup = 4;  // psnr_hvs_prefix.comp's first pass: 256 threads, 64 a run
constexpr uint32_t kRun = 64;  // blocks of a run: psnr_hvs_steps.comp takes one per workgroup

// psnr_hvs_blocks.comp's push constants.
struct BlocksPlane {
    uint32_t ref, dist, stride, blocks_x, blocks_y, first_block, pad_[2];
};
struct BlocksPush {
    BlocksPlane plane[3];
    uint32_t total_blocks;
};
// psnr_hvs_prefix.comp's.
struct PrefixPush {
    struct {
        uint32_t first_block, blocks, first_run, pad_;
    } plane[3];
    uint32_t total_blocks;
    uint32_t pass;  // 0: the runs' sums, 1: their prefixes
};
// psnr_hvs_steps.comp's.
struct StepsPush {
    uint32_t first_block[4];
    uint32_t blocks[4];
    uint32_t first_run[4];
    uint32_t total_blocks;
};
// psnr_hvs_walk.comp's.
struct WalkPush {
    uint32_t first_block[4];
    uint32_t blocks[4];
    uint32_t first_run[4];
    uint32_t total_blocks;
    uint32_t out_index;
};

// Blocks along a side of n samples: one at every multiple of 7 with 8 samples left.
uint32_t blocks_along(uint32_t n)
{
    return n < uint32_t(psnr_hvs::kBlock) ? 0 : (n - 1) / uint32_t(psnr_hvs::kStep);
}

class PsnrHvsVk final : public Feature {
public:
    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        st_ = &st;
        bpc_ = fmt.bpc;
        // The CPU's plane sizes: subsampled chroma rounded down.
        const unsigned ss_x = fmt.pix_fmt != VMAF_PIX_FMT_YUV444P;
        const unsigned ss_y = fmt.pix_fmt == VMAF_PIX_FMT_YUV420P;
        for (unsigned p = 0; p < 3; p++) {
            w_[p] = p ? fmt.w >> ss_x : fmt.w;
            h_[p] = p ? fmt.h >> ss_y : fmt.h;
            BlocksPlane &j = blocks_.plane[p];
            j.blocks_x = blocks_along(w_[p]);
            j.blocks_y = blocks_along(h_[p]);
            j.first_block = total_;
            blocks_in_[p] = j.blocks_x * j.blocks_y;
            total_ += blocks_in_[p];
            groups_x_ = std::max(groups_x_, (j.blocks_x + kBlocksPerGroup - 1) / kBlocksPerGroup);
            groups_y_ = std::max(groups_y_, j.blocks_y);
            prefix_.plane[p].first_block = steps_.first_block[p] = walk_.first_block[p] = j.first_block;
            prefix_.plane[p].blocks = steps_.blocks[p] = walk_.blocks[p] = blocks_in_[p];
            prefix_.plane[p].first_run = steps_.first_run[p] = walk_.first_run[p] = runs_;
            const uint32_t runs = (blocks_in_[p] + kRun - 1) / kRun;
            runs_ += runs;
            run_groups_ = std::max(run_groups_, runs);
        }
        prefix_.total_blocks = steps_.total_blocks = blocks_.total_blocks = walk_.total_blocks = total_;
        *result_bytes = 3 * sizeof(uint32_t);  // each plane's float sum
        if (!total_) return 0;  // no block anywhere: nothing runs on the GPU

        const auto &lim = st.limits().maxComputeWorkGroupCount;
        if (groups_x_ > lim[0] || groups_y_ > lim[1] || run_groups_ > lim[0]) return -ENOTSUP;

        const SpecConstant spec[] = {{0, bytes_per_sample(fmt.bpc)}};
        const struct {
            const spirv::Shader *shader;
            unsigned buffers;
            uint32_t push;
            std::span<const SpecConstant> spec;
        } kernels[4] = {
            {&spirv::psnr_hvs_blocks, 3, sizeof(BlocksPush), spec},
            {&spirv::psnr_hvs_prefix, 1, sizeof(PrefixPush), {}},
            {&spirv::psnr_hvs_steps, 4, sizeof(StepsPush), {}},
            {&spirv::psnr_hvs_walk, 4, sizeof(WalkPush), {}},
        };
        for (unsigned k = 0; k < 4; k++) {
            PipelineDesc d;
            d.shader = kernels[k].shader;
            d.buffers = kernels[k].buffers;
            d.push_constant_size = kernels[k].push;
            d.spec = kernels[k].spec;
            d.max_sets = 2;  // one per copy of terms_
            if (int err = ComputePipeline::create(st, d, &pipelines_[k])) return err;
        }
        Allocator &a = st.allocator();
        constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        for (unsigned b = 0; b < 2; b++)
            if (int err =
                    a.create_buffer(VkDeviceSize(total_) * 64 * sizeof(float), kStorage, MemoryUse::Device, &terms_[b]))
                return err;
        if (int err =
                a.create_buffer(VkDeviceSize(total_ + runs_) * sizeof(double), kStorage, MemoryUse::Device, &sums_))
            return err;
        if (int err = a.create_buffer(VkDeviceSize(total_) * psnr_hvs::gpu::kSummaryWords * sizeof(uint32_t),
                                      kStorage, MemoryUse::Device, &summaries_))
            return err;
        return a.create_buffer(VkDeviceSize(runs_) * psnr_hvs::gpu::kSummaryWords * sizeof(uint32_t), kStorage,
                               MemoryUse::Device, &run_summaries_);
    }

    int bind(const FrameBuffers &fb) override
    {
        if (fb.n_planes != 3) return -EINVAL;
        if (!total_) return 0;
        const uint32_t bps = fb.bytes_per_sample;
        for (unsigned p = 0; p < 3; p++) {
            if (fb.ref[p].w < w_[p] || fb.ref[p].h < h_[p] || fb.ref[p].stride != fb.dist[p].stride)
                return -EINVAL;
            BlocksPlane &j = blocks_.plane[p];
            j.ref = uint32_t(fb.ref[p].offset / bps);
            j.dist = uint32_t(fb.dist[p].offset / bps);
            j.stride = fb.ref[p].stride / bps;
        }
        const BufferRange planes{fb.planes, 0, fb.planes_size}, results{fb.results, 0, fb.results_size};
        const BufferRange summaries{summaries_.get(), 0, summaries_.size()};
        const BufferRange run_summaries{run_summaries_.get(), 0, run_summaries_.size()};
        const BufferRange sums{sums_.get(), 0, sums_.size()};
        for (unsigned b = 0; b < 2; b++) {
            const BufferRange terms{terms_[b].get(), 0, terms_[b].size()};
            const BufferRange set0[] = {planes, terms, sums}, set1[] = {sums},
                              set2[] = {terms, sums, summaries, run_summaries},
                              set3[] = {terms, summaries, results, run_summaries};
            const std::span<const BufferRange> sets[4] = {set0, set1, set2, set3};
            for (unsigned k = 0; k < 4; k++)
                if (int err = pipelines_[k]->make_set(sets[k], &sets_[b][k])) return err;
        }
        return 0;
    }

    unsigned stages() const override { return 4; }
    // The walk, beside the next frame's stage 0.
    unsigned carried_stages() const override { return total_ > 0 ? 1 : 0; }

    int record(const Recording &rec) override
    {
        if (!total_) return 0;
        // The copy of the errors this frame's stages write; the carried walk,
        // recorded before them, reads the other one, the previous frame's.
        if (!rec.carried && rec.stage == 0) parity_ ^= 1;
        const VkDescriptorSet *sets = sets_[parity_];
        switch (rec.carried ? 4 : rec.stage) {
        case 0: pipelines_[0]->dispatch(rec.cmd, sets[0], &blocks_, groups_x_, groups_y_, 3); break;
        case 1:  // the runs' sums
        case 2: {  // their prefixes
            PrefixPush push = prefix_;
            push.pass = rec.stage - 1;
            const uint32_t groups = (run_groups_ + kRunsPerPrefixGroup - 1) / kRunsPerPrefixGroup;
            pipelines_[1]->dispatch(rec.cmd, sets[1], &push, push.pass == 0 ? groups : 1, 1, 3);
            break;
        }
        case 3: pipelines_[2]->dispatch(rec.cmd, sets[2], &steps_, run_groups_, 1, 3); break;
        case 4: {
            WalkPush push = walk_;
            push.out_index = uint32_t(rec.result_offset / sizeof(uint32_t));
            pipelines_[3]->dispatch(rec.cmd, sets[3], &push, 1, 1, 3);
            break;
        }
        default: return -EINVAL;
        }
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        double score[3];
        for (unsigned p = 0; p < 3; p++) {
            // A plane without blocks: its sum stays 0, as the CPU's.
            const float sum = blocks_in_[p] ? result_at<float>(results, p) : 0.0f;
            const int count = int(blocks_in_[p]) * psnr_hvs::kBlock * psnr_hvs::kBlock;
            score[p] = psnr_hvs::plane_score(sum, count, bpc_);
            if (int err = sink.append(psnr_hvs::kNames[p], index, psnr_hvs::to_db(score[p]))) return err;
        }
        return sink.append(psnr_hvs::kCombined, index, psnr_hvs::to_db(psnr_hvs::combined_score(score)));
    }

private:
    const State *st_ = nullptr;
    unsigned bpc_ = 8;
    uint32_t w_[3] = {}, h_[3] = {}, blocks_in_[3] = {};
    uint32_t total_ = 0, groups_x_ = 0, groups_y_ = 0;
    uint32_t runs_ = 0, run_groups_ = 0;  // runs of kRun blocks in all planes, and in the largest
    BlocksPush blocks_{};
    PrefixPush prefix_{};
    StepsPush steps_{};
    WalkPush walk_{};
    std::unique_ptr<ComputePipeline> pipelines_[4];
    VkDescriptorSet sets_[2][4] = {};  // per copy of terms_
    Buffer terms_[2], sums_, summaries_, run_summaries_;
    unsigned parity_ = 1;  // the copy of terms_ the frame being recorded writes (the first frame's: 0)
};

// The CPU's accepted inputs (at most 12 bits, with chroma), on a device with
// shaderFloat64 (the kernels' divisions, square root and estimates are in
// double), where one storage binding holds all the blocks' errors and the
// dispatches fit the device's workgroup counts (beyond 8K; else the CPU runs it).
bool supports(const State &st, const FrameFormat &fmt, const FeatureOptions &)
{
    if (!st.float64() || fmt.bpc > psnr_hvs::kMaxBpc || fmt.pix_fmt == VMAF_PIX_FMT_YUV400P) return false;
    const unsigned ss_x = fmt.pix_fmt != VMAF_PIX_FMT_YUV444P;
    const unsigned ss_y = fmt.pix_fmt == VMAF_PIX_FMT_YUV420P;
    uint64_t blocks = 0;
    for (unsigned p = 0; p < 3; p++)
        blocks += uint64_t(blocks_along(p ? fmt.w >> ss_x : fmt.w)) * blocks_along(p ? fmt.h >> ss_y : fmt.h);
    const auto &groups = st.limits().maxComputeWorkGroupCount;
    return blocks * 64 * sizeof(float) <= st.limits().maxStorageBufferRange &&
           (blocks + kRun - 1) / kRun <= groups[0] && blocks_along(fmt.h) <= groups[1];
}

std::unique_ptr<Feature> create(const FeatureOptions &)
{
    return std::make_unique<PsnrHvsVk>();
}

}  // namespace

const FeatureInfo kPsnrHvsFeature = {"psnr_hvs", supports, create};

}  // namespace vmaf::vk
