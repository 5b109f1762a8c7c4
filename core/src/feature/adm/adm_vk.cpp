// Integer ADM on the GPU: the twin of adm_cpu.cpp.
//
// One dispatch per scale (shaders/adm_scale0.comp for the picture and its
// 16-bit bands, adm_scale.comp for scales 1..3 and their 32-bit bands; both
// are shaders/adm_scale.glsl): each workgroup takes a tile of the scale's
// bands and does the whole scale on it in shared memory (wavelet, decoupling,
// CSF, masking, the cubed sums), writing the tile's low-low band for the next
// scale into this feature's scratch buffer and, per band row of the tile, its
// nine integer sums into the partials buffer. The CPU shifts each band row's
// sum before adding the rows, so a last small dispatch (adm_rows.comp)
// completes every row from its tiles, shifts it and adds 32 rows at a time.
// collect() adds those into the CPU's per-scale integers (energy, DLM, AIM x
// h, v, d) and turns them into scores with adm_score.h, the CPU's own
// finishing code, so both backends print the same numbers.
//
// Everything the picture size and the options decide reaches the kernels as
// specialization constants, computed here by the CPU's functions (shifts,
// rectangles, CSF weights, the gain limit as an exact mantissa and exponent).
#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <vector>

#include "feature/adm/adm_csf.h"
#include "feature/adm/adm_kernels.h"
#include "feature/adm/adm_score.h"
#include "feature/adm/adm_tables.h"
#include "picture/picture.h"
#include "spirv.h"
#include "vulkan/command.h"
#include "vulkan/context.h"
#include "vulkan/feature.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {

namespace {

using namespace adm;

// adm_scale.glsl's tiles (band samples) and shared memory, in 32-bit words.
constexpr uint32_t kTileW = 32;
constexpr uint32_t kTileH[kScales] = {16, 8, 8, 8};
constexpr uint32_t kSharedWords(uint32_t tile_h, uint32_t words_per_input, uint32_t words_per_vertical)
{
    const uint32_t bw = kTileW + 2, bh = tile_h + 2;
    const uint32_t cols = 2 * bw + 2, rows = 2 * bh + 2;
    return words_per_input * rows * cols + words_per_vertical * bh * cols + 2 * bh * bw;
}
constexpr uint32_t kSharedBytes = 4 * std::max(kSharedWords(16, 1, 2), kSharedWords(8, 2, 4));

constexpr uint32_t kQuantities = 9;  // energy, DLM, AIM x h, v, d
constexpr uint32_t kRowsPerGroup = 32;  // adm_rows.comp's band rows per workgroup

// adm_scale.glsl's specialization constants, by constant_id.
enum Spec : uint32_t {
    kInW, kInH, kSampleBytes, kVShift, kVRound, kVOffset, kHShift, kEdgeReadsOn, kStale, kEdgeOut,
    kWriteLowLow, kScore, kAim, kWeightH, kWeightV, kWeightD, kScoreTop, kScoreBottom, kScoreLeft,
    kScoreRight, kNearestEnd, kCubeH, kCubeV, kCubeD, kDenSquare, kDenCube, kGainInt, kGainMantLo,
    kGainMantHi, kGainExp, kSpecCount
};

struct ScalePush {
    uint32_t in_ref, in_dis, in_stride;  // input planes, in samples of their type
    uint32_t out_ref, out_dis;           // the next scale's input
    uint32_t part_base;                  // first partial (64-bit words)
};

struct RowsPush {
    uint32_t part_base[kScales];
    uint32_t rows[kScales];
    uint32_t tiles[kScales];
    uint32_t den_shift[kScales];
    uint32_t num_shift[kScales];
    uint32_t first_group[kScales];
    uint32_t chunks[kScales];
    uint32_t out_index;
};

struct ScaleJob {
    ScalePush push{};
    uint32_t groups_x = 0, groups_y = 0;
};

// The enhancement gain limit as the kernel takes it: a small integer (the
// product with any 32-bit value is then exact in a double), or an exact
// mantissa and exponent.
void gain_constants(double limit, std::array<uint32_t, kSpecCount> &spec)
{
    if (limit == std::floor(limit) && limit < double(1 << 21)) {
        spec[kGainInt] = uint32_t(limit);
        return;
    }
    int e = 0;
    const double f = std::frexp(limit, &e);  // limit = f * 2^e, f in [0.5, 1)
    const uint64_t m = uint64_t(std::ldexp(f, 53));
    spec[kGainInt] = 0;
    spec[kGainMantLo] = uint32_t(m);
    spec[kGainMantHi] = uint32_t(m >> 32);
    spec[kGainExp] = uint32_t(e - 53);
}

class AdmVk final : public Feature {
public:
    explicit AdmVk(const FeatureOptions &o) : settings_(Settings::from(o)) {}

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        // The CPU extractor's checks.
        if (fmt.w < kMinSide || fmt.h < kMinSide) return -EINVAL;
        if (fmt.bpc < 8 || fmt.bpc > 16) return -EINVAL;
        const ViewSetup &view = settings_.view;
        if (view.norm_view_dist * view.ref_display_height < kDefaultNormViewDist * kDefaultRefDisplayHeight)
            return -EINVAL;
        if (int err = make_weights(view, &weights_)) return err;
        if (st.limits().maxComputeSharedMemorySize < kSharedBytes) return -ENOTSUP;
        st_ = &st;
        fmt_ = fmt;

        w_[0] = int(fmt.w);
        h_[0] = int(fmt.h);
        for (int s = 0; s < kScales; s++) {
            w_[s + 1] = (w_[s] + 1) / 2;
            h_[s + 1] = (h_[s] + 1) / 2;
            shifts_[s] = sum_shifts(w_[s + 1], h_[s + 1], s);
        }
        layout_scratch();
        for (int s = 0; s < kScales; s++) {
            if (int err = make_pipeline(st, s)) return err;
            ScaleJob &j = jobs_[s];
            j.groups_x = (uint32_t(w_[s + 1]) + kTileW - 1) / kTileW;
            j.groups_y = (uint32_t(h_[s + 1]) + kTileH[s] - 1) / kTileH[s];
            if (j.groups_x > st.limits().maxComputeWorkGroupCount[0] ||
                j.groups_y > st.limits().maxComputeWorkGroupCount[1])
                return -ENOTSUP;
        }
        if (rows_groups_ > st.limits().maxComputeWorkGroupCount[0]) return -ENOTSUP;
        {
            PipelineDesc d;
            d.shader = &spirv::adm_rows;
            d.buffers = 2;
            d.push_constant_size = sizeof(RowsPush);
            if (int err = ComputePipeline::create(st, d, &rows_)) return err;
        }

        Allocator &a = st.allocator();
        constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        if (int err = a.create_buffer(bands_bytes_, kStorage, MemoryUse::Device, &bands_)) return err;
        if (int err = a.create_buffer(std::max<VkDeviceSize>(partial_words_, 1) * sizeof(uint64_t), kStorage,
                                      MemoryUse::Device, &partials_))
            return err;
        *result_bytes = size_t(rows_groups_) * sizeof(uint64_t);
        return 0;
    }

    int bind(const FrameBuffers &fb) override
    {
        if (fb.ref[0].w != fmt_.w || fb.ref[0].h != fmt_.h) return -EINVAL;
        const uint32_t bytes = fb.bytes_per_sample;
        ScalePush &p0 = jobs_[0].push;
        p0.in_ref = uint32_t(fb.ref[0].offset / bytes);
        p0.in_dis = uint32_t(fb.dist[0].offset / bytes);
        p0.in_stride = fb.ref[0].stride / bytes;
        const BufferRange scale_buffers[] = {{fb.planes, 0, fb.planes_size},
                                             {bands_.get(), 0, bands_.size()},
                                             {partials_.get(), 0, partials_.size()}};
        for (int s = 0; s < kScales; s++)
            if (int err = pipelines_[s]->make_set(scale_buffers, &sets_[s])) return err;
        const BufferRange rows_buffers[] = {{partials_.get(), 0, partials_.size()},
                                            {fb.results, 0, fb.results_size}};
        return rows_->make_set(rows_buffers, &rows_set_);
    }

    // Stages 0-3 run scales 0-3 (scale s reads what scale s - 1 wrote), stage 4
    // the row sums of every scale; the Engine's barriers between stages order them.
    unsigned stages() const override { return kScales + 1; }

    int record(const Recording &rec) override
    {
        const unsigned s = rec.stage;
        if (s < unsigned(kScales)) {
            pipelines_[s]->dispatch(rec.cmd, sets_[s], &jobs_[s].push, jobs_[s].groups_x, jobs_[s].groups_y);
            return 0;
        }
        RowsPush push = rows_push_;
        push.out_index = uint32_t(rec.result_offset / sizeof(uint64_t));
        rows_->dispatch(rec.cmd, rows_set_, &push, rows_groups_);
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        groups_.resize(rows_groups_);
        std::memcpy(groups_.data(), results.data(), groups_.size() * sizeof(uint64_t));
        ScaleScore score[kScales];
        for (int s = 0; s < kScales; s++) {
            // Modulo 2^64 like the CPU's own sums, so any order gives them.
            uint64_t q[kQuantities] = {};
            for (uint32_t k = 0; k < kQuantities; k++)
                for (uint32_t c = 0; c < rows_push_.chunks[s]; c++)
                    q[k] += groups_[rows_push_.first_group[s] + k * rows_push_.chunks[s] + c];
            ScaleSums sums;
            for (int o = 0; o < kOrientations; o++) {
                sums.den[o] = q[o];
                sums.num[o] = int64_t(q[3 + o]);
                sums.aim[o] = int64_t(q[6 + o]);
            }
            score[s] = finish_scale(sums, shifts_[s], s, weights_[s], settings_);
        }
        return write_scores(score, settings_, fmt_.w, fmt_.h, index, sink);
    }

private:
    bool scored(int s) const { return !(s == 0 && settings_.skip_scale0); }

    // The right edge of scale s reads past the row (adm_kernels.h).
    bool edge_reads_on(int s) const
    {
        using namespace adm::kernels;
        const EdgeBlocks &eb = settings_.edge;
        const int block = s > 0 ? eb.scales123 : (fmt_.bpc == 8 ? eb.scale0_8bit : eb.scale0_deep);
        return right_edge_reads_on(w_[s + 1], block);
    }

    // The scratch buffer: the low-low bands of scales 0..2, both pictures (16
    // bits after scale 0, 32 after), then two edge slots of four values; the
    // partials of every scored scale; adm_rows.comp's workgroups.
    void layout_scratch()
    {
        VkDeviceSize at = 0;  // bytes
        for (int s = 0; s + 1 < kScales; s++) {
            const VkDeviceSize bytes = s == 0 ? 2 : 4;
            const VkDeviceSize n = VkDeviceSize(w_[s + 1]) * VkDeviceSize(h_[s + 1]);
            at = (at + 3) / 4 * 4;
            jobs_[s].push.out_ref = uint32_t(at / bytes);
            jobs_[s].push.out_dis = uint32_t(at / bytes + n);
            jobs_[s + 1].push.in_ref = jobs_[s].push.out_ref;
            jobs_[s + 1].push.in_dis = jobs_[s].push.out_dis;
            jobs_[s + 1].push.in_stride = uint32_t(w_[s + 1]);
            at += 2 * n * bytes;
        }
        at = (at + 3) / 4 * 4;
        edge_slots_ = uint32_t(at / 4);
        bands_bytes_ = at + 2 * 4 * sizeof(int32_t);

        uint32_t part = 0, groups = 0;
        for (int s = 0; s < kScales; s++) {
            const uint32_t tiles = (uint32_t(w_[s + 1]) + kTileW - 1) / kTileW;
            const uint32_t rows = scored(s) ? uint32_t(shifts_[s].score.height()) : 0;
            jobs_[s].push.part_base = part;
            rows_push_.part_base[s] = part;
            rows_push_.rows[s] = rows;
            rows_push_.tiles[s] = tiles;
            rows_push_.den_shift[s] = uint32_t(shifts_[s].den_row);
            rows_push_.num_shift[s] = uint32_t(shifts_[s].num_row);
            rows_push_.chunks[s] = (rows + kRowsPerGroup - 1) / kRowsPerGroup;
            rows_push_.first_group[s] = groups;
            part += kQuantities * rows * tiles;
            groups += kQuantities * rows_push_.chunks[s];
        }
        partial_words_ = part;
        rows_groups_ = groups;
    }

    int make_pipeline(State &st, int s)
    {
        std::array<uint32_t, kSpecCount> v{};
        const unsigned bpc = fmt_.bpc;
        v[kInW] = uint32_t(w_[s]);
        v[kInH] = uint32_t(h_[s]);
        v[kSampleBytes] = s == 0 ? bytes_per_sample(bpc) : (s == 1 ? 2u : 4u);
        v[kVShift] = s == 0 ? bpc : uint32_t(kDwtVerticalShift[s - 1]);
        v[kVRound] = s == 0 ? uint32_t(dwt0_vertical_round(bpc)) : 0u;
        v[kVOffset] = s == 0 ? uint32_t(dwt0_lo_offset(bpc)) : 0u;
        v[kHShift] = s == 0 ? uint32_t(kDwt0HorizontalShift) : uint32_t(kDwtHorizontalShift[s - 1]);
        v[kEdgeReadsOn] = edge_reads_on(s);
        // Past the last row of the distorted high pass lies, from scale 2 on,
        // what the previous scale's last row left in the CPU's buffer: its
        // distorted low pass at input column 0 or 2 (adm_kernels.h).
        const int32_t stale = edge_reads_on(s) && s >= 2 ? int32_t(edge_slots_ + 4 * (s - 2) + 2 * (w_[s - 1] % 2)) : -1;
        v[kStale] = uint32_t(stale);
        const int32_t edge_out = s >= 1 && s + 1 < kScales && edge_reads_on(s + 1) ? int32_t(edge_slots_ + 4 * (s - 1))
                                                                                     : -1;
        v[kEdgeOut] = uint32_t(edge_out);
        v[kWriteLowLow] = s + 1 < kScales;
        v[kScore] = scored(s);
        v[kAim] = !settings_.skip_aim;
        for (int o = 0; o < kOrientations; o++) v[kWeightH + o] = weights_[s].fixed[o];
        const SumShifts &sh = shifts_[s];
        v[kScoreTop] = uint32_t(sh.score.top);
        v[kScoreBottom] = uint32_t(sh.score.bottom);
        v[kScoreLeft] = uint32_t(sh.score.left);
        v[kScoreRight] = uint32_t(sh.score.right);
        const Rect wr = work_rect(w_[s + 1], h_[s + 1]);
        v[kNearestEnd] = uint32_t(wr.right - wr.width() % kernels::kDecoupleBlock);
        for (int o = 0; o < kOrientations; o++) v[kCubeH + o] = uint32_t(sh.num_cube[o]);
        v[kDenSquare] = uint32_t(sh.den_square);
        v[kDenCube] = uint32_t(sh.den_cube);
        gain_constants(settings_.gain_limit, v);

        SpecConstant spec[kSpecCount];
        for (uint32_t i = 0; i < kSpecCount; i++) spec[i] = {i, v[i]};
        PipelineDesc d;
        d.shader = s == 0 ? &spirv::adm_scale0 : &spirv::adm_scale;
        d.buffers = 3;
        d.push_constant_size = sizeof(ScalePush);
        d.spec = spec;
        return ComputePipeline::create(st, d, &pipelines_[s]);
    }

    Settings settings_;
    Weights weights_{};
    State *st_ = nullptr;
    FrameFormat fmt_{};
    int w_[kScales + 1] = {}, h_[kScales + 1] = {};  // [0] picture, [s + 1] bands of scale s
    SumShifts shifts_[kScales];
    std::array<ScaleJob, kScales> jobs_{};
    RowsPush rows_push_{};
    uint32_t edge_slots_ = 0;  // first edge slot, in 32-bit words of the bands buffer
    VkDeviceSize bands_bytes_ = 0;
    uint32_t partial_words_ = 0;
    uint32_t rows_groups_ = 0;  // adm_rows.comp's workgroups, one result each
    std::vector<uint64_t> groups_;
    std::array<std::unique_ptr<ComputePipeline>, kScales> pipelines_;
    std::array<VkDescriptorSet, kScales> sets_{};
    std::unique_ptr<ComputePipeline> rows_;
    VkDescriptorSet rows_set_ = VK_NULL_HANDLE;
    Buffer bands_, partials_;
};

bool supports(const State &, const FrameFormat &, const FeatureOptions &)
{
    return true;  // every option: they shape specialization constants or the host's finishing
}

std::unique_ptr<Feature> create(const FeatureOptions &o)
{
    return std::make_unique<AdmVk>(o);
}

}  // namespace

extern const FeatureInfo kAdmFeature;
const FeatureInfo kAdmFeature = {"adm", supports, create};

}  // namespace vmaf::vk
