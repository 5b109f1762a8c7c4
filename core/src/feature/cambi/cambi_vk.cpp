// SPDX-License-Identifier: BSD-2-Clause-Patent
// CAMBI on the GPU: the twin of cambi_cpu.cpp, for the distorted picture and,
// in full-reference mode, the reference (each stage then runs both).
//
// Ten stages a frame (feature/cambi/cambi_*.comp, all on one buffer layout):
//   0  load: the luma plane at the scored size, 10 bits, anti-dithered below
//      a 10-bit encode (one thread per sample);
//   1  mask: the spatial mask from 16x16 tiles of flatness flags;
//   2-6 mode, one stage per scale: the scale's picture (the previous scale's
//      filtered one, every other sample), its 3x3 mode filter, the
//      histogram key of every sample (masked and in band, or none) and the
//      range of the keys of each 16x16 tile;
//   7  c-values of the five scales: a workgroup per block of 64 columns and
//      32 rows slides its columns' window histograms (shared memory) down
//      the rows, a run of equal (leaving, entering) keys at a time, with
//      counts for the values present in its block (64 at most; a second
//      pass with the whole band, 32 columns a workgroup, runs the blocks
//      that have more);
//   8  top, every scale in one dispatch: the histogram of the c-values'
//      upper 16 bits; the last workgroup of a scale to finish then selects
//      the bin of its k-th largest c-value;
//   9  sum, every scale in one dispatch: the exact sum of the values above
//      that bin, and the histogram of the lower 16 bits of those in it; the
//      last workgroup of a scale to finish adds the scale's k largest, in
//      units of 2^-24 (feature/cambi/cambi_last.glsl).
// The readback is 16 bytes per scale and picture. collect() finishes each
// scale's pooled mean and the scores with the CPU's formulas.
//
// Exactness: the samples, masks and histograms are integers; each c-value is
// the CPU's float product operation for operation (precise), so the c-values
// are bit-identical. The pooling is cambi_pool.h's: the k largest found by
// their float bits, summed as integers in units of 2^-24 (exact in any order),
// which is libvmaf's quickselect sum to the bit whenever cambi_pool.h's rule
// says that sum is exact (always on real content; where it is not, the CPU
// rounds partial sums in libvmaf's order and the two may differ in the last
// bit of a double).
//
// The GPU runs every option but heatmaps_path (which writes every c-value to
// files; the CPU extractor runs it), at every bit depth and chroma layout
// (luma only).
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "feature/cambi/cambi.h"
#include "feature/cambi/cambi_gpu_layout.h"
#include "feature/cambi/cambi_pool.h"
#include "feature/cambi/cambi_settings.h"
#include "feature/cambi/cambi_tables.h"
#include "feature/twin.h"
#include "picture/picture.h"
#include "spirv.h"
#include "util/log.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"

namespace vmaf::vk {

namespace {

using cambi::kScales;

using namespace cambi::gpu;
constexpr int kSlotCount = int(kSlots);
constexpr uint32_t kRowsPerGroup = 32;   // c-values: rows per workgroup
constexpr uint32_t kNarrowBand = 64;     // c-values: histogram entries of the narrow pass
constexpr uint32_t kNarrowColumns = 64;  // c-values: columns per workgroup of the narrow pass
constexpr unsigned kBuffers = 8;

// Per scale, as cambi_sum.comp writes it.
struct ScaleResult {
    uint32_t sum_lo, sum_hi;  // the sum of the k largest, units of 2^-24
    uint32_t min_exp;         // biased exponent of the smallest nonzero one pooled; 0: none
    uint32_t error;           // kErrorCValue | kErrorSample
};
static_assert(sizeof(ScaleResult) == 16);

struct LoadPush {
    uint32_t in_offset, in_stride, width, height, up, down, round, anti_dither, scaled, out_offset, map_offset;
    uint32_t in_width, in_height, max_sample;
    uint32_t error_word;
};
struct MaskPush {
    uint32_t offset, width, height, threshold, mask_offset;
};
struct ModePush {
    uint32_t in_offset, in_stride, step, width, height, out_offset, key_offset, mask_offset, mask_stride, mask_shift,
        band_base, band_size, tile_offset;
};
struct CValuesPush {
    uint32_t key_offset, width, height, pad, rows, cvalue_offset, slot, band_base, band_size, num_diffs;
    int32_t vlt_luma;
    uint32_t flag_offset, tile_offset, flag_stride, flag_cols;
};
struct TopPush {
    uint32_t slots, error_word;
};
struct SumPush {
    uint32_t slots, result_index, error_word;
};

using cambi::Settings;

// The c-value kernel's shared memory at `cols` columns per workgroup
// (cambi_cvalues.comp: hist, step_keys, step_bits).
uint32_t cvalue_shared_bytes(uint32_t cols, int band_size, uint32_t max_pad)
{
    const uint32_t band = uint32_t(std::max(band_size, 1) + 1) & ~1u;
    const uint32_t span = cols + 2 * max_pad;
    return band * cols * 2 + 2 * span * 4 + 3 * ((span + 32) / 32) * 4;
}

// Columns per c-value workgroup whose histograms fit the device's shared memory (0: none).
uint32_t cvalue_columns(const State &st, int band_size, uint32_t max_pad)
{
    for (uint32_t cols : {32u, 16u, 8u})
        if (cvalue_shared_bytes(cols, band_size, max_pad) <= st.limits().maxComputeSharedMemorySize) return cols;
    return 0;
}

struct ScaleDims {
    uint32_t w = 0, h = 0;
    uint32_t mode_offset = 0, key_offset = 0;  // in work (samples)
    uint32_t flag_offset = 0;                  // in work: per c-value workgroup, 1 where the wide pass runs it
    uint32_t tile_offset = 0;                  // in work: per 16x16 tile its smallest and largest key
    uint32_t cvalue_offset = 0;
    uint32_t partial_offset = 0, partial_count = 0;
    uint32_t k = 0;
};

// One picture scored: the distorted one at the encode size, and in
// full-reference mode the reference at the source size.
struct Pic {
    bool reference = false;
    uint32_t w0 = 0, h0 = 0;  // scored size
    uint32_t window = 0;
    uint32_t image_offset = 0, mask_offset = 0, map_offset = 0;
    std::array<ScaleDims, kScales> dims{};
    LoadPush load{};
};

class CambiVk final : public Feature {
public:
    explicit CambiVk(const FeatureOptions &o) : opts_(o) {}

    int init(State &st, const FrameFormat &fmt, size_t *result_bytes) override
    {
        s_ = Settings::from(opts_, fmt);
        if (s_.check != Settings::Check::Ok) return -ENOTSUP;
        max_pad_ = std::max(s_.window, s_.full_ref ? s_.src_window : 0u) >> 1;
        cols_ = cvalue_columns(st, s_.band_size, max_pad_);
        if (!cols_) return -ENOTSUP;
        if (st.limits().maxComputeWorkGroupSize[0] < ncols_) ncols_ = cols_;
        st_ = &st;
        fmt_ = fmt;

        n_pics_ = s_.full_ref ? 2 : 1;
        uint32_t at = 0, masks = 0, maps = kConstMaps, cv = 0, part = 0;
        for (unsigned i = 0; i < n_pics_; i++) {
            Pic &pic = pics_[i];
            pic.reference = i == 1;
            pic.w0 = pic.reference ? s_.src_w : s_.enc_w;
            pic.h0 = pic.reference ? s_.src_h : s_.enc_h;
            pic.window = pic.reference ? s_.src_window : s_.window;
            pic.image_offset = at;
            at += pic.w0 * pic.h0;
            pic.mask_offset = masks;
            masks += pic.w0 * pic.h0;
            pic.map_offset = maps;
            maps += pic.w0 + pic.h0;
            uint32_t w = pic.w0, h = pic.h0;
            for (int s = 0; s < kScales; s++) {
                if (s > 0 || s_.speedup) {
                    w = (w + 1) >> 1;
                    h = (h + 1) >> 1;
                }
                ScaleDims &d = pic.dims[s];
                d.w = w;
                d.h = h;
                d.mode_offset = at;
                d.key_offset = at + w * h;
                at += 2 * w * h;
                d.flag_offset = at;
                at += (w + ncols_ - 1) / ncols_ * ((h + rows_ - 1) / rows_);
                d.tile_offset = at;
                at += 2 * ((w + 15) / 16) * ((h + 15) / 16);
                d.cvalue_offset = cv;
                cv += w * h;
                d.partial_offset = part;
                d.partial_count = (w * h + kValuesPerGroup - 1) / kValuesPerGroup;
                part += d.partial_count;
                d.k = uint32_t(cambi::topk_count(s_.topk, w * h));
                if ((w + cols_ - 1) / cols_ > st.limits().maxComputeWorkGroupCount[0]) return -ENOTSUP;
            }
        }
        // The top and sum passes: one workgroup per partial, every slot in one dispatch.
        partial_groups_ = part;
        if (part > st.limits().maxComputeWorkGroupCount[0]) return -ENOTSUP;
        *result_bytes = n_pics_ * kScales * sizeof(ScaleResult);

        const uint32_t bytes = bytes_per_sample(fmt.bpc);
        const SpecConstant load_spec[] = {{0, bytes}};
        const uint32_t band = (uint32_t(std::max(s_.band_size, 1)) + 1) & ~1u;
        narrow_band_ = std::min(narrow_band_, band);
        const SpecConstant cv_spec[] = {{0, cols_}, {1, band}, {2, max_pad_}, {3, 0}};
        const SpecConstant narrow_spec[] = {{0, ncols_}, {1, narrow_band_}, {2, max_pad_}, {3, 1}};
        struct P {
            const spirv::Shader *shader;
            uint32_t push;
            std::span<const SpecConstant> spec;
            std::unique_ptr<ComputePipeline> *out;
        };
        const P pipes[] = {
            {&spirv::cambi_load, sizeof(LoadPush), load_spec, &load_},
            {&spirv::cambi_mask, sizeof(MaskPush), {}, &mask_},
            {&spirv::cambi_mode, sizeof(ModePush), {}, &mode_},
            {&spirv::cambi_cvalues, sizeof(CValuesPush), cv_spec, &cvalues_},
            {&spirv::cambi_cvalues, sizeof(CValuesPush), narrow_spec, &narrow_},
            {&spirv::cambi_top, sizeof(TopPush), {}, &top_},
            {&spirv::cambi_sum, sizeof(SumPush), {}, &sum_},
        };
        for (const P &pp : pipes) {
            PipelineDesc d;
            d.shader = pp.shader;
            d.buffers = kBuffers;
            d.push_constant_size = pp.push;
            d.spec = pp.spec;
            if (int err = ComputePipeline::create(st, d, pp.out)) return err;
        }

        Allocator &a = st.allocator();
        constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        if (int err = a.create_buffer(VkDeviceSize((at + 1) / 2 * 2) * 2, kStorage, MemoryUse::Device, &work_))
            return err;
        if (int err = a.create_buffer(VkDeviceSize((masks + 3) / 4 * 4), kStorage, MemoryUse::Device, &mask_buf_))
            return err;
        if (int err = a.create_buffer(VkDeviceSize(cv) * 4, kStorage, MemoryUse::Device, &cv_buf_)) return err;
        if (int err = a.create_buffer(VkDeviceSize(kCountsWords) * 4, kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                      MemoryUse::Device, &counts_))
            return err;
        if (int err = a.create_buffer(VkDeviceSize(std::max(part, 1u)) * 8, kStorage, MemoryUse::Device, &partials_))
            return err;
        return upload_consts(st, fmt, maps);
    }

    int bind(const FrameBuffers &fb) override
    {
        if (fb.dist[0].w != fmt_.w || fb.dist[0].h != fmt_.h) return -EINVAL;
        const uint32_t bytes = fb.bytes_per_sample;
        const uint32_t up = fmt_.bpc < 10 ? 10 - fmt_.bpc : 0, down = fmt_.bpc > 10 ? fmt_.bpc - 10 : 0;
        for (unsigned i = 0; i < n_pics_; i++) {
            Pic &pic = pics_[i];
            const PlaneRegion &plane = pic.reference ? fb.ref[0] : fb.dist[0];
            pic.load = {uint32_t(plane.offset / bytes), plane.stride / bytes, pic.w0, pic.h0, up, down,
                        down ? 1u << (down - 1) : 0u, s_.enc_bits < 10 ? 1u : 0u,
                        (pic.w0 != fmt_.w || pic.h0 != fmt_.h) ? 1u : 0u, pic.image_offset, pic.map_offset,
                        fmt_.w, fmt_.h, fmt_.bpc == 8 || fmt_.bpc == 16 ? 0u : (1u << fmt_.bpc) - 1, 0};
        }
        const BufferRange buffers[kBuffers] = {{fb.planes, 0, fb.planes_size},
                                               {work_.get(), 0, work_.size()},
                                               {mask_buf_.get(), 0, mask_buf_.size()},
                                               {consts_->get(), 0, consts_->size()},
                                               {cv_buf_.get(), 0, cv_buf_.size()},
                                               {counts_.get(), 0, counts_.size()},
                                               {partials_.get(), 0, partials_.size()},
                                               {fb.results, 0, fb.results_size}};
        ComputePipeline *pipes[] = {load_.get(), mask_.get(), mode_.get(), cvalues_.get(),
                                    sum_.get(),  top_.get(),  narrow_.get()};
        for (size_t i = 0; i < std::size(pipes); i++)
            if (int err = pipes[i]->make_set(buffers, &sets_[i])) return err;
        return 0;
    }

    unsigned stages() const override { return 10; }

    int record(const Recording &rec) override
    {
        const VkCommandBuffer cmd = rec.cmd;
        auto groups16 = [](uint32_t n) { return (n + 15) / 16; };
        const uint32_t slots = n_pics_ * kScales;
        if (rec.stage == 0) {
            // Each frame's passes leave the counters zero for the next
            // (cambi_top.comp, cambi_sum.comp), and frames alternate between
            // two error words; only the first frame zeroes them here.
            error_word_ ^= 1;
            if (!counters_zeroed_) {
                st_->fn().vkCmdFillBuffer(cmd, counts_.get(), 0, counts_.size(), 0);
                memory_barrier(*st_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
                counters_zeroed_ = true;
            }
        }
        if (rec.stage == 7) {
            // The narrow pass; the wide one (where the band can be wider) for
            // the workgroups it flagged.
            for (int pass = 0; pass < 2; pass++) {
                if (pass == 1 && uint32_t(s_.band_size) <= narrow_band_) break;
                if (pass == 1) compute_barrier(*st_, cmd);
                for (unsigned i = 0; i < n_pics_; i++)
                    for (int s = 0; s < kScales; s++) record_cvalues(cmd, pass, i, s);
            }
            return 0;
        }
        if (rec.stage == 8) {
            const TopPush p{slots, error_word_};
            top_->dispatch(cmd, sets_[5], &p, partial_groups_);
            return 0;
        }
        if (rec.stage == 9) {
            const SumPush p{slots, uint32_t(rec.result_offset / sizeof(uint32_t)), error_word_};
            sum_->dispatch(cmd, sets_[4], &p, partial_groups_);
            return 0;
        }
        for (unsigned i = 0; i < n_pics_; i++) {
            const Pic &pic = pics_[i];
            switch (rec.stage) {
            case 0: {
                LoadPush p = pic.load;
                p.error_word = error_word_;
                load_->dispatch(cmd, sets_[0], &p, groups16(std::max(pic.w0, fmt_.w)), groups16(std::max(pic.h0, fmt_.h)));
                break;
            }
            case 1: {
                const MaskPush p{pic.image_offset, pic.w0, pic.h0, cambi::mask_threshold(pic.w0, pic.h0),
                                 pic.mask_offset};
                mask_->dispatch(cmd, sets_[1], &p, groups16(pic.w0), groups16(pic.h0));
                break;
            }
            case 2:
            case 3:
            case 4:
            case 5:
            case 6: {
                const int s = int(rec.stage) - 2;
                const ScaleDims &d = pic.dims[s];
                ModePush p{};
                if (s == 0) {
                    p.in_offset = pic.image_offset;
                    p.in_stride = pic.w0;
                    p.step = s_.speedup ? 2 : 1;
                } else {
                    p.in_offset = pic.dims[s - 1].mode_offset;
                    p.in_stride = pic.dims[s - 1].w;
                    p.step = 2;
                }
                p.width = d.w;
                p.height = d.h;
                p.out_offset = d.mode_offset;
                p.key_offset = d.key_offset;
                p.mask_offset = pic.mask_offset;
                p.mask_stride = pic.w0;
                p.mask_shift = uint32_t(s) + (s_.speedup ? 1 : 0);
                p.band_base = uint32_t(s_.band_base);
                p.band_size = uint32_t(s_.band_size);
                p.tile_offset = d.tile_offset;
                mode_->dispatch(cmd, sets_[2], &p, groups16(d.w), groups16(d.h));
                break;
            }
            default:
                return -EINVAL;
            }
        }
        return 0;
    }

    int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) override
    {
        ScaleResult r[kSlotCount];
        const size_t bytes = n_pics_ * kScales * sizeof(ScaleResult);
        if (results.size() < bytes) return -EINVAL;
        std::memcpy(r, results.data(), bytes);
        double score[2] = {};
        for (unsigned i = 0; i < n_pics_; i++)
            if (int err = picture_score(pics_[i], r + i * kScales, index, &score[i])) return err;
        if (int err = sink.append("Cambi_feature_cambi_score", index, std::min(score[0], s_.max_val))) return err;
        if (!s_.full_ref) return 0;
        if (int err = sink.append("cambi_source", index, std::min(score[1], s_.max_val))) return err;
        return sink.append("cambi_full_reference", index, std::min(std::max(0.0, score[0] - score[1]), s_.max_val));
    }

private:
    // Stage 7: one scale's c-values, by the narrow pass (0) or the wide one.
    void record_cvalues(VkCommandBuffer cmd, int pass, unsigned i, int s)
    {
        const Pic &pic = pics_[i];
        const ScaleDims &d = pic.dims[s];
        const CValuesPush p{d.key_offset,
                            d.w,
                            d.h,
                            pic.window >> 1,
                            rows_,
                            d.cvalue_offset,
                            uint32_t(i * kScales + s),
                            uint32_t(s_.band_base),
                            uint32_t(s_.band_size),
                            uint32_t(s_.num_diffs),
                            s_.vlt_luma,
                            d.flag_offset,
                            d.tile_offset,
                            (d.w + ncols_ - 1) / ncols_,
                            ncols_};
        ComputePipeline &pipe = pass == 0 ? *narrow_ : *cvalues_;
        const uint32_t cols = pass == 0 ? ncols_ : cols_;
        pipe.dispatch(cmd, sets_[pass == 0 ? 6 : 3], &p, (d.w + cols - 1) / cols, (d.h + rows_ - 1) / rows_);
    }

    // The CPU's finishing (cambi_cpu.cpp: score_picture) of one picture's
    // pooled sums.
    int picture_score(const Pic &pic, const ScaleResult *r, unsigned index, double *score)
    {
        double per_scale[kScales];
        for (int s = 0; s < kScales; s++) {
            if (r[s].error & kErrorSample) {
                log(VMAF_LOG_LEVEL_ERROR, "cambi: a sample exceeds the %u-bit maximum %u (frame %u)\n", fmt_.bpc,
                    (1u << fmt_.bpc) - 1, index);
                return -EINVAL;
            }
            if (r[s].error) {
                log(VMAF_LOG_LEVEL_ERROR, "cambi: a c-value out of range on the GPU (frame %u)\n", index);
                return -EIO;
            }
            const int64_t total = int64_t(uint64_t(r[s].sum_lo) | uint64_t(r[s].sum_hi) << 32);
            // cambi_pool.h's rule: where libvmaf's order of summation could round,
            // the exact sum may differ from it in the last bit.
            if (r[s].min_exp) {
                const int e = int(r[s].min_exp) - 127;
                if (54 + e < 62 && total >= int64_t(1) << (54 + e) && !warned_) {
                    warned_ = true;
                    log(VMAF_LOG_LEVEL_DEBUG, "cambi: frame %u scale %d pooled exactly where libvmaf's order "
                        "of summation rounds\n", index, s);
                }
            }
            per_scale[s] = double(total) * 0x1p-24 / pic.dims[s].k;
        }
        const unsigned side = 2 * (pic.window >> 1) + 1;
        double sum = 0.0;
        for (int s = 0; s < kScales; s++) sum += per_scale[s] * cambi::kScaleWeights[s];
        *score = sum / double(uint16_t(side * side));
        return 0;
    }

    // Reciprocals, TVI limits, weights and each picture's resampling maps
    // (cambi_cpu.cpp: load's float stepping), from the CPU's own tables and code.
    int upload_consts(State &st, const FrameFormat &fmt, uint32_t words_needed)
    {
        std::vector<uint32_t> words(words_needed, 0);
        const auto &recip = cambi::reciprocal_table();
        std::memcpy(words.data() + kConstReciprocal, recip.data(), recip.size() * sizeof(float));
        for (int d = 0; d < s_.num_diffs; d++) {
            words[kConstTvi + d] = s_.tvi[size_t(d)];
            words[kConstWeights + d] = uint32_t(s_.weights[size_t(d)]);
        }
        for (unsigned i = 0; i < n_pics_; i++)
            for (int s = 0; s < kScales; s++) {
                const ScaleDims &d = pics_[i].dims[s];
                uint32_t *slot = words.data() + kConstSlots + (i * kScales + uint32_t(s)) * kSlotWords;
                slot[kSlotAt] = d.cvalue_offset;
                slot[kSlotValues] = d.w * d.h;
                slot[kSlotK] = d.k;
                slot[kSlotFirst] = d.partial_offset;
                slot[kSlotGroups] = d.partial_count;
            }
        for (unsigned i = 0; i < n_pics_; i++) {
            const Pic &pic = pics_[i];
            if (pic.w0 == fmt.w && pic.h0 == fmt.h) continue;
            const float ratio_x = float(fmt.w) / float(pic.w0), ratio_y = float(fmt.h) / float(pic.h0);
            float fx = float(ratio_x / 2 - 0.5), fy = float(ratio_y / 2 - 0.5);
            for (uint32_t x = 0; x < pic.w0; x++, fx += ratio_x)
                words[pic.map_offset + x] = unsigned(int(double(fx) + 0.5));
            for (uint32_t y = 0; y < pic.h0; y++, fy += ratio_y)
                words[pic.map_offset + pic.w0 + y] = unsigned(int(double(fy) + 0.5));
        }
        return upload_table(st, std::as_bytes(std::span(words)), &consts_);
    }

    FeatureOptions opts_;
    Settings s_;
    State *st_ = nullptr;
    FrameFormat fmt_{};
    uint32_t cols_ = 32, ncols_ = kNarrowColumns, max_pad_ = 0, rows_ = kRowsPerGroup, narrow_band_ = kNarrowBand;
    uint32_t partial_groups_ = 0;  // every slot's workgroups of the top and sum passes
    bool counters_zeroed_ = false;  // by the first frame's fill
    uint32_t error_word_ = 1;       // the frame being recorded's (cambi_gpu_layout.h: kErrorAt); the first's is 0
    unsigned n_pics_ = 1;
    std::array<Pic, 2> pics_{};
    std::unique_ptr<ComputePipeline> load_, mask_, mode_, cvalues_, sum_, top_, narrow_;
    std::array<VkDescriptorSet, 7> sets_{};
    Buffer work_, mask_buf_, cv_buf_, counts_, partials_;
    std::shared_ptr<const Buffer> consts_;  // shared by the device's contexts with the same tables (upload_table)
    bool warned_ = false;
};

bool supports(const State &st, const FrameFormat &fmt, const FeatureOptions &o)
{
    if (!o.text("heatmaps_path").empty()) return false;
    const Settings s = Settings::from(o, fmt);
    // Too small (no score, with the CPU's warning) or invalid: the CPU says so.
    if (s.check != Settings::Check::Ok) return false;
    return cvalue_columns(st, s.band_size, std::max(s.window, s.full_ref ? s.src_window : 0u) >> 1) != 0;
}

std::unique_ptr<Feature> create(const FeatureOptions &o)
{
    return std::make_unique<CambiVk>(o);
}

}  // namespace

const FeatureInfo kCambiFeature = {"cambi", supports, create};

}  // namespace vmaf::vk
