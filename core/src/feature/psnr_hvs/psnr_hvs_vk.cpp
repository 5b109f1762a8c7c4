// psnr_hvs on the GPU: the twin of psnr_hvs_cpu.cpp. One kernel
// (shaders/psnr_hvs_blocks.comp) scores every 8x8 block of the three planes in
// one dispatch, a thread per block, with the CPU's integer DCT and its float
// masking arithmetic, and leaves one double per workgroup (a run of up to 64
// blocks of one row of blocks). collect() adds a plane's partials in the
// blocks' order and finishes the scores with the CPU's code (psnr_hvs_tables.h).
//
// The one difference from the CPU: it adds the 2^6 * blocks weighted errors of
// a plane one by one into a single float, and that serial float sum cannot be
// split across threads without changing its rounding. Here they are added in
// double and the plane's sum rounded to float once; the per-coefficient errors
// themselves are the CPU's to the bit.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "feature/psnr_hvs/psnr_hvs_tables.h"
#include "picture/picture.h"
#include "spirv.h"
#include "vulkan/context.h"
#include "vulkan/feature.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {

namespace {

constexpr uint32_t kGroupSize = 64;  // shaders/psnr_hvs_blocks.comp's local_size_x

// shaders/psnr_hvs_blocks.comp's push constants.
struct PlanePush {
    uint32_t ref, dist, stride, blocks_x, blocks_y, groups_x, out_index, pad_;
};
struct Push {
    PlanePush plane[3];
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
        bpc_ = fmt.bpc;
        // The CPU's plane sizes: subsampled chroma rounded down.
        const unsigned ss_x = fmt.pix_fmt != VMAF_PIX_FMT_YUV444P;
        const unsigned ss_y = fmt.pix_fmt == VMAF_PIX_FMT_YUV420P;
        uint32_t first = 0;
        for (unsigned p = 0; p < 3; p++) {
            w_[p] = p ? fmt.w >> ss_x : fmt.w;
            h_[p] = p ? fmt.h >> ss_y : fmt.h;
            PlanePush &j = push_.plane[p];
            j.blocks_x = blocks_along(w_[p]);
            j.blocks_y = blocks_along(h_[p]);
            j.groups_x = (j.blocks_x + kGroupSize - 1) / kGroupSize;
            j.out_index = first;
            first += j.groups_x * j.blocks_y;
            groups_x_ = std::max(groups_x_, j.groups_x);
            groups_y_ = std::max(groups_y_, j.blocks_y);
        }
        partials_ = first;
        *result_bytes = size_t(first) * sizeof(double);

        const SpecConstant spec[] = {{0, bytes_per_sample(fmt.bpc)}};
        PipelineDesc d;
        d.shader = &spirv::psnr_hvs_blocks;
        d.buffers = 2;
        d.push_constant_size = sizeof(Push);
        d.spec = spec;
        return ComputePipeline::create(st, d, &pipeline_);
    }

    int bind(const FrameBuffers &fb) override
    {
        if (fb.n_planes != 3) return -EINVAL;
        const uint32_t bps = fb.bytes_per_sample;
        for (unsigned p = 0; p < 3; p++) {
            if (fb.ref[p].w < w_[p] || fb.ref[p].h < h_[p] || fb.ref[p].stride != fb.dist[p].stride)
                return -EINVAL;
            PlanePush &j = push_.plane[p];
            j.ref = uint32_t(fb.ref[p].offset / bps);
            j.dist = uint32_t(fb.dist[p].offset / bps);
            j.stride = fb.ref[p].stride / bps;
        }
        const BufferRange buffers[] = {{fb.planes, 0, fb.planes_size}, {fb.results, 0, fb.results_size}};
        return pipeline_->make_set(buffers, &set_);
    }

    int record(const Recording &rec) override
    {
        if (!partials_) return 0;  // no block in any plane: nothing to score on the GPU
        Push push = push_;
        for (PlanePush &j : push.plane) j.out_index += uint32_t(rec.result_offset / sizeof(double));
        pipeline_->dispatch(rec.cmd, set_, &push, groups_x_, groups_y_, 3);
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        double score[3];
        for (unsigned p = 0; p < 3; p++) {
            const PlanePush &j = push_.plane[p];
            double sum = 0.0;
            for (uint32_t g = 0; g < j.groups_x * j.blocks_y; g++) {
                double partial;
                std::memcpy(&partial, results.data() + (j.out_index + g) * sizeof(double), sizeof(partial));
                sum += partial;
            }
            const int count = int(j.blocks_x * j.blocks_y) * psnr_hvs::kBlock * psnr_hvs::kBlock;
            score[p] = psnr_hvs::plane_score(float(sum), count, bpc_);
            if (int err = sink.append(psnr_hvs::kNames[p], index, psnr_hvs::to_db(score[p]))) return err;
        }
        return sink.append(psnr_hvs::kCombined, index, psnr_hvs::to_db(psnr_hvs::combined_score(score)));
    }

private:
    unsigned bpc_ = 8;
    uint32_t w_[3] = {}, h_[3] = {};
    Push push_{};
    uint32_t groups_x_ = 0, groups_y_ = 0, partials_ = 0;
    std::unique_ptr<ComputePipeline> pipeline_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

// The CPU's accepted inputs (at most 12 bits, with chroma), on a device with
// shaderFloat64 (the kernel's divisions, square root and sums are in double).
bool supports(const State &st, const FrameFormat &fmt, const FeatureOptions &)
{
    return st.float64() && fmt.bpc <= psnr_hvs::kMaxBpc && fmt.pix_fmt != VMAF_PIX_FMT_YUV400P;
}

std::unique_ptr<Feature> create(const FeatureOptions &)
{
    return std::make_unique<PsnrHvsVk>();
}

}  // namespace

extern const FeatureInfo kPsnrHvsFeature;
const FeatureInfo kPsnrHvsFeature = {"psnr_hvs", supports, create};

}  // namespace vmaf::vk
