// SPDX-License-Identifier: BSD-2-Clause-Patent
// butteraugli on the GPU: the twin of butteraugli_cpu.cpp, every float and
// double operation of the CPU's in the same order (ADR 0092), so that both
// give the same bits. A frame is one stage of dependent steps, each a
// dispatch for both resolutions (the full size and the 2x2 subsample, where
// that is at least 8x8), a barrier between them:
//   rgb (both resolutions' linear RGB), blur5 (sigma 1.2), opsin (XYB),
//   the lf blur (two transposing passes), sep 0 (mf, lf's vals), the mf blur,
//   sep 1 (hf, the medium band), the hf blur, sep 2 (uhf, the high band),
//   malta (the six maps' weighted differences), ac (the Malta sums and the L2
//   differences, the masks before their blur), the masks' blur, final (the
//   map) and reduce (the two maps combined; per row and lane the maximum and
//   the 3-norm's sums, which collect() adds in the CPU's order).
// Every plane of a resolution lives in one scratch buffer at word offsets
// (Level). The kernels need shaderFloat64; without it the CPU extractor runs.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "feature/butteraugli/butteraugli.h"
#include "feature/butteraugli/butteraugli_kernels.h"
#include "feature/common/native_fma_vk.h"
#include "feature/common/srgb.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "util/log.h"
#include "vulkan/command.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

namespace ba = butteraugli;

// butteraugli_common.glsl's Consts.
struct Consts {
    double conv[8], mask_y[3], mask_dc_y[3], global_scale, sub_scale;
    float srgb_p[5], srgb_q[5], srgb_threshold, srgb_low_div_inv, intensity_target;
    float w5[3], taps[68], scaled[36], mix[12], log2_p[3], log2_q[3];
    float gamma_mul, gamma_add, gamma_bias, min_sensitivity, min_mixed01, min_mixed2;
    float lf_xmul, lf_ymul, lf_bmul, lf_y_to_b;
    float suppress_s, suppress_one_minus_s, suppress_yw;
    float remove_mf, add_mf, remove_hf, add_hf, remove_uhf;
    float maxclamp_hf, maxclamp_uhf, maxclamp_mul, mul_y_hf, mul_y_uhf;
    float malta_gt[6], malta_lt[6], malta_norm1[6];
    float asym_gt[2], asym_lt[2], l2_mf[3], l2_lf[3];
    float k04, masking_muls[3];
    float mask_mul, mask_bias, mask_sqrt_bias, mask_to_error;
    float erosion[3], sub_weight;
};
static_assert(offsetof(Consts, srgb_p) == 128);

// The kernels' first taps in Consts::taps and their scaled halves in
// Consts::scaled (butteraugli_common.glsl).
struct Taps {
    uint32_t at, len, scaled_at;
};
constexpr Taps kLfTaps = {0, 33, 0}, kHfTaps = {33, 15, 17}, kUhfTaps = {48, 7, 25}, kMaskTaps = {55, 13, 29};

// butteraugli_common.glsl's push constants.
struct Push {
    uint32_t a[6], b[6], w, h, u0, u1, u2, u3;
};
static_assert(sizeof(Push) == 72);

// Doubles of results per row of the full size (butteraugli_reduce.comp): the
// lanes' maxima, their sums, the powers of the columns past them.
constexpr unsigned kRowDoubles = 25;

// One resolution's planes: word offsets into the scratch buffer. Regions are
// reused once their first contents are no longer read (the comments name
// both).
struct Level {
    uint32_t w = 0, h = 0;
    uint64_t rgb = 0;  // 6 planes: linear RGB; then the blurs' transposed scratch
    uint64_t bl = 0;   // 6: RGB blurred (sigma 1.2); then lf
    uint64_t xyb = 0;  // 6: XYB; then mf
    uint64_t mfb = 0;  // 6: mf blurred; then the medium band
    uint64_t hf = 0;   // 4: hf; then uhf
    uint64_t hfb = 0;  // 4: hf blurred; then the high band
    uint64_t ac = 0, dc = 0, mask = 0, mask_blurred = 0, map = 0;  // 3, 3, 2, 2, 1
    uint64_t diffs = 0;  // 6 Malta maps, padded with 4 zeros on every side
    uint64_t end = 0;
};

Level level_at(uint32_t w, uint32_t h, uint64_t base)
{
    Level l;
    l.w = w;
    l.h = h;
    const uint64_t n = uint64_t(w) * h;
    uint64_t at = base;
    const auto take = [&at, n](uint64_t planes) {
        const uint64_t r = at;
        at += planes * n;
        return r;
    };
    l.rgb = take(6);
    l.bl = take(6);
    l.xyb = take(6);
    l.mfb = take(6);
    l.hf = take(4);
    l.hfb = take(4);
    l.ac = take(3);
    l.dc = take(3);
    l.mask = take(2);
    l.mask_blurred = take(2);
    l.map = take(1);
    l.diffs = at;
    at += 6 * uint64_t(w + 8) * (h + 8);
    l.end = at;
    return l;
}

std::vector<Level> levels_of(const FrameFormat &fmt)
{
    std::vector<Level> l{level_at(fmt.w, fmt.h, 0)};
    const uint32_t sw = (fmt.w + 1) / 2, sh = (fmt.h + 1) / 2;
    if (sw >= ba::kMinSide && sh >= ba::kMinSide) l.push_back(level_at(sw, sh, l[0].end));
    return l;
}

uint32_t groups(uint64_t n, uint64_t per)
{
    return uint32_t((n + per - 1) / per);
}

bool fits(const State &st, const FrameFormat &fmt)
{
    const std::vector<Level> levels = levels_of(fmt);
    const uint64_t bytes = levels.back().end * sizeof(float);
    const VkPhysicalDeviceLimits &lim = st.limits();
    return bytes <= lim.maxStorageBufferRange && levels.back().end < (uint64_t(1) << 32) &&
           groups(std::max(fmt.w, fmt.h), 4) <= lim.maxComputeWorkGroupCount[1] &&
           groups(std::max(fmt.w, fmt.h), 16) <= lim.maxComputeWorkGroupCount[0] &&
           groups(std::max(fmt.w, fmt.h), 64) <= lim.maxComputeWorkGroupCount[0] &&
           lim.maxComputeWorkGroupInvocations >= 256 && lim.maxComputeWorkGroupSize[0] >= 256 &&
           lim.maxComputeWorkGroupSize[1] >= 16;
}

enum Kernel : unsigned { kRgb, kBlur5, kOpsin, kConv, kSep, kMalta, kAc, kFinal, kReduce, kKernels };

class ButteraugliVk final : public Feature {
public:
    explicit ButteraugliVk(const FeatureOptions &o)
        : matrix_(o.text("matrix")), full_range_(o.text("range") == "full"),
          intensity_target_(float(o.number("intensity_target"))), fused_(o.flag("libjxl_fma"))
    {
    }

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        if (fmt.pix_fmt == VMAF_PIX_FMT_YUV400P || !st.float64() || fmt.w < ba::kMinSide || fmt.h < ba::kMinSide ||
            !fits(st, fmt))
            return -ENOTSUP;
        st_ = &st;
        fmt_ = fmt;
        levels_ = levels_of(fmt);
        *result_bytes = size_t(fmt.h) * kRowDoubles * sizeof(double);
        fill_consts(fmt);
        if (int err = upload_table(st, std::as_bytes(std::span(&consts_data_, 1)), &consts_)) return err;

        unsigned ss_x = 0, ss_y = 0;
        chroma_shift(fmt.pix_fmt, &ss_x, &ss_y);
        const uint32_t fused = fused_ ? 1u : 0u, native = fused_ && native_fma(st) ? 1u : 0u;
        const SpecConstant rgb_spec[] = {{1, fmt.bpc > 8 ? 2u : 1u}, {2, ss_x}, {3, ss_y}, {10, fused}, {11, native}};
        const SpecConstant spec[] = {{10, fused}, {11, native}};
        const spirv::Shader *const shaders[kKernels] = {
            &spirv::butteraugli_rgb,  &spirv::butteraugli_blur5, &spirv::butteraugli_opsin,
            &spirv::butteraugli_conv, &spirv::butteraugli_sep,   &spirv::butteraugli_malta,
            &spirv::butteraugli_ac,   &spirv::butteraugli_final, &spirv::butteraugli_reduce};
        for (unsigned i = 0; i < kKernels; i++) {
            PipelineDesc d;
            d.shader = shaders[i];
            d.buffers = i == kRgb || i == kReduce ? 3 : 2;
            d.push_constant_size = sizeof(Push);
            d.spec = i == kRgb ? std::span<const SpecConstant>(rgb_spec) : std::span<const SpecConstant>(spec);
            if (int err = ComputePipeline::create(st, d, &pipes_[i])) return err;
        }
        const VkDeviceSize bytes = levels_.back().end * sizeof(float);
        if (int err = st.allocator().create_buffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                              VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                   MemoryUse::Device, &work_))
            return err;
        // The Malta maps' padding is never written again: zero everything once.
        return run_once(st, [&](VkCommandBuffer cmd) {
            st.fn().vkCmdFillBuffer(cmd, work_.get(), 0, VK_WHOLE_SIZE, 0);
            memory_barrier(st, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        });
    }

    int bind(const FrameBuffers &fb) override
    {
        if (fb.n_planes != 3 || fb.ref[0].w != fmt_.w || fb.ref[0].h != fmt_.h) return -EINVAL;
        for (unsigned c = 0; c < 3; c++) {
            if (fb.ref[c].stride != fb.dist[c].stride || fb.ref[c].offset / 4 > UINT32_MAX ||
                fb.dist[c].offset / 4 > UINT32_MAX)
                return -EINVAL;
            yuv_off_[c] = uint32_t(fb.ref[c].offset / 4);
            yuv_off_[3 + c] = uint32_t(fb.dist[c].offset / 4);
        }
        if (fb.ref[1].stride != fb.ref[2].stride) return -EINVAL;
        strides_[0] = fb.ref[0].stride / 4;
        strides_[1] = fb.ref[1].stride / 4;
        const BufferRange consts = {consts_->get(), 0, consts_->size()}, work = {work_.get(), 0, work_.size()};
        for (unsigned i = 0; i < kKernels; i++) {
            std::vector<BufferRange> ranges = {consts, work};
            if (i == kRgb) ranges.push_back({fb.planes, 0, fb.planes_size});
            if (i == kReduce) ranges.push_back({fb.results, 0, fb.results_size});
            if (int err = pipes_[i]->make_set(ranges, &sets_[i])) return err;
        }
        return 0;
    }

    std::vector<std::string> steps(unsigned) const override
    {
        return {"rgb",  "blur5", "opsin",  "lf_rows", "lf_columns", "sep_lf", "mf_rows", "mf_columns", "sep_mf",
                "hf_rows", "hf_columns", "sep_hf", "malta", "ac", "mask_rows", "mask_columns", "final", "reduce"};
    }

    int record(const Recording &rec) override
    {
        if (rec.result_offset % sizeof(double)) return -EINVAL;
        VkCommandBuffer cmd = rec.cmd;
        const Level &l0 = levels_[0];
        const bool sub = levels_.size() > 1;
        // Profile mode times each step alone (steps()).
        const auto barrier = [&] {
            compute_barrier(*st_, cmd);
            if (rec.step_done) rec.step_done();
        };
        const auto dispatch = [&](Kernel k, const Push &push, uint32_t gx, uint32_t gy, uint32_t gz = 1) {
            pipes_[k]->dispatch(cmd, sets_[k], &push, gx, gy, gz);
        };
        const auto pixels = [&](Kernel k, const Level &l, Push push, uint32_t gz = 1) {
            push.w = l.w;
            push.h = l.h;
            dispatch(k, push, groups(l.w, 16), groups(l.h, 16), gz);
        };
        const auto each = [&](const auto &fn) {
            for (const Level &l : levels_) fn(l);
        };
        const auto w32 = [](uint64_t words) { return uint32_t(words); };

        {
            Push push{};
            for (unsigned i = 0; i < 6; i++) push.a[i] = yuv_off_[i];
            push.b[0] = w32(l0.rgb);
            push.b[1] = sub ? w32(levels_[1].rgb) : 0;
            push.w = l0.w;
            push.h = l0.h;
            push.u0 = strides_[0];
            push.u1 = strides_[1];
            push.u2 = sub ? 1 : 0;
            dispatch(kRgb, push, groups((l0.w + 1) / 2, 16), groups((l0.h + 1) / 2, 16));
        }
        barrier();
        each([&](const Level &l) {
            Push push{};
            push.a[0] = w32(l.rgb);
            push.b[0] = w32(l.bl);
            push.u0 = uint32_t(ba::blur5_vector_end(l.w, fused_));
            pixels(kBlur5, l, push, 6);
        });
        barrier();
        each([&](const Level &l) {
            Push push{};
            push.a[0] = w32(l.rgb);
            push.a[1] = w32(l.bl);
            push.b[0] = w32(l.xyb);
            pixels(kOpsin, l, push);
        });
        barrier();
        // A blur by two transposing passes: `from` -> the scratch -> `to`.
        const auto blur = [&](uint64_t Level::*from, uint64_t Level::*to, Taps taps, uint32_t planes) {
            for (int pass = 0; pass < 2; pass++) {
                each([&](const Level &l) {
                    Push push{};
                    push.a[0] = w32(pass ? l.rgb : l.*from);
                    push.b[0] = w32(pass ? l.*to : l.rgb);
                    push.w = pass ? l.h : l.w;
                    push.h = pass ? l.w : l.h;
                    push.u0 = taps.at;
                    push.u1 = taps.len;
                    push.u2 = taps.scaled_at;
                    dispatch(kConv, push, groups(push.w, 32), groups(push.h, 32), planes);
                });
                barrier();
            }
        };
        const auto sep = [&](uint32_t mode, uint64_t Level::*a0, uint64_t Level::*a1, uint64_t Level::*b0) {
            each([&](const Level &l) {
                Push push{};
                push.a[0] = w32(l.*a0);
                push.a[1] = w32(l.*a1);
                push.b[0] = w32(l.*b0);
                push.u0 = mode;
                pixels(kSep, l, push);
            });
            barrier();
        };
        blur(&Level::xyb, &Level::bl, kLfTaps, 6);
        sep(0, &Level::xyb, &Level::bl, &Level::bl);
        blur(&Level::xyb, &Level::mfb, kHfTaps, 6);
        sep(1, &Level::xyb, &Level::mfb, &Level::hf);
        blur(&Level::hf, &Level::hfb, kUhfTaps, 4);
        sep(2, &Level::hf, &Level::hfb, &Level::hfb);
        each([&](const Level &l) {
            Push push{};
            push.a[0] = w32(l.hf);
            push.a[1] = w32(l.hfb);
            push.a[2] = w32(l.mfb);
            push.b[0] = w32(l.diffs);
            pixels(kMalta, l, push);
        });
        barrier();
        each([&](const Level &l) {
            Push push{};
            push.a[0] = w32(l.diffs);
            push.a[1] = w32(l.hf);
            push.a[2] = w32(l.hfb);
            push.a[3] = w32(l.mfb);
            push.a[4] = w32(l.bl);
            push.b[0] = w32(l.ac);
            push.b[1] = w32(l.dc);
            push.b[2] = w32(l.mask);
            pixels(kAc, l, push);
        });
        barrier();
        blur(&Level::mask, &Level::mask_blurred, kMaskTaps, 2);
        each([&](const Level &l) {
            Push push{};
            push.a[0] = w32(l.mask_blurred);
            push.a[1] = w32(l.ac);
            push.a[2] = w32(l.dc);
            push.b[0] = w32(l.map);
            pixels(kFinal, l, push);
        });
        barrier();
        {
            Push push{};
            push.a[0] = w32(l0.map);
            push.a[1] = sub ? w32(levels_[1].map) : 0;
            push.w = l0.w;
            push.h = l0.h;
            push.u0 = fused_ ? 4 : 2;
            push.u1 = sub ? 1 : 0;
            push.u2 = uint32_t(rec.result_offset / sizeof(double));
            dispatch(kReduce, push, groups(uint64_t(l0.h) * push.u0, 64), 1);
        }
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        // butteraugli_cpu.cpp's three_norm(), row by row.
        const std::size_t lanes = fused_ ? 4 : 2;
        double totals[3][4] = {}, tail[3] = {};
        float distance = 0.0f;
        for (uint32_t y = 0; y < fmt_.h; y++) {
            const std::size_t row = std::size_t(y) * kRowDoubles;
            for (std::size_t l = 0; l < lanes; l++)
                distance = std::max(distance, float(result_at<double>(results, row + l)));
            for (int i = 0; i < 3; i++)
                for (std::size_t l = 0; l < lanes; l++)
                    totals[i][l] = result_at<double>(results, row + 4 + i * 4 + l) + totals[i][l];
            for (std::size_t t = 0; t < fmt_.w % lanes; t++)
                for (int i = 0; i < 3; i++) tail[i] += result_at<double>(results, row + 16 + t * 3 + i);
        }
        if (int err = sink.append(ba::kName, index, double(distance))) return err;
        return sink.append(ba::kNormName, index, ba::finish_three_norm(totals, tail, lanes, fmt_.w, fmt_.h));
    }

private:
    void fill_consts(const FrameFormat &fmt)
    {
        Consts &k = consts_data_;
        const srgb::Conversion cv = srgb::conversion_for(fmt, matrix_, full_range_);
        const double conv[8] = {cv.y_off, cv.y_scale, cv.c_off, cv.c_scale, cv.cr_r, cv.cb_g, cv.cr_g, cv.cb_b};
        std::copy(conv, conv + 8, k.conv);
        k.mask_y[0] = ba::kMaskYOffset;
        k.mask_y[1] = ba::kMaskYScaler;
        k.mask_y[2] = ba::kMaskYMul;
        k.mask_dc_y[0] = ba::kMaskDcYOffset;
        k.mask_dc_y[1] = ba::kMaskDcYScaler;
        k.mask_dc_y[2] = ba::kMaskDcYMul;
        k.global_scale = ba::kGlobalScale;
        k.sub_scale = ba::subsampled_keep();
        std::copy(srgb::kSrgbP, srgb::kSrgbP + 5, k.srgb_p);
        std::copy(srgb::kSrgbQ, srgb::kSrgbQ + 5, k.srgb_q);
        k.srgb_threshold = srgb::kSrgbThreshold;
        k.srgb_low_div_inv = srgb::kSrgbLowDivInv;
        k.intensity_target = intensity_target_;
        const ba::Kernels5 &kn = ba::kernels();
        const ba::Blur5Weights w5 = ba::blur5_weights(kn.opsin);
        std::copy(w5.w, w5.w + 3, k.w5);
        for (const auto &[taps, kernel] : {std::pair{kLfTaps, &kn.lf}, std::pair{kHfTaps, &kn.hf},
                                           std::pair{kUhfTaps, &kn.uhf}, std::pair{kMaskTaps, &kn.mask}}) {
            std::copy(kernel->begin(), kernel->end(), k.taps + taps.at);
            ba::scaled_half(*kernel, k.scaled + taps.scaled_at);
        }
        for (int i = 0; i < 12; i++) k.mix[i] = float(ba::kMix[i]);
        std::copy(ba::kLog2P, ba::kLog2P + 3, k.log2_p);
        std::copy(ba::kLog2Q, ba::kLog2Q + 3, k.log2_q);
        k.gamma_mul = ba::kGammaMul;
        k.gamma_add = float(ba::kGammaAdd);
        k.gamma_bias = float(ba::kGammaBias);
        k.min_sensitivity = ba::kMinSensitivity;
        k.min_mixed01 = ba::kMinMixed01;
        k.min_mixed2 = ba::kMinMixed2;
        k.lf_xmul = float(ba::kXmulLf);
        k.lf_ymul = float(ba::kYmulLf);
        k.lf_bmul = float(ba::kBmulLf);
        k.lf_y_to_b = float(ba::kYToBLf);
        k.suppress_s = float(ba::kSuppressS);
        k.suppress_one_minus_s = float(1.0 - ba::kSuppressS);
        k.suppress_yw = float(ba::kSuppress);
        k.remove_mf = float(ba::kRemoveMfRange);
        k.add_mf = float(ba::kAddMfRange);
        k.remove_hf = float(ba::kRemoveHfRange);
        k.add_hf = float(ba::kAddHfRange);
        k.remove_uhf = float(ba::kRemoveUhfRange);
        k.maxclamp_hf = float(ba::kMaxclampHf);
        k.maxclamp_uhf = float(ba::kMaxclampUhf);
        k.maxclamp_mul = float(ba::kMaxClampMul);
        k.mul_y_hf = float(ba::kMulYHf);
        k.mul_y_uhf = float(ba::kMulYUhf);
        const ba::MaltaMap *maps = ba::kMaltaMaps;
        for (int m = 0; m < 6; m++) {
            const ba::MaltaNorms nm = ba::malta_norms(maps[m].mulli, maps[m].w, maps[m].w, maps[m].norm1);
            k.malta_gt[m] = nm.gt;
            k.malta_lt[m] = nm.lt;
            k.malta_norm1[m] = float(maps[m].norm1);
        }
        for (int c = 0; c < 2; c++) {
            k.asym_gt[c] = float(float(ba::kWmul[c]) * 0.8);
            k.asym_lt[c] = float(float(ba::kWmul[c]) * 0.8);
        }
        for (int c = 0; c < 3; c++) {
            k.l2_mf[c] = float(ba::kWmul[3 + c]);
            k.l2_lf[c] = float(ba::kWmul[6 + c]);
        }
        k.k04 = float(0.4);
        std::copy(ba::kMaskingMuls, ba::kMaskingMuls + 3, k.masking_muls);
        k.mask_mul = ba::kMaskMul;
        k.mask_bias = ba::kMaskMul * ba::kMaskBias;
        k.mask_sqrt_bias = std::sqrt(ba::kMaskMul * ba::kMaskBias);
        k.mask_to_error = ba::kMaskToErrorMul;
        k.erosion[0] = 0.45f;
        k.erosion[1] = 0.3f;
        k.erosion[2] = 0.25f;
        k.sub_weight = ba::kSubsampledWeight;
    }

    std::string matrix_;
    bool full_range_;
    float intensity_target_;
    bool fused_;
    State *st_ = nullptr;
    FrameFormat fmt_{};
    std::vector<Level> levels_;
    uint32_t yuv_off_[6] = {}, strides_[2] = {};
    Consts consts_data_{};
    std::shared_ptr<const Buffer> consts_;
    std::unique_ptr<ComputePipeline> pipes_[kKernels];
    VkDescriptorSet sets_[kKernels] = {};
    Buffer work_;
};

bool supports(const State &st, const FrameFormat &fmt, const FeatureOptions &)
{
    // The kernels need doubles; pictures below 8x8 go to the CPU extractor,
    // which refuses them with its message.
    return st.float64() && fmt.pix_fmt != VMAF_PIX_FMT_YUV400P && fmt.w >= ba::kMinSide && fmt.h >= ba::kMinSide &&
           fits(st, fmt);
}

std::unique_ptr<Feature> create(const FeatureOptions &o)
{
    return std::make_unique<ButteraugliVk>(o);
}

}  // namespace

const FeatureInfo kButteraugliFeature = {"butteraugli", supports, create};

}  // namespace vmaf::vk
