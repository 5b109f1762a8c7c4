// SPDX-License-Identifier: BSD-2-Clause-Patent
// PSNR on the GPU: the twin of psnr_cpu.cpp. The kernel (feature/psnr/psnr_sse.comp)
// reduces each plane's squared errors exactly into 64-bit partial sums, one per
// band of rows; collect() adds the partials and scores them with the same
// psnr_tables.h rules as the CPU, so both print identical numbers.
#include <algorithm>
#include <array>
#include <cerrno>

#include "feature/psnr/psnr.h"
#include "feature/psnr/psnr_tables.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "vulkan/state.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {

namespace {

// Workgroup size (spec constant 0, a power of two) and the samples one band
// aims at: enough workgroups to fill a large GPU (360 for a 1080p luma plane,
// 108 for each chroma plane), few partials for the host to add.
constexpr uint32_t kGroupSize = 256;
constexpr uint32_t kSamplesPerBand = 4096;

// feature/psnr/psnr_sse.comp's push constants.
struct Push {
    uint32_t ref_word, dist_word, stride_words, width, height, rows_per_group, out_index;
};

struct PlaneJob {
    Push push;
    uint32_t groups;
    uint32_t first;  // index of its first partial within the feature's results
};

class PsnrVk final : public Feature {
public:
    explicit PsnrVk(const FeatureOptions &o)
        : chroma_(o.flag("enable_chroma")), mse_(o.flag("enable_mse")), apsnr_(o.flag("enable_apsnr")),
          reduced_peak_(o.flag("reduced_hbd_peak")), min_sse_(o.number("min_sse")) {}

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        peak_ = psnr::peak(fmt.bpc, reduced_peak_);
        planes_ = fmt.pix_fmt == VMAF_PIX_FMT_YUV400P || !chroma_ ? 1 : 3;
        for (unsigned p = 0; p < 3; p++)
            cap_[p] = psnr::psnr_cap(fmt.bpc, peak_, min_sse_, psnr::min_sse_area(p, fmt.pix_fmt, fmt.w, fmt.h));

        const SpecConstant spec[] = {{0, kGroupSize}, {1, bytes_per_sample(fmt.bpc)}};
        PipelineDesc d;
        d.shader = &spirv::psnr_sse;
        d.buffers = 2;
        d.push_constant_size = sizeof(Push);
        d.spec = spec;
        if (int err = ComputePipeline::create(st, d, &pipeline_)) return err;
        // One 64-bit partial per band of each plane, planes one after the other.
        unsigned ss_x, ss_y;
        chroma_shift(fmt.pix_fmt, &ss_x, &ss_y);
        uint32_t first = 0;
        for (unsigned p = 0; p < planes_; p++) {
            PlaneJob &j = jobs_[p];
            j.push.width = p ? (fmt.w + ss_x) >> ss_x : fmt.w;  // the picture's rounding
            j.push.height = p ? (fmt.h + ss_y) >> ss_y : fmt.h;
            j.groups = band_count(j.push.width, j.push.height, &j.push.rows_per_group);
            j.first = first;
            first += j.groups;
        }
        *result_bytes = first * sizeof(uint64_t);
        return 0;
    }

    int bind(const FrameBuffers &fb) override
    {
        for (unsigned p = 0; p < planes_; p++) {
            PlaneJob &j = jobs_[p];
            if (fb.ref[p].w != j.push.width || fb.ref[p].h != j.push.height) return -EINVAL;
            j.push.ref_word = uint32_t(fb.ref[p].offset / 4);
            j.push.dist_word = uint32_t(fb.dist[p].offset / 4);
            j.push.stride_words = fb.ref[p].stride / 4;
        }
        const BufferRange buffers[] = {{fb.planes, 0, fb.planes_size}, {fb.results, 0, fb.results_size}};
        return pipeline_->make_set(buffers, &set_);
    }

    int record(const Recording &rec) override
    {
        for (unsigned p = 0; p < planes_; p++) {
            Push push = jobs_[p].push;
            push.out_index = uint32_t(rec.result_offset / sizeof(uint64_t)) + jobs_[p].first;
            pipeline_->dispatch(rec.cmd, set_, &push, jobs_[p].groups);
        }
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        for (unsigned p = 0; p < planes_; p++) {
            uint64_t sse = 0;
            for (uint32_t g = 0; g < jobs_[p].groups; g++) sse += result_at<uint64_t>(results, jobs_[p].first + g);
            const uint64_t n = uint64_t(jobs_[p].push.width) * jobs_[p].push.height;
            if (int err = sink.append(psnr::kNames[p], index, psnr::from_sse(sse, n, peak_, cap_[p]))) return err;
            if (mse_)
                if (int err = sink.append(psnr::kMseNames[p], index, double(sse) / double(n))) return err;
            sse_total_[p] += sse;
            n_total_[p] += n;
        }
        return 0;
    }

    int flush(ScoreSink &sink) override
    {
        if (!apsnr_) return 0;
        for (unsigned p = 0; p < planes_; p++) {
            if (!n_total_[p]) continue;
            if (int err = sink.set_aggregate(psnr::kApsnrNames[p], psnr::aggregate(sse_total_[p], n_total_[p], peak_)))
                return err;
        }
        return 0;
    }

private:
    // Bands of whole rows of about kSamplesPerBand samples, within the dispatch
    // limit of 65535 workgroups.
    static uint32_t band_count(uint32_t w, uint32_t h, uint32_t *rows_per_group)
    {
        uint32_t rows = std::max<uint32_t>(1, (kSamplesPerBand + w - 1) / w);
        rows = std::max(rows, (h + 65534) / 65535);
        rows = std::min(rows, h);
        *rows_per_group = rows;
        return (h + rows - 1) / rows;
    }

    bool chroma_, mse_, apsnr_, reduced_peak_;
    double min_sse_;
    unsigned planes_ = 3;
    double peak_ = 255.0;
    std::array<double, 3> cap_{};
    std::array<PlaneJob, 3> jobs_{};
    std::array<uint64_t, 3> sse_total_{}, n_total_{};  // for enable_apsnr
    std::unique_ptr<ComputePipeline> pipeline_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

bool supports(const State &, const FrameFormat &, const FeatureOptions &)
{
    return true;  // every option: the GPU computes the SSE, the rest is shared host code
}

std::unique_ptr<Feature> create(const FeatureOptions &o)
{
    return std::make_unique<PsnrVk>(o);
}

}  // namespace

const FeatureInfo kPsnrFeature = {"psnr", supports, create};

}  // namespace vmaf::vk
