// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer motion on the CPU: blurred SAD between consecutive reference frames,
// then motion2 (min of both neighbours) and motion3 (blended) at flush.
#include "feature/motion/motion.h"

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "feature/motion/motion_score.h"
#include "feature/motion/motion_tables.h"

#include "util/simd.h"

namespace vmaf {

namespace {

constexpr OptionSpec kOptions[] = {
    {"motion_force_zero", "force_0", OptType::Bool, 0, 0, 1, true, "force every motion score to zero"},
    {"motion_blend_factor", "mbf", OptType::Double, 1.0, 0.0, 1.0, true,
     "blend motion3 towards min(score, offset) with this weight"},
    {"motion_blend_offset", "mbo", OptType::Double, 40.0, 0.0, 1000.0, true,
     "motion3 blending starts at this score"},
    {"motion_fps_weight", "mfw", OptType::Double, 1.0, 0.0, 5.0, true,
     "frame-rate correction factor applied to the SAD score"},
    {"motion_max_val", "mmxv", OptType::Double, 10000.0, 0.0, 10000.0, true,
     "clip scores to this value"},
    {"motion_five_frame_window", "mffw", OptType::Bool, 0, 0, 1, true,
     "compare against the frame two back (five-frame window)"},
    {"motion_moving_average", "mma", OptType::Bool, 0, 0, 1, true,
     "average motion3 with the previous frame's"},
    {"debug", nullptr, OptType::Bool, 0, 0, 1, false, "also write integer_motion"},
};

constexpr const char *kProvided[] = {motion::kSadName, motion::kMotionName, motion::kMotion2Name,
                                     motion::kMotion3Name};

// Blurred-difference SAD. Acc is the vertical accumulator type: int32 is exact
// up to 12-bit input, 16-bit input needs int64 (motion::wide_vertical_sum).
template <typename T, typename Acc>
VMAF_INLINE uint64_t blurred_sad(const VmafPicture &prev, const VmafPicture &cur, int32_t *row_buf)
{
    using namespace motion;
    const int w = int(cur.w[0]), h = int(cur.h[0]);
    const unsigned shift = vertical_shift(cur.bpc);
    const Acc round = Acc(1) << (shift - 1);
    auto line = [](const VmafPicture &pic, int y) {
        return reinterpret_cast<const T *>(static_cast<const uint8_t *>(pic.data[0]) + y * pic.stride[0]);
    };

    uint64_t sad = 0;
    for (int i = 0; i < h; i++) {
        const T *p[kFilterWidth], *c[kFilterWidth];
        for (int k = 0; k < kFilterWidth; k++) {
            const int y = mirror(i - kFilterWidth / 2 + k, h);
            p[k] = line(prev, y);
            c[k] = line(cur, y);
        }
        int32_t any = 0;
        for (int j = 0; j < w; j++) {
            Acc acc = 0;
            for (int k = 0; k < kFilterWidth; k++)
                acc += Acc(kFilter[k]) * (Acc(p[k][j]) - Acc(c[k][j]));
            row_buf[j] = int32_t((acc + round) >> shift);
            any |= row_buf[j];
        }
        if (!any) continue;

        // Horizontal pass; the row sum wraps at 32 bits exactly as libvmaf's does.
        uint32_t row_sad = 0;
        auto tap = [&](int j) {
            int64_t acc = 0;
            for (int k = 0; k < kFilterWidth; k++)
                acc += int64_t(kFilter[k]) * row_buf[mirror(j - kFilterWidth / 2 + k, w)];
            return int32_t((acc + (int64_t(1) << (kHorizontalShift - 1))) >> kHorizontalShift);
        };
        const int edge = std::min(kFilterWidth / 2, w);
        for (int j = 0; j < edge; j++) row_sad += uint32_t(std::abs(tap(j)));
        // The interior in 32 bits: the vertical results are below 2^16 in
        // magnitude, so with r = 256 * hi + lo (lo in [0, 256)) both tap sums
        // fit, and (256 * H + L + 2^15) >> 16 == (H + ((L + 2^15) >> 8)) >> 8.
        static_assert(kHorizontalShift == 16);
        for (int j = edge; j < w - kFilterWidth / 2; j++) {
            const int32_t *r = row_buf + j - kFilterWidth / 2;
            int32_t hi = 0, lo = 0;
            for (int k = 0; k < kFilterWidth; k++) {
                hi += kFilter[k] * (r[k] >> 8);
                lo += kFilter[k] * (r[k] & 0xff);
            }
            const int32_t v = (hi + ((lo + (1 << 15)) >> 8)) >> 8;
            row_sad += uint32_t(v < 0 ? -v : v);
        }
        for (int j = std::max(edge, w - kFilterWidth / 2); j < w; j++) row_sad += uint32_t(std::abs(tap(j)));
        sad += row_sad;
    }
    return sad;
}

using SadFn = uint64_t (*)(const VmafPicture &, const VmafPicture &, int32_t *);

template <typename T, typename Acc>
uint64_t sad_generic(const VmafPicture &prev, const VmafPicture &cur, int32_t *row_buf)
{
    return blurred_sad<T, Acc>(prev, cur, row_buf);
}

#if VMAF_X86
template <typename T, typename Acc>
__attribute__((target("avx2"))) uint64_t sad_avx2(const VmafPicture &prev, const VmafPicture &cur, int32_t *row_buf)
{
    return blurred_sad<T, Acc>(prev, cur, row_buf);
}

template <typename T, typename Acc>
__attribute__((target(VMAF_TARGET_AVX512))) uint64_t sad_avx512(const VmafPicture &prev, const VmafPicture &cur,
                                                                int32_t *row_buf)
{
    return blurred_sad<T, Acc>(prev, cur, row_buf);
}
#endif

// The kernel for these samples on this CPU.
template <typename T, typename Acc>
SadFn pick_sad()
{
#if VMAF_X86
    if (cpu_has_avx512()) return sad_avx512<T, Acc>;
    if (cpu_has_avx2()) return sad_avx2<T, Acc>;
#endif
    return sad_generic<T, Acc>;
}

class MotionCpu final : public Extractor {
public:
    explicit MotionCpu(const FeatureOptions &o) : settings_(motion::Settings::from(o)) {}

    int init(const FrameFormat &fmt) override
    {
        if (fmt.w < 3 || fmt.h < 3) return -EINVAL;  // the 5-tap mirror needs 3 samples
        fmt_ = fmt;
        row_.assign(fmt.w, 0);
        sad_ = fmt.bpc == 8                            ? pick_sad<uint8_t, int32_t>()
               : !motion::wide_vertical_sum(fmt.bpc) ? pick_sad<uint16_t, int32_t>()
                                                     : pick_sad<uint16_t, int64_t>();
        return 0;
    }

    void set_history(const RefHistory &h) override { history_ = h; }

    int extract(const VmafPicture &ref, const VmafPicture &, unsigned index, ScoreSink &out) override
    {
        double score = 0.0;
        if (settings_.compares(index)) {
            const VmafPicture *prev = settings_.five_frame ? history_.prev_prev : history_.prev;
            if (!prev) return -EINVAL;  // frames must arrive in order for motion
            const uint64_t sad = sad_(*prev, ref, row_.data());
            score = motion::frame_score(sad, fmt_.w, fmt_.h, settings_);
        }
        history_ = {};
        return motion::write_frame(score, settings_, index, out);
    }

    // motion2 and motion3 need the next frame's SAD, so they are written here.
    int flush(ScoreSink &out) override { return motion::write_sequence(settings_, out); }

private:
    motion::Settings settings_;
    FrameFormat fmt_{};
    SadFn sad_ = nullptr;
    std::vector<int32_t> row_;
    RefHistory history_;
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return std::make_unique<MotionCpu>(o);
}

}  // namespace

namespace {

constexpr FeatureAlias kAliases[] = {
    {motion::kMotionName, "integer_motion"},
    {motion::kMotion2Name, "integer_motion2"},
    {motion::kMotion3Name, "integer_motion3"},
};

}  // namespace

const ExtractorInfo kMotionExtractor = {"motion", kProvided, kOptions, kExtractorPrevRef, create, nullptr,
                                        kAliases};

}  // namespace vmaf
