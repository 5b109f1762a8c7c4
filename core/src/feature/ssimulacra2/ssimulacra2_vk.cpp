// SPDX-License-Identifier: BSD-2-Clause-Patent
// ssimulacra2 on the GPU: the twin of ssimulacra2_cpu.cpp, the same float
// operations in the same order (ADR 0078). One kernel turns both pictures into
// linear RGB, and the full size into XYB and the products the blurs take
// (ssimulacra2_rgb.comp); then per scale: the 2x2 downsampling
// (ssimulacra2_down.comp, from the second scale on), XYB and the products
// (ssimulacra2_xyb.comp), the five recursive Gaussian blurs of each channel,
// three invocations per row, one per term of the recursion
// (ssimulacra2_hblur.comp, reading and writing through shared memory), then
// one per column, plane and term, which also add the maps' terms of each
// column in double, in a fixed order (ssimulacra2_vblur.comp). collect() adds
// the columns in order and scores with the CPU's score(). The CPU adds the
// terms one pixel after another, which parallel work cannot repeat: scores
// agree within 1e-6, not bit for bit. The kernels need shaderFloat64; without
// it the CPU extractor runs.
// The frame is recorded in stages, as a wavefront (ADR 0088): kernel k of
// the chain down, xyb, hblur, vblur of scale i runs in stage i + k, so each
// stage holds the next step of every scale at once, beside the other
// features' stages, instead of each scale's kernels one after another; the
// full size's chain is rgb, hblur, vblur. Each scale has its own region of
// the scratch buffers (`work`, `temp`) and its own descriptor sets, bound to
// those regions alone; the linear planes alternate between two regions,
// scale i + 2 overwriting scale i's after its last reader.
#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "feature/ssimulacra2/ssimulacra2.h"
#include "feature/ssimulacra2/ssimulacra2_host.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "util/env.h"
#include "util/log.h"
#include "vulkan/command.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

namespace s2 = ssimulacra2;

// ssimulacra2_common.glsl's Consts.
struct Consts {
    double conv[8];
    float srgb_p[5], srgb_q[5], srgb_threshold, srgb_low_div_inv;
    float opsin[9], opsin_bias, neg_bias_cbrt, k13, k43;
    float x_scale, x_offset, y_offset, b_offset, c2;
    float n2[3], d1[3], mul_prev[12], mul_prev2[12], mul_in[12], mul_in_shifted[48];
    int32_t radius, cbrt_exp_bias, cbrt_exp_mul;
};
static_assert(offsetof(Consts, srgb_p) == 64 && offsetof(Consts, cbrt_exp_mul) == 64 + 122 * 4);

// ssimulacra2_common.glsl's push constants.
struct Push {
    uint32_t off[6], stride[2];
    uint32_t w, h, plane, in_w, in_h, out_word, sum_base;
};
static_assert(sizeof(Push) == 60);

constexpr unsigned kWorkPlanes = 15;  // XYB of both pictures and the three products
constexpr unsigned kLinPlanes = 12;   // linear RGB of both pictures, two scales
constexpr unsigned kSums = 18;        // doubles per column: 6 per channel
constexpr uint32_t kTile = 16;
// ssimulacra2_hblur.comp's rows per workgroup, and the largest radius its ring
// of 64 columns, filled 48 at a time, holds (2 * radius + 3 <= 64 - 48).
constexpr uint32_t kBlurRows = 32;
// ssimulacra2_vblur.comp's columns per workgroup (fifteen invocations each:
// five planes, three terms), its rows between meetings, and its shared memory.
constexpr uint32_t kBlurColumns = 8, kBlurInvocations = kBlurColumns * 15, kBlurBatch = 8;
constexpr uint32_t kColumnShared = kBlurInvocations * kBlurBatch * 4 + 6 * kBlurBatch * kBlurColumns * 8;
constexpr int kBlurMaxRadius = 6;

// ssimulacra2_hblur.comp's shared memory with `out` output columns per store:
// the ring, the three terms' stage and the rows' offsets.
constexpr uint32_t blur_shared_bytes(uint32_t out)
{
    return (kBlurRows * 64 + 3 * kBlurRows * (out + 1) + kBlurRows) * 4;
}

// Its output columns per store (spec constant 1): 48, or 16 where the device
// has less shared memory than that needs (16 fits Vulkan's least, 16 KiB).
uint32_t blur_out(const VkPhysicalDeviceLimits &lim)
{
    return lim.maxComputeSharedMemorySize >= blur_shared_bytes(48) ? 48 : 16;
}
static_assert(blur_shared_bytes(16) <= 16384);

struct Scale {
    uint32_t w, h, sum_base;  // sum_base: columns of the scales before it (its sums come after theirs)
    VkDeviceSize work_at;     // its region of `work` and `temp` (bytes)
};

// Where a region of a buffer may start: Vulkan's largest
// minStorageBufferOffsetAlignment.
constexpr VkDeviceSize kRegionAlign = 256;

constexpr VkDeviceSize region_bytes(uint64_t floats)
{
    return (floats * sizeof(float) + kRegionAlign - 1) / kRegionAlign * kRegionAlign;
}

std::vector<Scale> scales_of(const FrameFormat &fmt)
{
    std::vector<Scale> s;
    uint32_t w = fmt.w, h = fmt.h, columns = 0;
    VkDeviceSize work_at = 0;
    for (int i = 0; i < s2::kNumScales; i++) {
        if (i) {
            // libjxl goes on while the previous scale is at least 8x8.
            if (w < s2::kMinSide || h < s2::kMinSide) break;
            w = (w + 1) / 2;
            h = (h + 1) / 2;
        }
        s.push_back({w, h, columns, work_at});
        columns += w;
        work_at += region_bytes(uint64_t(w) * h * kWorkPlanes);
    }
    return s;
}

// The bytes of `work` (and of `temp`): every scale's region.
VkDeviceSize work_bytes(const std::vector<Scale> &scales)
{
    const Scale &last = scales.back();
    return last.work_at + region_bytes(uint64_t(last.w) * last.h * kWorkPlanes);
}

// The bytes of each of the two regions of `lin`: six planes of the full size.
VkDeviceSize lin_region_bytes(const FrameFormat &fmt)
{
    return region_bytes(uint64_t(fmt.w) * fmt.h * 6);
}

// The chain of kernels of each scale, in the order of their stages (at the
// full size, rgb is the first and does the second).
enum Step : unsigned { kLinear, kXyb, kHblur, kVblur, kSteps };

bool fits(const State &st, const FrameFormat &fmt)
{
    // The largest region bound (scale 0's of `work`) and the largest index
    // a kernel computes (in `lin`, 12 planes).
    const VkDeviceSize bytes = region_bytes(uint64_t(fmt.w) * fmt.h * kWorkPlanes);
    const VkPhysicalDeviceLimits &lim = st.limits();
    return bytes <= lim.maxStorageBufferRange && uint64_t(fmt.w) * fmt.h * kLinPlanes < (uint64_t(1) << 32) &&
           (fmt.w + kTile - 1) / kTile <= lim.maxComputeWorkGroupCount[0] &&
           (fmt.h + kTile - 1) / kTile <= lim.maxComputeWorkGroupCount[1] &&
           (fmt.w + kBlurColumns - 1) / kBlurColumns <= lim.maxComputeWorkGroupCount[0] &&
           (kWorkPlanes * fmt.h + kBlurRows - 1) / kBlurRows <= lim.maxComputeWorkGroupCount[0] &&
           s2::gaussian().radius <= kBlurMaxRadius &&
           lim.maxComputeWorkGroupInvocations >= kBlurInvocations && lim.maxComputeWorkGroupSize[0] >= 3 * kBlurRows &&
           lim.maxComputeWorkGroupSize[0] >= kBlurInvocations && lim.maxComputeSharedMemorySize >= kColumnShared;
}

// Triples for run_fma_probe(), all of normal floats with normal results:
// random magnitudes; c the product rounded and negated (fused, the result is
// the product's rounding error; rounded twice, 0); products near 1 of floats
// a unit apart, with many halfway cases; and values of a blur's magnitudes.
std::vector<float> fma_probe_triples()
{
    std::vector<float> t;
    std::mt19937 rng(2026);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-30, 30);
    const auto add = [&t](float a, float b, float c) { t.insert(t.end(), {a, b, c}); };
    for (int i = 0; i < 2048; i++)
        add(std::ldexp(unit(rng), exponent(rng)), std::ldexp(unit(rng), exponent(rng)),
            std::ldexp(unit(rng), exponent(rng)));
    for (int i = 0; i < 1024; i++) {
        const float a = 3.0f * unit(rng), b = 3.0f * unit(rng);
        const float product = a * b;
        add(a, b, -product);
    }
    for (int i = 0; i < 512; i++) {
        const float a = 1.0f + std::ldexp(float(i), -23);
        add(a, a, -1.0f);
        add(a, 1.0f + std::ldexp(1.0f, -12), std::ldexp(float(i % 7) - 3.0f, -24));
    }
    for (int i = 0; i < 1024; i++) add(0.25f * unit(rng), 100.0f * unit(rng), 50.0f * unit(rng));
    return t;
}

// 1 when the kernels' fma_native() gives the CPU's fmaf (rounded once) on
// every probe triple, 0 when not, a negative errno when the probe cannot run.
int run_fma_probe(State &st)
{
    const std::vector<float> t = fma_probe_triples();
    const uint32_t n = uint32_t(t.size() / 3);
    PipelineDesc d;
    d.shader = &spirv::ssimulacra2_fma_probe;
    d.buffers = 2;
    d.push_constant_size = sizeof(uint32_t);
    std::unique_ptr<ComputePipeline> probe;
    if (int err = ComputePipeline::create(st, d, &probe)) return err;
    Buffer in, out;
    if (int err = st.allocator().create_buffer(t.size() * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                               MemoryUse::Upload, &in))
        return err;
    if (int err = st.allocator().create_buffer(n * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                               MemoryUse::Readback, &out))
        return err;
    std::memcpy(in.data(), t.data(), t.size() * sizeof(float));
    if (int err = in.flush()) return err;
    VkDescriptorSet set = VK_NULL_HANDLE;
    const BufferRange ranges[] = {{in.get(), 0, in.size()}, {out.get(), 0, out.size()}};
    if (int err = probe->make_set(ranges, &set)) return err;
    if (int err = run_once(st, [&](VkCommandBuffer cmd) {
            probe->dispatch(cmd, set, &n, (n + 63) / 64);
            memory_barrier(st, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        }))
        return err;
    if (int err = out.invalidate()) return err;
    unsigned differ = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float want = std::fma(t[3 * i], t[3 * i + 1], t[3 * i + 2]);
        float got;
        std::memcpy(&got, out.data() + i * sizeof(float), sizeof got);
        if (std::bit_cast<uint32_t>(want) != std::bit_cast<uint32_t>(got)) differ++;
    }
    log(VMAF_LOG_LEVEL_DEBUG, "ssimulacra2: %u of %u fma() probes differ from fmaf: %s\n", differ, n,
        differ ? "libjxl's multiply-add is emulated in double" : "the kernels use fma()");
    return differ ? 0 : 1;
}

class Ssimulacra2Vk final : public Feature {
public:
    explicit Ssimulacra2Vk(const FeatureOptions &o)
        : matrix_(o.text("matrix")), full_range_(o.text("range") == "full"), fused_(o.flag("libjxl_fma"))
    {
    }

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        if (fmt.pix_fmt == VMAF_PIX_FMT_YUV400P || !st.float64() || !fits(st, fmt) || fmt.w < s2::kMinSide ||
            fmt.h < s2::kMinSide)
            return -ENOTSUP;
        st_ = &st;
        fmt_ = fmt;
        scales_ = scales_of(fmt);
        plane_ = fmt.w * fmt.h;
        const Scale &last = scales_.back();
        *result_bytes = size_t(last.sum_base + last.w) * kSums * sizeof(double);

        if (int err = upload_table(st, std::as_bytes(std::span(&consts(fmt), 1)), &consts_)) return err;
        unsigned ss_x = 0, ss_y = 0;
        chroma_shift(fmt.pix_fmt, &ss_x, &ss_y);
        const uint32_t fused = fused_ ? 1u : 0u, native = fused_ && ssimulacra2_native_fma(st) ? 1u : 0u;
        const SpecConstant rgb_spec[] = {{1, fmt.bpc > 8 ? 2u : 1u}, {2, ss_x}, {3, ss_y}, {10, fused}, {11, native}};
        const SpecConstant spec[] = {{10, fused}, {11, native}};
        const SpecConstant hblur_spec[] = {{1, blur_out(st.limits())}, {10, fused}, {11, native}};
        struct Kernel {
            const spirv::Shader *shader;
            unsigned buffers;
            std::unique_ptr<ComputePipeline> *out;
        };
        const Kernel kernels[] = {{&spirv::ssimulacra2_rgb, 4, &rgb_},     {&spirv::ssimulacra2_down, 3, &down_},
                                  {&spirv::ssimulacra2_xyb, 3, &xyb_},     {&spirv::ssimulacra2_hblur, 3, &hblur_},
                                  {&spirv::ssimulacra2_vblur, 4, &vblur_}};
        for (const Kernel &kn : kernels) {
            PipelineDesc d;
            d.shader = kn.shader;
            d.buffers = kn.buffers;
            d.push_constant_size = sizeof(Push);
            d.max_sets = kn.out == &rgb_ ? 1 : unsigned(scales_.size());  // a set per scale
            d.spec = kn.out == &rgb_     ? std::span<const SpecConstant>(rgb_spec)
                     : kn.out == &hblur_ ? std::span<const SpecConstant>(hblur_spec)
                                         : std::span<const SpecConstant>(spec);
            if (int err = ComputePipeline::create(st, d, kn.out)) return err;
        }
        for (auto [buf, bytes] : {std::pair{&lin_, 2 * lin_region_bytes(fmt)}, {&work_, work_bytes(scales_)},
                                  {&temp_, work_bytes(scales_)}})
            if (int err = st.allocator().create_buffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Device,
                                                       buf))
                return err;
        return 0;
    }

    int bind(const FrameBuffers &fb) override
    {
        if (fb.n_planes != 3 || fb.ref[0].w != fmt_.w || fb.ref[0].h != fmt_.h) return -EINVAL;
        for (unsigned c = 0; c < 3; c++) {
            if (fb.ref[c].stride != fb.dist[c].stride || fb.ref[c].offset / 4 > UINT32_MAX ||
                fb.dist[c].offset / 4 > UINT32_MAX)
                return -EINVAL;
            push_.off[c] = uint32_t(fb.ref[c].offset / 4);
            push_.off[3 + c] = uint32_t(fb.dist[c].offset / 4);
        }
        if (fb.ref[1].stride != fb.ref[2].stride) return -EINVAL;
        push_.stride[0] = fb.ref[0].stride / 4;
        push_.stride[1] = fb.ref[1].stride / 4;
        push_.plane = plane_;
        const BufferRange consts = {consts_->get(), 0, consts_->size()};
        const VkDeviceSize lin_bytes = lin_region_bytes(fmt_);
        const auto lin = [&](size_t i) { return BufferRange{lin_.get(), (i % 2) * lin_bytes, lin_bytes}; };
        sets_.assign(scales_.size(), {});
        for (size_t i = 0; i < scales_.size(); i++) {
            const Scale &s = scales_[i];
            const VkDeviceSize pixels = VkDeviceSize(s.w) * s.h * sizeof(float);
            const BufferRange work = {work_.get(), s.work_at, pixels * kWorkPlanes};
            const BufferRange temp = {temp_.get(), s.work_at, pixels * kWorkPlanes};
            const BufferRange xyb[] = {consts, lin(i), work};
            const BufferRange hblur[] = {consts, work, temp};
            const BufferRange vblur[] = {consts, temp, work, {fb.results, 0, fb.results_size}};
            ScaleSets &set = sets_[i];
            if (i == 0) {
                const BufferRange rgb[] = {consts, {fb.planes, 0, fb.planes_size}, lin(0), work};
                if (int err = rgb_->make_set(rgb, &rgb_set_)) return err;
            } else {
                const BufferRange down[] = {consts, lin(i - 1), lin(i)};
                if (int err = down_->make_set(down, &set.down)) return err;
                if (int err = xyb_->make_set(xyb, &set.xyb)) return err;
            }
            if (int err = hblur_->make_set(hblur, &set.hblur)) return err;
            if (int err = vblur_->make_set(vblur, &set.vblur)) return err;
        }
        return 0;
    }

    // Stage t holds step t - i of each scale i that has one (the wavefront;
    // the full size one step ahead from its second step on).
    unsigned stages() const override { return unsigned(scales_.size()) + kSteps - 1; }

    // Profile mode times each kernel of each scale alone, named with the
    // scale's number (rgb, hblur0, down1, vblur0, xyb1, ...), in recording order.
    std::vector<std::string> steps(unsigned stage) const override
    {
        std::vector<std::string> names;
        for_each_step(stage, [&names](size_t i, Step k) {
            static const char *const kNames[kSteps] = {"down", "xyb", "hblur", "vblur"};
            names.push_back(i == 0 && k == kLinear ? std::string("rgb") : kNames[k] + std::to_string(i));
        });
        return names;
    }

    int record(const Recording &rec) override
    {
        if (rec.result_offset % sizeof(double)) return -EINVAL;
        bool first = true;
        for_each_step(rec.stage, [&](size_t i, Step k) {
            // The steps of a stage are independent; profile mode times them
            // one after another.
            if (!first && rec.step_done) {
                compute_barrier(*st_, rec.cmd);
                rec.step_done();
            }
            first = false;
            record_step(rec, i, k);
        });
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        std::vector<s2::ScaleNorms> norms(scales_.size());
        for (size_t i = 0; i < scales_.size(); i++) {
            const Scale &s = scales_[i];
            const double one_per_pixels = 1.0 / double(std::size_t(s.h) * s.w);
            for (unsigned c = 0; c < 3; c++) {
                double sum[6] = {};
                for (uint32_t x = 0; x < s.w; x++)
                    for (unsigned j = 0; j < 6; j++)
                        sum[j] += result_at<double>(results, size_t(s.sum_base + x) * kSums + c * 6 + j);
                s2::ScaleNorms &n = norms[i];
                n.ssim[c * 2] = one_per_pixels * sum[0];
                n.ssim[c * 2 + 1] = std::sqrt(std::sqrt(one_per_pixels * sum[1]));
                n.edgediff[c * 4] = one_per_pixels * sum[2];
                n.edgediff[c * 4 + 1] = std::sqrt(std::sqrt(one_per_pixels * sum[3]));
                n.edgediff[c * 4 + 2] = one_per_pixels * sum[4];
                n.edgediff[c * 4 + 3] = std::sqrt(std::sqrt(one_per_pixels * sum[5]));
            }
        }
        return sink.append(s2::kName, index, s2::score(norms));
    }

private:
    static uint32_t groups(uint32_t n, uint32_t per) { return (n + per - 1) / per; }

    // Calls f(scale, step) for each step of `stage`, the largest scale first.
    template <typename F>
    void for_each_step(unsigned stage, F &&f) const
    {
        for (size_t i = 0; i < scales_.size() && i <= stage; i++) {
            const unsigned k = i == 0 && stage > 0 ? stage + 1 : stage - unsigned(i);
            if (k < kSteps) f(i, Step(k));
        }
    }

    // One kernel of scale i. Its reads were written in earlier stages: its
    // linear planes by the step before it, its scratch planes by its own
    // earlier steps; the linear planes of scale i alternate with those of
    // i + 1 and are overwritten by scale i + 2's downsampling, a stage after
    // scale i's XYB, their last reader.
    void record_step(const Recording &rec, size_t i, Step k)
    {
        const Scale &s = scales_[i];
        Push push = push_;
        push.out_word = uint32_t(rec.result_offset / sizeof(double));
        push.w = s.w;
        push.h = s.h;
        push.sum_base = s.sum_base;
        const ScaleSets &set = sets_[i];
        switch (k) {
        case kLinear:
            if (i == 0) {
                rgb_->dispatch(rec.cmd, rgb_set_, &push, groups(s.w, kTile), groups(s.h, kTile));
                break;
            }
            push.in_w = scales_[i - 1].w;
            push.in_h = scales_[i - 1].h;
            down_->dispatch(rec.cmd, set.down, &push, groups(s.w, kTile), groups(s.h, kTile), 6);
            break;
        case kXyb:
            xyb_->dispatch(rec.cmd, set.xyb, &push, groups(s.w, kTile), groups(s.h, kTile));
            break;
        case kHblur:
            hblur_->dispatch(rec.cmd, set.hblur, &push, groups(kWorkPlanes * s.h, kBlurRows));
            break;
        case kVblur:
            vblur_->dispatch(rec.cmd, set.vblur, &push, groups(s.w, kBlurColumns), 3);
            break;
        case kSteps:
            break;
        }
    }

    const Consts &consts(const FrameFormat &fmt)
    {
        Consts &k = consts_data_;
        const s2::Conversion cv = s2::conversion_for(fmt, matrix_, full_range_);
        const double conv[8] = {cv.y_off, cv.y_scale, cv.c_off, cv.c_scale, cv.cr_r, cv.cb_g, cv.cr_g, cv.cb_b};
        std::copy(conv, conv + 8, k.conv);
        std::copy(s2::kSrgbP, s2::kSrgbP + 5, k.srgb_p);
        std::copy(s2::kSrgbQ, s2::kSrgbQ + 5, k.srgb_q);
        k.srgb_threshold = s2::kSrgbThreshold;
        k.srgb_low_div_inv = s2::kSrgbLowDivInv;
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 3; i++) k.opsin[j * 3 + i] = s2::kOpsin[j][i];
        k.opsin_bias = s2::kOpsinBias;
        k.neg_bias_cbrt = s2::neg_bias_cbrt();
        k.k13 = 1.0f / 3;  // as ssimulacra2_kernels_tmpl.h's cube_root_add
        k.k43 = 4.0f / 3;
        k.x_scale = s2::kXScale;
        k.x_offset = s2::kXOffset;
        k.y_offset = s2::kYOffset;
        k.b_offset = s2::kBOffset;
        k.c2 = s2::kC2;
        const s2::RecursiveGaussian &rg = s2::gaussian();
        for (int i = 0; i < 3; i++) {
            k.n2[i] = rg.n2[i];
            k.d1[i] = rg.d1[i];
            for (int j = 0; j < 4; j++) {
                k.mul_prev[i * 4 + j] = rg.mul_prev[i][j];
                k.mul_prev2[i * 4 + j] = rg.mul_prev2[i][j];
                k.mul_in[i * 4 + j] = rg.mul_in[i][j];
                for (int m = 0; m < 4; m++) k.mul_in_shifted[(i * 4 + m) * 4 + j] = rg.mul_in_shifted[i][m][j];
            }
        }
        k.radius = rg.radius;
        k.cbrt_exp_bias = s2::kCbrtExpBias;
        k.cbrt_exp_mul = s2::kCbrtExpMul;
        return k;
    }

    std::string matrix_;
    bool full_range_, fused_;
    State *st_ = nullptr;
    FrameFormat fmt_{};
    std::vector<Scale> scales_;
    uint32_t plane_ = 0;
    Push push_{};
    Consts consts_data_{};
    std::shared_ptr<const Buffer> consts_;
    std::unique_ptr<ComputePipeline> rgb_, down_, xyb_, hblur_, vblur_;
    // Each scale's descriptor sets, bound to its regions (down: from the second scale on).
    struct ScaleSets {
        VkDescriptorSet down = VK_NULL_HANDLE, xyb = VK_NULL_HANDLE, hblur = VK_NULL_HANDLE, vblur = VK_NULL_HANDLE;
    };
    VkDescriptorSet rgb_set_ = VK_NULL_HANDLE;
    std::vector<ScaleSets> sets_;
    Buffer lin_, work_, temp_;
};

bool supports(const State &st, const FrameFormat &fmt, const FeatureOptions &)
{
    // The kernels need doubles; pictures below 8x8 go to the CPU extractor,
    // which refuses them with its message.
    return st.float64() && fmt.pix_fmt != VMAF_PIX_FMT_YUV400P && fmt.w >= s2::kMinSide && fmt.h >= s2::kMinSide &&
           fits(st, fmt);
}

std::unique_ptr<Feature> create(const FeatureOptions &o)
{
    return std::make_unique<Ssimulacra2Vk>(o);
}

}  // namespace

const FeatureInfo kSsimulacra2Feature = {"ssimulacra2", supports, create};

bool ssimulacra2_native_fma(State &st)
{
    if (!env_switch("VMAF_VULKAN_NATIVE_FMA", true)) return false;
    return st.once("ssimulacra2: fma() rounds once", [&st] { return run_fma_probe(st); }) == 1;
}

}  // namespace vmaf::vk
