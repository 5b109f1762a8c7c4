// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer ADM on the GPU: the twin of adm_cpu.cpp.
//
// One dispatch per scale (feature/adm/adm_scale0.comp for the picture and its
// 16-bit bands, adm_scale.comp for scales 1..3 and their 32-bit bands; both
// are feature/adm/adm_scale.glsl): each workgroup takes a tile of the scale's
// bands and does the whole scale on it in shared memory (wavelet, decoupling,
// CSF, masking, the cubed sums), writing the tile's low-low band for the next
// scale into this feature's scratch buffer and, per band row of the tile, its
// nine integer sums into the partials buffer. The CPU shifts each band row's
// sum before adding the rows, so a small dispatch (adm_rows.comp) beside
// scale 3 completes every row of scales 0 to 2 from its tiles, shifts it and
// adds 32 rows at a time; scale 3's few partials go to the results, and
// collect() completes its rows the same way. collect() adds those into the
// CPU's per-scale integers (energy, DLM, AIM x h, v, d) and turns them into
// scores with adm_score.h, the CPU's own finishing code, so both backends
// print the same numbers.
//
// Everything the picture size and the options decide reaches the kernels as
// specialization constants, computed here by the CPU's functions (shifts,
// rectangles, CSF weights, the gain limit as an exact mantissa and exponent).
//
// Scales 2 and 3 and the row sums are thin. Where the Engine takes the offer
// (ADR 0050), they run in the next frame's stages 0 and 1, beside its scales
// 0 and 1. Each dispatch then binds only the regions of the scratch buffers it
// reads and writes (a scale: its input's low-low bands through its own; its
// partials), and scales 0 and 1 keep their partials in two copies,
// alternating by frame, since the next frame's scales write them before the
// carried row sums read them.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>

#include "feature/adm/adm.h"
#include "feature/adm/adm_csf.h"
#include "feature/adm/adm_kernels.h"
#include "feature/adm/adm_score.h"
#include "feature/adm/adm_tables.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "util/align.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
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

// What a frame carries into the next one (ADR 0050): scales 2 and 3 (and the
// row sums beside it), as its carried stages 0 and 1.
constexpr unsigned kCarried = 2;
constexpr int kFirstCarried = kScales - 2;
constexpr int kLast = kScales - 1;  // its partials go to the results
// Scales before kFirstCarried keep their partials in two copies.
constexpr int kCopies = 2;

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

// A byte range of a scratch buffer.
struct Region {
    VkDeviceSize at = 0, bytes = 0;
};

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
            j.groups_x = tiles_of(s);
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
            d.max_sets = kCopies;
            if (int err = ComputePipeline::create(st, d, &rows_)) return err;
        }

        Allocator &a = st.allocator();
        constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        if (int err = a.create_buffer(bands_bytes_, kStorage, MemoryUse::Device, &bands_)) return err;
        if (int err = a.create_buffer(partials_bytes_, kStorage, MemoryUse::Device, &partials_)) return err;
        *result_bytes = (size_t(rows_groups_) + last_words_) * sizeof(uint64_t);
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
        for (int s = 0; s < kScales; s++) {
            const Region &in = bound_from(s), &out = bands_at_[std::min(s, kScales - 2)];
            for (int c = 0; c < copies(s); c++) {
                const BufferRange partials = s == kLast
                                                 ? BufferRange{fb.results, 0, fb.results_size}
                                                 : BufferRange{partials_.get(), parts_at_[s][c].at, parts_at_[s][c].bytes};
                const BufferRange scale_buffers[] = {{fb.planes, 0, fb.planes_size},
                                                     {bands_.get(), in.at, out.at + out.bytes - in.at},
                                                     partials};
                if (int err = pipelines_[s]->make_set(scale_buffers, &sets_[s][c])) return err;
            }
        }
        for (int c = 0; c < kCopies; c++) {
            const Region &r = rows_at_[c];
            const BufferRange rows_buffers[] = {{partials_.get(), r.at, r.bytes}, {fb.results, 0, fb.results_size}};
            if (int err = rows_->make_set(rows_buffers, &rows_sets_[c])) return err;
        }
        return 0;
    }

    // Stages 0-3 run scales 0-3 (scale s reads what scale s - 1 wrote), the
    // row sums beside scale 3; the Engine's barriers between stages order
    // them. Carrying, scales 2 and 3 are the carried stages.
    unsigned stages() const override { return kScales - (carry_ ? kCarried : 0); }
    unsigned carried_stages() const override { return carry_ ? kCarried : 0; }
    unsigned carry_offer() const override { return kCarried; }
    void carry() override { carry_ = true; }

    int record(const Recording &rec) override
    {
        const unsigned s = rec.stage + (rec.carried ? unsigned(kFirstCarried) : 0);
        // The copy of scales 0 and 1's partials: the frame's own flips it at
        // its first stage, which its carried work for the frame before
        // (recorded first) read from until then.
        if (carry_ && rec.stage == 0) {
            if (rec.carried)
                carried_copy_ = copy_;
            else
                copy_ ^= 1;
        }
        const uint32_t out_index = uint32_t(rec.result_offset / sizeof(uint64_t));
        ScalePush scale = jobs_[s].push;
        if (s == unsigned(kLast)) scale.part_base = out_index + rows_groups_;
        const VkDescriptorSet set = sets_[s][int(s) < kFirstCarried ? copy_ : 0];
        pipelines_[s]->dispatch(rec.cmd, set, &scale, jobs_[s].groups_x, jobs_[s].groups_y);
        if (s != unsigned(kLast)) return 0;
        // Scales 0 to 2 are done: their row sums, from the copy of the frame
        // they are for.
        const int copy = carry_ ? carried_copy_ : copy_;
        RowsPush push = rows_push_;
        for (int k = 0; k < kLast; k++)
            push.part_base[k] = uint32_t((parts_at_[k][k < kFirstCarried ? copy : 0].at - rows_at_[copy].at) / 8);
        push.out_index = out_index;
        rows_->dispatch(rec.cmd, rows_sets_[copy], &push, rows_groups_);
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        ScaleScore score[kScales];
        for (int s = 0; s < kScales; s++) {
            // Modulo 2^64 like the CPU's own sums, so any order gives them.
            uint64_t q[kQuantities] = {};
            if (s == kLast)
                last_rows(results, q);
            else
                for (uint32_t k = 0; k < kQuantities; k++)
                    for (uint32_t c = 0; c < rows_push_.chunks[s]; c++)
                        q[k] += result_at<uint64_t>(results, rows_push_.first_group[s] + k * rows_push_.chunks[s] + c);
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

    // Scale 3's per-quantity sums from its partials, as adm_rows.comp makes
    // those of the other scales: each band row completed from its tiles,
    // rounded and shifted, then added. They follow adm_rows.comp's results.
    void last_rows(std::span<const std::byte> results, uint64_t q[kQuantities]) const
    {
        for (uint32_t k = 0; k < kQuantities; k++) {
            const bool energy = k < 3;
            const uint32_t shift = energy ? last_.den_shift : last_.num_shift;
            const uint64_t round = shift == 0 ? 0 : uint64_t(1) << (shift - 1);
            for (uint32_t row = 0; row < last_.rows; row++) {
                const size_t tile = rows_groups_ + (size_t(k) * last_.rows + row) * last_.tiles;
                uint64_t sum = 0;
                for (uint32_t t = 0; t < last_.tiles; t++) sum += result_at<uint64_t>(results, tile + t);
                q[k] += energy ? (sum + round) >> shift : uint64_t((int64_t(sum) + int64_t(round)) >> shift);
            }
        }
    }

    // The right edge of scale s reads past the row (adm_kernels.h).
    bool edge_reads_on(int s) const
    {
        using namespace adm::kernels;
        const EdgeBlocks &eb = settings_.edge;
        const int block = s > 0 ? eb.scales123 : (fmt_.bpc == 8 ? eb.scale0_8bit : eb.scale0_deep);
        return right_edge_reads_on(w_[s + 1], block);
    }

    // The scratch buffers. Bands: per scale 0..2, its low-low bands for the
    // next scale, both pictures (16 bits after scale 0, 32 after), then (after
    // scales 1 and 2) an edge slot of four values; scale s binds its input's
    // region through its own, and its offsets count from there. Partials:
    // per scale (scales 0 and 1 twice), the partials of every scored one.
    // adm_rows.comp's workgroups write the results.
    void layout_scratch()
    {
        VkDeviceSize at = 0;  // bytes
        for (int s = 0; s + 1 < kScales; s++) {
            const VkDeviceSize bytes = s == 0 ? 2 : 4;
            const VkDeviceSize n = VkDeviceSize(w_[s + 1]) * VkDeviceSize(h_[s + 1]);
            bands_at_[s].at = at;
            edge_at_[s] = align_up(2 * n * bytes, 4);
            bands_at_[s].bytes = edge_at_[s] + (s > 0 ? 4 * sizeof(int32_t) : 0);
            at = align_up(at + bands_at_[s].bytes, kBindAlign);
        }
        bands_bytes_ = at;
        for (int s = 0; s < kScales; s++) {
            // Offsets from the start of the bound region, in the elements
            // they index (16 bits in and out of scale 0, 32 after).
            const VkDeviceSize base = bound_from(s).at;
            if (s > 0) {
                const VkDeviceSize n = VkDeviceSize(w_[s]) * VkDeviceSize(h_[s]);
                jobs_[s].push.in_ref = 0;
                jobs_[s].push.in_dis = uint32_t(n);
                jobs_[s].push.in_stride = uint32_t(w_[s]);
            }
            if (s + 1 < kScales) {
                const VkDeviceSize bytes = s == 0 ? 2 : 4;
                jobs_[s].push.out_ref = uint32_t((bands_at_[s].at - base) / bytes);
                jobs_[s].push.out_dis = jobs_[s].push.out_ref + uint32_t(VkDeviceSize(w_[s + 1]) * h_[s + 1]);
            }
        }

        // Partials: scales 0 to 2, those of 0 and 1 in two copies, laid out
        // so that each copy's row sums bind one range (0 1 2 | 2 0' 1').
        // Scale 3's go to the results, after adm_rows.comp's.
        VkDeviceSize part_at = 0;
        uint32_t groups = 0;
        const std::pair<int, int> order[] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}};
        for (const auto &[s, c] : order) {
            const uint32_t tiles = tiles_of(s), rows = rows_of(s);
            const VkDeviceSize bytes = std::max<VkDeviceSize>(VkDeviceSize(kQuantities) * rows * tiles, 1) * 8;
            parts_at_[s][c] = {part_at, bytes};
            part_at = align_up(part_at + bytes, kBindAlign);
        }
        for (int c = 0; c < kCopies; c++) {
            const Region &first = c == 0 ? parts_at_[0][0] : parts_at_[2][0], &last = c == 0 ? parts_at_[2][0] : parts_at_[1][1];
            rows_at_[c] = {first.at, last.at + last.bytes - first.at};
        }
        partials_bytes_ = part_at;
        for (int s = 0; s < kScales; s++) {
            const uint32_t tiles = tiles_of(s), rows = rows_of(s);
            jobs_[s].push.part_base = 0;
            if (s == kLast) {
                last_ = {rows, tiles, uint32_t(shifts_[s].den_row), uint32_t(shifts_[s].num_row)};
                last_words_ = kQuantities * rows * tiles;
                rows_push_.first_group[s] = groups;  // no workgroups of its own
                continue;
            }
            rows_push_.rows[s] = rows;
            rows_push_.tiles[s] = tiles;
            rows_push_.den_shift[s] = uint32_t(shifts_[s].den_row);
            rows_push_.num_shift[s] = uint32_t(shifts_[s].num_row);
            rows_push_.chunks[s] = (rows + kRowsPerGroup - 1) / kRowsPerGroup;
            rows_push_.first_group[s] = groups;
            groups += kQuantities * rows_push_.chunks[s];
        }
        rows_groups_ = groups;
    }

    static int copies(int s) { return s < kFirstCarried ? kCopies : 1; }
    // The bands region scale s binds starts at its input's (scale 0's input
    // is the planes: at its own output).
    const Region &bound_from(int s) const { return bands_at_[std::max(s - 1, 0)]; }
    // Scale s's partials: tiles per band row, and its scored band rows.
    uint32_t tiles_of(int s) const { return (uint32_t(w_[s + 1]) + kTileW - 1) / kTileW; }
    uint32_t rows_of(int s) const { return scored(s) ? uint32_t(shifts_[s].score.height()) : 0; }

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
        // Both in 32-bit words from the start of the bands scale s binds:
        // its input's region, where scale s - 1 left its slot.
        const int32_t stale = edge_reads_on(s) && s >= 2 ? int32_t(edge_at_[s - 1] / 4 + 2 * (w_[s - 1] % 2)) : -1;
        v[kStale] = uint32_t(stale);
        const VkDeviceSize base = bound_from(s).at;
        const int32_t edge_out = s >= 1 && s + 1 < kScales && edge_reads_on(s + 1)
                                     ? int32_t((bands_at_[s].at + edge_at_[s] - base) / 4)
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
        d.max_sets = copies(s);
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
    // Byte regions of the scratch buffers (layout_scratch()).
    Region bands_at_[kScales - 1];              // the low-low bands of scales 0..2, and their edge slot
    VkDeviceSize edge_at_[kScales - 1] = {};    // the edge slot, from its region's start
    Region parts_at_[kScales - 1][kCopies];     // partials of scales 0..2, per copy
    Region rows_at_[kCopies];                   // what adm_rows.comp binds, per copy
    // Scale 3's partials in the results: band rows, tiles per row, shifts.
    struct {
        uint32_t rows = 0, tiles = 0, den_shift = 0, num_shift = 0;
    } last_;
    uint32_t last_words_ = 0;
    VkDeviceSize bands_bytes_ = 0, partials_bytes_ = 0;
    bool carry_ = false;
    int copy_ = 0;          // of scales 0 and 1's partials, the last frame's own stages wrote
    int carried_copy_ = 0;  // the one the carried row sums read
    uint32_t rows_groups_ = 0;  // adm_rows.comp's workgroups, one result each
    std::array<std::unique_ptr<ComputePipeline>, kScales> pipelines_;
    VkDescriptorSet sets_[kScales][kCopies] = {};
    std::unique_ptr<ComputePipeline> rows_;
    VkDescriptorSet rows_sets_[kCopies] = {};
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

const FeatureInfo kAdmFeature = {"adm", supports, create};

}  // namespace vmaf::vk
