// SPDX-License-Identifier: BSD-2-Clause-Patent
// ssimulacra2 on the GPU: the twin of ssimulacra2_cpu.cpp, the same float
// operations in the same order (ADR 0078). A frame is three kernels, each in
// a stage of its own and each for every scale at once (ADR 0089):
// - ssimulacra2_rgb.comp turns both pictures into linear RGB, averages it
//   down the scales in 32x32 tiles of the full size, and writes each scale's
//   XYB and the products the blurs take;
// - ssimulacra2_hblur.comp does the five recursive Gaussian blurs of each
//   channel along the rows, three invocations per row, one per term of the
//   recursion, reading and writing through shared memory;
// - ssimulacra2_vblur.comp does them down the columns, one invocation per
//   column, plane and term, and adds the maps' terms of each column in
//   double, in a fixed order.
// The blurs' grids take the scales one after another (the first workgroup
// of each in the constants). The column blurs are offered as carried work
// (feature/twin.h): where the engine takes it they run in the next frame's
// first stage, beside its rgb, and read the XYB planes from the frame's own
// copy of them (two copies, alternating). Each scale has its own region of
// the scratch buffers (`work`, `temp`) and of each copy.
// collect() adds the columns in order and scores with the CPU's score(). The
// CPU adds the terms one pixel after another, which parallel work cannot
// repeat: scores agree within 1e-6, not bit for bit. The kernels need
// shaderFloat64; without it the CPU extractor runs.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "feature/ssimulacra2/ssimulacra2.h"
#include "feature/ssimulacra2/ssimulacra2_host.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
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
    uint32_t scales, scale_w[6], scale_h[6], scale_at[6], xyb_at[6], sum_base[6], row_groups[7], column_groups[7];
};
static_assert(offsetof(Consts, srgb_p) == 64 && offsetof(Consts, cbrt_exp_mul) == 64 + 122 * 4 &&
              offsetof(Consts, column_groups) == 64 + 161 * 4);
static_assert(s2::kNumScales <= 6, "ssimulacra2_rgb.comp's tile holds six scales");

// ssimulacra2_common.glsl's push constants.
struct Push {
    uint32_t off[6], stride[2], out_word, group_base;
};
static_assert(sizeof(Push) == 40);

constexpr unsigned kWorkPlanes = 15;  // XYB of both pictures and the three products
constexpr unsigned kXybPlanes = 6;    // XYB of both pictures (each frame's copy)
constexpr unsigned kSums = 18;        // doubles per column: 6 per channel
constexpr uint32_t kTile = 32;        // ssimulacra2_rgb.comp's tile of the full size
constexpr uint32_t kRgbShared = 6 * kTile * kTile * 4;  // its linear planes of the tile
// ssimulacra2_hblur.comp's rows per workgroup, and the largest radius its ring
// of 64 columns, filled 48 at a time, holds (2 * radius + 3 <= 64 - 48).
constexpr uint32_t kBlurRows = 32;
// ssimulacra2_vblur.comp's columns per workgroup (fifteen invocations each:
// five planes, three terms), its rows between meetings, and its shared memory.
constexpr uint32_t kBlurColumns = 8, kBlurInvocations = kBlurColumns * 15, kBlurBatch = 8;
constexpr uint32_t kColumnShared = kBlurInvocations * kBlurBatch * 4 + 6 * kBlurBatch * kBlurColumns * 8;
constexpr int kBlurMaxRadius = 6;

// ssimulacra2_hblur.comp's output columns per store (its kOut), and its shared
// memory: the ring, the three terms' stage and the rows' offsets; less than
// rgb's, which supports() asks of every device.
constexpr uint32_t kBlurOut = 24;
constexpr uint32_t kBlurShared = (kBlurRows * 64 + 3 * kBlurRows * (kBlurOut + 1) + kBlurRows) * 4;
static_assert(kBlurShared <= kRgbShared);

struct Scale {
    uint32_t w, h, sum_base;  // sum_base: columns of the scales before it (its sums come after theirs)
    VkDeviceSize work_at;     // its region of `work` and `temp` (bytes)
    VkDeviceSize xyb_at;      // its region of each copy of the XYB planes (bytes)
    uint32_t row_group, column_group;  // its first workgroup in the blurs' grids
};

// Where a region of a buffer may start: Vulkan's largest
// minStorageBufferOffsetAlignment.
constexpr VkDeviceSize kRegionAlign = 256;

constexpr VkDeviceSize region_bytes(uint64_t floats)
{
    return (floats * sizeof(float) + kRegionAlign - 1) / kRegionAlign * kRegionAlign;
}

uint64_t groups(uint64_t n, uint64_t per)
{
    return (n + per - 1) / per;
}

// A scale's workgroups in the row blur's grid and in the column blur's.
uint64_t row_groups_of(uint32_t h)
{
    return groups(uint64_t(kWorkPlanes) * h, kBlurRows);
}

uint64_t column_groups_of(uint32_t w)
{
    return groups(w, kBlurColumns);
}

std::vector<Scale> scales_of(const FrameFormat &fmt)
{
    std::vector<Scale> s;
    uint32_t w = fmt.w, h = fmt.h, columns = 0;
    uint64_t work_at = 0, xyb_at = 0, row_groups = 0, column_groups = 0;
    for (int i = 0; i < s2::kNumScales; i++) {
        if (i) {
            // libjxl goes on while the previous scale is at least 8x8.
            if (w < s2::kMinSide || h < s2::kMinSide) break;
            w = (w + 1) / 2;
            h = (h + 1) / 2;
        }
        // Past 32 bits the grids do not fit (fits()).
        s.push_back({w, h, columns, work_at, xyb_at, uint32_t(row_groups), uint32_t(column_groups)});
        columns += w;
        work_at += region_bytes(uint64_t(w) * h * kWorkPlanes);
        xyb_at += region_bytes(uint64_t(w) * h * kXybPlanes);
        row_groups += row_groups_of(h);
        column_groups += column_groups_of(w);
    }
    return s;
}

// The workgroups of the blurs' grids: every scale's.
uint64_t row_groups(const std::vector<Scale> &scales)
{
    const Scale &last = scales.back();
    return last.row_group + row_groups_of(last.h);
}

uint64_t column_groups(const std::vector<Scale> &scales)
{
    const Scale &last = scales.back();
    return last.column_group + column_groups_of(last.w);
}

// The bytes of `work` (and of `temp`): every scale's region.
VkDeviceSize work_bytes(const std::vector<Scale> &scales)
{
    const Scale &last = scales.back();
    return last.work_at + region_bytes(uint64_t(last.w) * last.h * kWorkPlanes);
}

// The bytes of one copy of the XYB planes.
VkDeviceSize xyb_bytes(const std::vector<Scale> &scales)
{
    const Scale &last = scales.back();
    return last.xyb_at + region_bytes(uint64_t(last.w) * last.h * kXybPlanes);
}

// The kernels, one stage each, in order (the column blur carried into the
// next frame's first stage where the engine takes the offer).
enum Step : unsigned { kRgb, kHblur, kVblur, kSteps };

bool fits(const State &st, const FrameFormat &fmt)
{
    // The scratch buffers, bound whole, and the blurs' grids.
    const std::vector<Scale> scales = scales_of(fmt);
    const VkDeviceSize bytes = work_bytes(scales);
    const VkPhysicalDeviceLimits &lim = st.limits();
    return bytes <= lim.maxStorageBufferRange && bytes / sizeof(float) < (uint64_t(1) << 32) &&
           groups(fmt.w, kTile) <= lim.maxComputeWorkGroupCount[0] &&
           groups(fmt.h, kTile) <= lim.maxComputeWorkGroupCount[1] &&
           row_groups(scales) <= lim.maxComputeWorkGroupCount[0] &&
           column_groups(scales) <= lim.maxComputeWorkGroupCount[0] && s2::gaussian().radius <= kBlurMaxRadius &&
           lim.maxComputeWorkGroupInvocations >= kBlurInvocations && lim.maxComputeWorkGroupSize[0] >= 3 * kBlurRows &&
           lim.maxComputeWorkGroupSize[0] >= kBlurInvocations && lim.maxComputeSharedMemorySize >= kColumnShared &&
           lim.maxComputeSharedMemorySize >= kRgbShared && lim.maxComputeWorkGroupSize[0] >= 256;
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
        const Scale &last = scales_.back();
        *result_bytes = size_t(last.sum_base + last.w) * kSums * sizeof(double);

        if (int err = upload_table(st, std::as_bytes(std::span(&consts(fmt), 1)), &consts_)) return err;
        unsigned ss_x = 0, ss_y = 0;
        chroma_shift(fmt.pix_fmt, &ss_x, &ss_y);
        const uint32_t fused = fused_ ? 1u : 0u, native = fused_ && native_fma(st) ? 1u : 0u;
        const SpecConstant rgb_spec[] = {{1, fmt.bpc > 8 ? 2u : 1u}, {2, ss_x}, {3, ss_y}, {10, fused}, {11, native}};
        const SpecConstant spec[] = {{10, fused}, {11, native}};
        struct Kernel {
            const spirv::Shader *shader;
            unsigned buffers;
            std::unique_ptr<ComputePipeline> *out;
        };
        const Kernel kernels[] = {{&spirv::ssimulacra2_rgb, 4, &rgb_},
                                  {&spirv::ssimulacra2_hblur, 3, &hblur_},
                                  {&spirv::ssimulacra2_vblur, 4, &vblur_}};
        for (const Kernel &kn : kernels) {
            PipelineDesc d;
            d.shader = kn.shader;
            d.buffers = kn.buffers;
            d.push_constant_size = sizeof(Push);
            d.max_sets = kn.out == &hblur_ ? 1 : 2;  // rgb and the column blur: a set per copy of the XYB planes
            d.spec = kn.out == &rgb_ ? std::span<const SpecConstant>(rgb_spec) : std::span<const SpecConstant>(spec);
            if (int err = ComputePipeline::create(st, d, kn.out)) return err;
        }
        for (auto [buf, bytes] : {std::pair{&work_, work_bytes(scales_)}, {&temp_, work_bytes(scales_)},
                                  {&xyb_, 2 * xyb_bytes(scales_)}})
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
        const BufferRange consts = {consts_->get(), 0, consts_->size()};
        const BufferRange work = {work_.get(), 0, work_.size()}, temp = {temp_.get(), 0, temp_.size()};
        const BufferRange hblur[] = {consts, work, temp};
        if (int err = hblur_->make_set(hblur, &hblur_set_)) return err;
        // Frame i's copy of the XYB planes is copy i % 2: the frame's rgb
        // writes it while the column blur carried from the frame before
        // reads the other.
        for (unsigned i = 0; i < 2; i++) {
            const BufferRange xyb = {xyb_.get(), i * xyb_bytes(scales_), xyb_bytes(scales_)};
            const BufferRange rgb[] = {consts, {fb.planes, 0, fb.planes_size}, work, xyb};
            const BufferRange vblur[] = {consts, temp, xyb, {fb.results, 0, fb.results_size}};
            if (int err = rgb_->make_set(rgb, &rgb_sets_[i])) return err;
            if (int err = vblur_->make_set(vblur, &vblur_sets_[i])) return err;
        }
        return 0;
    }

    // A kernel a stage, each for every scale. Profile mode times the blurs
    // of each scale alone (hblur0, hblur1, ...), as a dispatch of its own.
    // Carrying, the column blur is the carried stage 0: it runs in the next
    // frame's first stage beside its rgb, which writes the scratch buffers
    // it does not read (the row blur, writing `temp`, comes a stage later).
    unsigned stages() const override { return carry_ ? kVblur : kSteps; }
    unsigned carried_stages() const override { return carry_ ? 1 : 0; }
    unsigned carry_offer() const override { return 1; }
    void carry() override { carry_ = true; }

    std::vector<std::string> steps(unsigned stage) const override
    {
        if (stage == kRgb) return {"rgb"};
        std::vector<std::string> names;
        const std::string kernel = stage == kHblur ? "hblur" : "vblur";
        for (size_t i = 0; i < scales_.size(); i++) names.push_back(kernel + std::to_string(i));
        return names;
    }

    int record(const Recording &rec) override
    {
        const unsigned step = rec.carried ? unsigned(kVblur) + rec.stage : rec.stage;
        if (rec.result_offset % sizeof(double) || step >= kSteps) return -EINVAL;
        const unsigned copy = rec.index % 2;
        Push push = push_;
        push.out_word = uint32_t(rec.result_offset / sizeof(double));
        if (step == kRgb) {
            rgb_->dispatch(rec.cmd, rgb_sets_[copy], &push, uint32_t(groups(fmt_.w, kTile)),
                           uint32_t(groups(fmt_.h, kTile)));
            return 0;
        }
        // The blur's grid: every scale's workgroups, or in profile mode each
        // scale's alone, one after another (the scales' first workgroups and
        // the grid's end, as the kernels have them).
        const bool rows = step == kHblur;
        const uint32_t *const first = rows ? consts_data_.row_groups : consts_data_.column_groups;
        const auto dispatch = [&](size_t from, size_t to) {
            push.group_base = first[from];
            const uint32_t n = first[to] - first[from];
            if (rows)
                hblur_->dispatch(rec.cmd, hblur_set_, &push, n);
            else
                vblur_->dispatch(rec.cmd, vblur_sets_[copy], &push, n, 3);
        };
        if (!rec.step_done) {
            dispatch(0, scales_.size());
            return 0;
        }
        for (size_t i = 0; i < scales_.size(); i++) {
            if (i) {
                compute_barrier(*st_, rec.cmd);
                rec.step_done();
            }
            dispatch(i, i + 1);
        }
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
        k.scales = uint32_t(scales_.size());
        for (size_t i = 0; i < scales_.size(); i++) {
            const Scale &sc = scales_[i];
            k.scale_w[i] = sc.w;
            k.scale_h[i] = sc.h;
            k.scale_at[i] = uint32_t(sc.work_at / sizeof(float));
            k.xyb_at[i] = uint32_t(sc.xyb_at / sizeof(float));
            k.sum_base[i] = sc.sum_base;
            k.row_groups[i] = sc.row_group;
            k.column_groups[i] = sc.column_group;
        }
        k.row_groups[scales_.size()] = uint32_t(row_groups(scales_));
        k.column_groups[scales_.size()] = uint32_t(column_groups(scales_));
        return k;
    }

    std::string matrix_;
    bool full_range_, fused_;
    State *st_ = nullptr;
    FrameFormat fmt_{};
    std::vector<Scale> scales_;
    Push push_{};
    Consts consts_data_{};
    std::shared_ptr<const Buffer> consts_;
    std::unique_ptr<ComputePipeline> rgb_, hblur_, vblur_;
    VkDescriptorSet rgb_sets_[2] = {}, hblur_set_ = VK_NULL_HANDLE, vblur_sets_[2] = {};
    Buffer work_, temp_, xyb_;
    bool carry_ = false;
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

}  // namespace vmaf::vk
