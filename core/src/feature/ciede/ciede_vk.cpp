// SPDX-License-Identifier: BSD-2-Clause-Patent
// ciede on the GPU: the twin of ciede_cpu.cpp. One kernel
// (feature/ciede/ciede_de.comp) computes every pixel's CIEDE2000 difference, chroma
// read where libvmaf's upsampling reads it, and writes one double sum per tile
// of 32 x 32 pixels, with the rare pixels whose difference depends on how the
// C library's powf rounds C'^7 (ciede_tables.h, gpu::kAmbiguityBits);
// collect() settles those with the CPU's own powf call, adds the tiles in order
// and scores the mean with the CPU's ciede::score. The per-pixel math is double
// with float results, so the kernel needs shaderFloat64; without it the CPU
// extractor runs. The linear red and blue of 8-bit input come from the CPU's
// own table (ciede::linear_rb_table_8bit()), uploaded at init.
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "feature/ciede/ciede.h"
#include "feature/ciede/ciede_tables.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {

namespace {

using ciede::gpu::kTileH;
using ciede::gpu::kTileW;
constexpr uint32_t kMaxGroups = 65535;

// feature/ciede/ciede_de.comp's push constants.
struct Push {
    double luma_black, luma_scale, chroma_zero, chroma_scale;
    uint32_t ref_off[3], dist_off[3];
    uint32_t luma_stride, chroma_stride;
    uint32_t width, height;
    uint32_t chroma_w, chroma_h, libvmaf_stride;
    uint32_t layout;
    uint32_t tiles_x;
    uint32_t out_word;
};
static_assert(sizeof(Push) == 96);

uint32_t tiles_x(const FrameFormat &fmt) { return (fmt.w + kTileW - 1) / kTileW; }
uint32_t tiles(const FrameFormat &fmt) { return tiles_x(fmt) * ((fmt.h + kTileH - 1) / kTileH); }

class CiedeVk final : public Feature {
public:
    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        if (fmt.pix_fmt == VMAF_PIX_FMT_YUV400P || !st.float64() || tiles(fmt) > kMaxGroups) return -ENOTSUP;
        fmt_ = fmt;
        const ciede::Normalization n = ciede::normalization(fmt.bpc);
        push_.luma_black = n.luma_black;
        push_.luma_scale = n.luma_scale;
        push_.chroma_zero = n.chroma_zero;
        push_.chroma_scale = n.chroma_scale;
        push_.width = fmt.w;
        push_.height = fmt.h;
        // libvmaf's chroma planes, as ciede_cpu.cpp's LibvmafChroma reads them.
        unsigned ss_x, ss_y;
        chroma_shift(fmt.pix_fmt, &ss_x, &ss_y);
        const ciede::LibvmafChromaLayout l = ciede::libvmaf_chroma_layout(ss_x, ss_y, fmt.w, fmt.h);
        push_.chroma_w = l.w;
        push_.chroma_h = l.h;
        push_.libvmaf_stride = l.stride;
        push_.layout = fmt.pix_fmt == VMAF_PIX_FMT_YUV444P ? 0 : fmt.pix_fmt == VMAF_PIX_FMT_YUV422P ? 1 : 2;
        push_.tiles_x = tiles_x(fmt);
        groups_ = tiles(fmt);

        const SpecConstant spec[] = {{0, fmt.bpc > 8 ? 2u : 1u}};
        PipelineDesc d;
        d.shader = &spirv::ciede_de;
        d.buffers = 3;
        d.push_constant_size = sizeof(Push);
        d.spec = spec;
        if (int err = ComputePipeline::create(st, d, &pipeline_)) return err;
        // 8-bit input reads red and blue from the CPU's table (one set-up
        // submission); deeper input binds a placeholder the kernel never reads.
        if (fmt.bpc == 8) {
            if (int err = upload_table(st, std::as_bytes(std::span(ciede::linear_rb_table_8bit())), &linear_))
                return err;
        } else {
            auto placeholder = std::make_shared<Buffer>();
            if (int err = st.allocator().create_buffer(sizeof(double), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                       MemoryUse::Device, placeholder.get()))
                return err;
            linear_ = std::move(placeholder);
        }
        *result_bytes = size_t(groups_) * ciede::gpu::kSlotWords * sizeof(uint32_t);
        return 0;
    }

    int bind(const FrameBuffers &fb) override
    {
        if (fb.n_planes != 3 || fb.ref[0].w != fmt_.w || fb.ref[0].h != fmt_.h) return -EINVAL;
        for (unsigned p = 0; p < 3; p++) {
            if (fb.ref[p].stride != fb.dist[p].stride || fb.ref[p].offset > UINT32_MAX ||
                fb.dist[p].offset > UINT32_MAX)
                return -EINVAL;
            push_.ref_off[p] = uint32_t(fb.ref[p].offset);
            push_.dist_off[p] = uint32_t(fb.dist[p].offset);
        }
        if (fb.ref[1].stride != fb.ref[2].stride) return -EINVAL;
        push_.luma_stride = fb.ref[0].stride;
        push_.chroma_stride = fb.ref[1].stride;
        const BufferRange buffers[] = {
            {fb.planes, 0, fb.planes_size}, {fb.results, 0, fb.results_size}, {linear_->get(), 0, linear_->size()}};
        return pipeline_->make_set(buffers, &set_);
    }

    int record(const Recording &rec) override
    {
        Push push = push_;
        push.out_word = uint32_t(rec.result_offset / sizeof(uint32_t));
        pipeline_->dispatch(rec.cmd, set_, &push, groups_);
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        using ciede::gpu::kKeyWords;
        using ciede::gpu::kSlotWords;
        double sum = 0.0, settled = 0.0;
        for (uint32_t g = 0; g < groups_; g++) {
            const std::byte *slot = results.data() + size_t(g) * kSlotWords * sizeof(uint32_t);
            double partial;
            uint32_t keys;
            std::memcpy(&partial, slot, sizeof(partial));
            std::memcpy(&keys, slot + 8, sizeof(keys));
            sum += partial;
            // Per value of C': the change of the tile's sum where powf rounds
            // C'^7 the other way. Pixels past kSettleKeys values in one tile
            // (slot word 3) keep the exactly rounded power.
            for (uint32_t k = 0; k < std::min(keys, ciede::gpu::kSettleKeys); k++) {
                const std::byte *key = slot + (4 + k * kKeyWords) * sizeof(uint32_t);
                float cbar_prime, c7;
                double change;
                std::memcpy(&cbar_prime, key, sizeof(cbar_prime));
                std::memcpy(&c7, key + 4, sizeof(c7));
                std::memcpy(&change, key + 8, sizeof(change));
                if (ciede::chroma_power7(cbar_prime) != c7) settled += change;
            }
        }
        return sink.append(ciede::kName, index, ciede::score(sum + settled, double(fmt_.w * fmt_.h)));
    }

private:
    FrameFormat fmt_{};
    Push push_{};
    uint32_t groups_ = 0;
    std::unique_ptr<ComputePipeline> pipeline_;
    std::shared_ptr<const Buffer> linear_;  // the device's one copy of the table (upload_table)
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

bool supports(const State &st, const FrameFormat &fmt, const FeatureOptions &)
{
    // ciede has no options; the kernel needs doubles, and one dispatch covers
    // at most kMaxGroups tiles (a 8192 x 8192 picture is 65536).
    return st.float64() && fmt.pix_fmt != VMAF_PIX_FMT_YUV400P && tiles(fmt) <= kMaxGroups;
}

std::unique_ptr<Feature> create(const FeatureOptions &)
{
    return std::make_unique<CiedeVk>();
}

}  // namespace

const FeatureInfo kCiedeFeature = {"ciede", supports, create};

}  // namespace vmaf::vk
