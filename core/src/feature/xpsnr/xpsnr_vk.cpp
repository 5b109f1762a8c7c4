// SPDX-License-Identifier: BSD-2-Clause-Patent
// XPSNR on the GPU: the twin of xpsnr_cpu.cpp. One kernel
// (feature/xpsnr/xpsnr_block.comp, one workgroup per block) measures each luma
// block's squared error and spatial and temporal activity, moving the
// distorted luma on in this feature's history buffer (the previous frame and
// the one before, a 32-bit plane each), and each chroma block's squared error;
// collect() weighs and sums them with the same xpsnr_tables.h code as the CPU,
// so both print identical numbers.
#include <algorithm>
#include <array>
#include <cerrno>
#include <vector>

#include "feature/xpsnr/xpsnr.h"
#include "feature/xpsnr/xpsnr_tables.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

constexpr uint32_t kGroupSize = 64;

// feature/xpsnr/xpsnr_block.comp's push constants.
struct Push {
    uint32_t org_word, rec_word, org_stride, rec_stride, width, height, block_w, block_h, blocks_x, mode, first,
        out_index;
};

struct PlaneJob {
    Push push;
    uint32_t groups_x, groups_y;
    uint32_t first;  // its first 64-bit result
};

class XpsnrVk final : public Feature {
public:
    explicit XpsnrVk(const FeatureOptions &o) : fps_(unsigned(o.number("fps"))) {}

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        unsigned ss_x = 0, ss_y = 0;
        chroma_shift(fmt.pix_fmt, &ss_x, &ss_y);
        g_ = xpsnr::geometry(fmt, plane_count(fmt.pix_fmt) == 1 ? 1 : 3, ss_x, ss_y, fps_);
        const VkPhysicalDeviceLimits &lim = st.limits();
        uint32_t at = 0;
        for (unsigned p = 0; p < g_.planes; p++) {
            PlaneJob &j = jobs_[p];
            j.push.width = g_.pw[p];
            j.push.height = g_.ph[p];
            if (!g_.weighted()) {  // one block: the whole plane
                j.push.block_w = g_.pw[p];
                j.push.block_h = g_.ph[p];
                j.groups_x = j.groups_y = 1;
            } else {
                j.push.block_w = p ? g_.bx[p] : g_.b;
                j.push.block_h = p ? g_.by[p] : g_.b;
                j.groups_x = p ? g_.cw_blk[p] : g_.w_blk;
                j.groups_y = p ? g_.ch_blk[p] : g_.h_blk;
                if (p && j.groups_x * j.groups_y > g_.blocks()) return -ENOTSUP;  // the CPU reports it
            }
            if (j.groups_x > lim.maxComputeWorkGroupCount[0] || j.groups_y > lim.maxComputeWorkGroupCount[1])
                return -ENOTSUP;
            j.push.blocks_x = j.groups_x;
            j.push.mode = g_.weighted() && p == 0 ? 0 : 1;
            j.first = at;
            at += j.groups_x * j.groups_y * (j.push.mode == 0 ? 3 : 1);
        }
        *result_bytes = size_t(at) * sizeof(uint64_t);

        const SpecConstant spec[] = {{0, kGroupSize},
                                     {1, bytes_per_sample(fmt.bpc)},
                                     {2, uint32_t(g_.b_val)},
                                     {3, g_.second_order ? 1u : 0u}};
        PipelineDesc d;
        d.shader = &spirv::xpsnr_block;
        d.buffers = 3;
        d.push_constant_size = sizeof(Push);
        d.spec = spec;
        if (int err = ComputePipeline::create(st, d, &pipeline_)) return err;
        // The history: two 32-bit luma planes (only luma blocks with activity use it).
        const VkDeviceSize history_bytes = VkDeviceSize(g_.w) * g_.h * 2 * sizeof(int32_t);
        if (history_bytes > lim.maxStorageBufferRange) return -ENOTSUP;
        return st.allocator().create_buffer(history_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Device,
                                            &history_);
    }

    int bind(const FrameBuffers &fb) override
    {
        for (unsigned p = 0; p < g_.planes; p++) {
            PlaneJob &j = jobs_[p];
            if (fb.ref[p].w != j.push.width || fb.ref[p].h != j.push.height) return -EINVAL;
            // The filter's first input, whose activity weighs the errors, is the distorted picture.
            j.push.org_word = uint32_t(fb.dist[p].offset / 4);
            j.push.org_stride = fb.dist[p].stride / 4;
            j.push.rec_word = uint32_t(fb.ref[p].offset / 4);
            j.push.rec_stride = fb.ref[p].stride / 4;
        }
        const BufferRange buffers[] = {{fb.planes, 0, fb.planes_size},
                                       {history_.get(), 0, history_.size()},
                                       {fb.results, 0, fb.results_size}};
        return pipeline_->make_set(buffers, &set_);
    }

    int record(const Recording &rec) override
    {
        for (unsigned p = 0; p < g_.planes; p++) {
            Push push = jobs_[p].push;
            push.first = recorded_ == 0 ? 1 : 0;
            push.out_index = uint32_t(rec.result_offset / sizeof(uint64_t)) + jobs_[p].first;
            pipeline_->dispatch(rec.cmd, set_, &push, jobs_[p].groups_x, jobs_[p].groups_y);
        }
        recorded_++;
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        uint64_t wsse[3] = {};
        if (!g_.weighted()) {
            for (unsigned p = 0; p < g_.planes; p++) wsse[p] = result_at<uint64_t>(results, jobs_[p].first);
        } else {
            luma_.resize(g_.blocks());
            for (size_t i = 0; i < luma_.size(); i++) {
                luma_[i].sse = result_at<uint64_t>(results, 3 * i);
                luma_[i].spatial = result_at<uint64_t>(results, 3 * i + 1);
                luma_[i].temporal = result_at<uint64_t>(results, 3 * i + 2);
            }
            std::span<const uint64_t> spans[3];
            for (unsigned p = 1; p < g_.planes; p++) {
                chroma_[p].resize(size_t(jobs_[p].groups_x) * jobs_[p].groups_y);
                for (size_t i = 0; i < chroma_[p].size(); i++)
                    chroma_[p][i] = result_at<uint64_t>(results, jobs_[p].first + i);
                spans[p] = chroma_[p];
            }
            if (int err = xpsnr::frame_wsse(g_, luma_, spans, wsse)) return err;
        }
        return xpsnr::write_frame(g_, wsse, index, summary_.data(), sink);
    }

    int flush(ScoreSink &sink) override { return xpsnr::write_summary(g_, summary_.data(), sink); }

private:
    unsigned fps_;
    xpsnr::Geometry g_;
    std::array<PlaneJob, 3> jobs_{};
    std::unique_ptr<ComputePipeline> pipeline_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    Buffer history_;
    uint64_t recorded_ = 0;
    std::vector<xpsnr::LumaBlock> luma_;
    std::array<std::vector<uint64_t>, 3> chroma_;
    std::array<xpsnr::Summary, 3> summary_{};
};

bool supports(const State &, const FrameFormat &, const FeatureOptions &)
{
    return true;  // every option and format: the GPU measures integers, the rest is shared host code
}

std::unique_ptr<Feature> create(const FeatureOptions &o)
{
    return std::make_unique<XpsnrVk>(o);
}

}  // namespace

const FeatureInfo kXpsnrFeature = {"xpsnr", supports, create};

}  // namespace vmaf::vk
