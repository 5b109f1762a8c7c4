// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer ADM on the CPU (libvmaf's "adm" extractor, integer_adm.c).
//
// Per scale: one db2 wavelet level of both luma planes; decoupling of the
// distorted detail bands into a part restored from the reference (r) and an
// additive impairment (a); a CSF-weighted masking threshold from a 3x3
// neighbourhood of the masker; and the cube-root of summed cubes of the
// masked signal. DLM (adm2) masks r with a and divides by the reference's
// own energy; AIM masks a with r.
//
// The fixed-point formats, rounding constants and float conversions follow
// libvmaf exactly (adm_tables.h, adm_kernels.h), so the scores are bit for
// bit those of libvmaf's C code.
#include "feature/adm/adm.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "feature/adm/adm_csf.h"
#include "feature/adm/adm_kernels.h"
#include "feature/adm/adm_score.h"
#include "feature/adm/adm_tables.h"

namespace vmaf {

namespace {

using namespace adm;

constexpr OptionSpec kOptions[] = {
    {"debug", nullptr, OptType::Bool, 0, 0, 1, false,
     "also write integer_adm and the numerator and denominator of every scale"},
    {"adm_csf_scale", "scf", OptType::Double, 1.0, 0.0, 50.0, true,
     "Barten CSF gain of the horizontal and vertical bands"},
    {"adm_csf_diag_scale", "scfd", OptType::Double, 1.0, 0.0, 50.0, true, "Barten CSF gain of the diagonal band"},
    {"adm_dlm_weight", "dlmw", OptType::Double, 0.5, 0.0, 1.0, true,
     "weight of DLM against AIM in adm3 (1 is DLM only)"},
    {"adm_enhn_gain_limit", "egl", OptType::Double, kDefaultEnhnGainLimit, 1.0, kDefaultEnhnGainLimit, true,
     "cap on the enhancement gain; 1.0 disables enhancement"},
    {"adm_norm_view_dist", "nvd", OptType::Double, kDefaultNormViewDist, 0.75, 24.0, true,
     "viewing distance divided by the display height"},
    {"adm_ref_display_height", "rdh", OptType::Int, double(kDefaultRefDisplayHeight), 1, 4320, true,
     "display height in pixels"},
    {"adm_csf_mode", "csf", OptType::Int, 0, 0, 3, true,
     "CSF: 0 Watson, 1 Barten, 2 Barten/Watson blend, 3 blend (L1 fit)"},
    {"adm_noise_weight", "nw", OptType::Double, kDefaultNoiseWeight, 0.0, 1500.0, true,
     "noise floor added to every numerator and denominator term"},
    {"adm_skip_aim", nullptr, OptType::Bool, 0, 0, 1, false, "skip AIM (integer_aim is then 0)"},
    {"adm_skip_scale0", "ssz", OptType::Bool, 0, 0, 1, true, "skip scale 0: its score is written as 0"},
    {"adm_min_val", "min", OptType::Double, 0.0, 0.0, 1.0, true, "lower bound of adm3"},
    {"edge_as", nullptr, OptType::String, 0, 0, 0, false,
     "right-edge behaviour of the libvmaf build to reproduce at odd sizes: avx512 (default) or avx2; "
     "the default can also be set with the environment variable VMAF_ADM_EDGE_AS",
     "avx512", "avx512|avx2"},
};

constexpr const char *kProvided[] = {
    kAdm2Name, kAimName, kAdm3Name, kScaleNames[0], kScaleNames[1], kScaleNames[2], kScaleNames[3],
    "integer_adm", "integer_adm_num", "integer_adm_den",
    kNumNames[0], kDenNames[0], kNumNames[1], kDenNames[1],
    kNumNames[2], kDenNames[2], kNumNames[3], kDenNames[3],
};

// 2^30 / x for x in [-32768, 32768], indexed by x + 32768 (x = 0 unused).
const int32_t *reciprocal_table()
{
    static const std::vector<int32_t> table = [] {
        std::vector<int32_t> t(2 * kReciprocalRange + 1, 0);
        for (int32_t i = 1; i <= kReciprocalRange; i++) {
            const int32_t r = int32_t((int64_t(1) << kReciprocalShift) / i);
            t[kReciprocalRange + i] = r;
            t[kReciprocalRange - i] = -r;
        }
        return t;
    }();
    return table.data();
}

// Storage of one plane and a view of it.
template <typename T>
struct PlaneBuf {
    std::vector<T> mem;
    Plane<T> view;
    void alloc(int w, int h)
    {
        const ptrdiff_t stride = (ptrdiff_t(w) + 15) & ~ptrdiff_t(15);
        mem.assign(size_t(stride) * size_t(h), T(0));
        view = {mem.data(), stride};
    }
};

template <typename T>
struct BandsBuf {
    PlaneBuf<T> planes[4];
    Bands<T> view;
    void alloc(int w, int h)
    {
        for (auto &p : planes) p.alloc(w, h);
        view = {planes[0].view, {planes[1].view, planes[2].view, planes[3].view}};
    }
};

// Decoupled bands of one scale: r (restored) and a (additive), h/v/d each.
template <typename T>
struct DecoupledBuf {
    PlaneBuf<T> r_mem[kOrientations], a_mem[kOrientations];
    Plane<T> r[kOrientations], a[kOrientations];
    void alloc(int w, int h)
    {
        for (int o = 0; o < kOrientations; o++) {
            r_mem[o].alloc(w, h);
            a_mem[o].alloc(w, h);
            r[o] = r_mem[o].view;
            a[o] = a_mem[o].view;
        }
    }
};

struct Scratch {
    int w[kScales + 1] = {}, h[kScales + 1] = {};  // [0] picture, [s + 1] bands of scale s
    BandsBuf<int16_t> ref0, dis0;                   // scale 0
    BandsBuf<int32_t> ref[kScales], dis[kScales];   // scales 1..3 (index 0 unused)
    DecoupledBuf<int16_t> dec0;
    DecoupledBuf<int32_t> dec;                      // sized for scale 1, reused
    PlaneBuf<int32_t> mask_n, mask_c;               // masker sums, sized for scale 0
    // Intermediate rows of the transform in libvmaf's layout (see
    // adm_kernels.h): [lo | hi] at scale 0, [lo_ref | hi_ref | lo_dis | hi_dis]
    // at scales 1..3, plus the two entries its right edge may read past them.
    std::vector<int16_t> rows0;
    std::vector<int32_t> rows;
    std::vector<int32_t> col, thr;

    bool allocated = false;

    // The sizes of every scale, for a picture of pic_w x pic_h.
    void size(int pic_w, int pic_h)
    {
        w[0] = pic_w;
        h[0] = pic_h;
        for (int s = 0; s < kScales; s++) {
            w[s + 1] = (w[s] + 1) / 2;
            h[s + 1] = (h[s] + 1) / 2;
        }
    }

    // The buffers, for the sizes size() set.
    void alloc()
    {
        const int pic_w = w[0];
        allocated = true;
        ref0.alloc(w[1], h[1]);
        dis0.alloc(w[1], h[1]);
        for (int s = 1; s < kScales; s++) {
            ref[s].alloc(w[s + 1], h[s + 1]);
            dis[s].alloc(w[s + 1], h[s + 1]);
        }
        dec0.alloc(w[1], h[1]);
        dec.alloc(w[2], h[2]);
        mask_n.alloc(w[1], h[1]);
        mask_c.alloc(w[1], h[1]);
        rows0.assign(2 * size_t(pic_w) + 2, 0);
        rows.assign(4 * size_t(w[1]) + 2, 0);
        col.assign(size_t(w[1]) + 2, 0);
        thr.assign(size_t(w[1]), 0);
    }
};

struct Params {
    double gain_limit;
    bool skip_scale0, skip_aim;
    Weights weights;
    SumShifts shifts[kScales];
    const int32_t *recip;
    kernels::EdgeBlocks edge;
};

// The reference's cubed detail coefficients, summed per row in libvmaf's
// per-scale formats (the CSF weight is applied by finish_den()).
template <typename T>
VMAF_INLINE void reference_energy(const Bands<T> &ref, int scale, const SumShifts &sh, uint64_t (&acc)[kOrientations])
{
    const Rect &rc = sh.score;
    const uint64_t row_round = uint64_t(round_of(sh.den_row));
    for (int i = rc.top; i < rc.bottom; i++) {
        for (int o = 0; o < kOrientations; o++) {
            uint64_t row;
            if constexpr (sizeof(T) == 2) {
                row = kernels::energy_row16(ref.det[o].row(i), rc.left, rc.right);
            } else {
                const int sq = kDenSquareShift[scale - 1];
                row = kernels::energy_row32(ref.det[o].row(i), rc.left, rc.right, sq, uint64_t(1) << sq,
                                            sh.den_cube, uint64_t(round_of(sh.den_cube)));
            }
            acc[o] += (row + row_round) >> sh.den_row;
        }
    }
}

// Masked distortion of `signal` under the masker sums left in n/c by
// kernels::masker: per orientation the summed cubes, rows shifted.
template <typename T>
VMAF_INLINE void masked_distortion(const Plane<T> (&signal)[kOrientations], const Plane<int32_t> &n,
                                  const Plane<int32_t> &c, int w, int h, const ScaleWeights &sw, const SumShifts &sh,
                                  Scratch &s, int64_t (&acc)[kOrientations])
{
    const Rect &rc = sh.score;
    const int rows = sh.num_row;
    const int64_t row_round = round_of(rows);
    int32_t *thr = s.thr.data();
    if constexpr (sizeof(T) == 2) {
        kernels::Cube16 cube[kOrientations];
        for (int o = 0; o < kOrientations; o++)
            cube[o] = {kCm0ThresholdShift[o], kCm0SquareShift[o], sh.num_cube[o], round_of(kCm0SquareShift[o]),
                       round_of(sh.num_cube[o])};
        for (int i = rc.top; i < rc.bottom; i++) {
            kernels::thresholds_row(n, c, i, w, h, rc, s.col.data(), thr);
            for (int o = 0; o < kOrientations; o++)
                acc[o] += (kernels::masked_row_sum(signal[o].row(i), thr, sw.fixed[o], cube[o], rc.left, rc.right) +
                           row_round) >>
                          rows;
        }
    } else {
        const kernels::Cube32 cube{sh.num_cube[0], round_of(sh.num_cube[0])};
        for (int i = rc.top; i < rc.bottom; i++) {
            kernels::thresholds_row(n, c, i, w, h, rc, s.col.data(), thr);
            for (int o = 0; o < kOrientations; o++)
                acc[o] += (kernels::masked_row_sum(signal[o].row(i), thr, sw.fixed[o], cube, rc.left, rc.right) +
                           row_round) >>
                          rows;
        }
    }
}

// Everything after the transform at one scale: its integer sums (left zero
// where AIM is skipped).
template <typename T>
VMAF_INLINE void sum_scale(const Bands<T> &ref, const Bands<T> &dis, DecoupledBuf<T> &dec, int scale,
                          const Params &p, Scratch &s, ScaleSums *out)
{
    const int w = s.w[scale + 1], h = s.h[scale + 1];
    const Rect wr = work_rect(w, h);
    const ScaleWeights &sw = p.weights[scale];
    const SumShifts &sh = p.shifts[scale];
    kernels::decouple(ref, dis, wr, p.gain_limit, p.recip, dec.r, dec.a);
    reference_energy(ref, scale, sh, out->den);
    // DLM: the restored part, masked by the additive one.
    kernels::masker(dec.a, sw.fixed, wr, s.mask_n.view, s.mask_c.view);
    masked_distortion(dec.r, s.mask_n.view, s.mask_c.view, w, h, sw, sh, s, out->num);
    if (!p.skip_aim) {
        // AIM: the additive part, masked by the restored one.
        kernels::masker(dec.r, sw.fixed, wr, s.mask_n.view, s.mask_c.view);
        masked_distortion(dec.a, s.mask_n.view, s.mask_c.view, w, h, sw, sh, s, out->aim);
    }
}

template <typename Pixel>
VMAF_INLINE void compute_frame(const Pixel *ref, ptrdiff_t ref_stride, const Pixel *dis, ptrdiff_t dis_stride,
                              unsigned bpc, const Params &p, Scratch &s, ScaleSums (&out)[kScales])
{
    const int w = s.w[0], h = s.h[0];
    kernels::dwt0(ref, ref_stride, w, h, bpc, p.edge, s.rows0.data(), s.ref0.view);
    kernels::dwt0(dis, dis_stride, w, h, bpc, p.edge, s.rows0.data(), s.dis0.view);
    if (!p.skip_scale0) sum_scale(s.ref0.view, s.dis0.view, s.dec0, 0, p, s, &out[0]);

    for (int scale = 1; scale < kScales; scale++) {
        if (scale == 1)
            kernels::dwt(s.ref0.view.a, s.dis0.view.a, s.w[1], s.h[1], 1, p.edge, s.rows.data(), s.ref[1].view,
                         s.dis[1].view);
        else
            kernels::dwt(s.ref[scale - 1].view.a, s.dis[scale - 1].view.a, s.w[scale], s.h[scale], scale, p.edge,
                         s.rows.data(), s.ref[scale].view, s.dis[scale].view);
        sum_scale(s.ref[scale].view, s.dis[scale].view, s.dec, scale, p, s, &out[scale]);
    }
}

// The whole computation compiled for the baseline ISA and, on x86, for AVX2.
using FrameFn8 = void (*)(const uint8_t *, ptrdiff_t, const uint8_t *, ptrdiff_t, unsigned, const Params &,
                          Scratch &, ScaleSums (&)[kScales]);
using FrameFn16 = void (*)(const uint16_t *, ptrdiff_t, const uint16_t *, ptrdiff_t, unsigned, const Params &,
                           Scratch &, ScaleSums (&)[kScales]);

void frame8_generic(const uint8_t *r, ptrdiff_t rs, const uint8_t *d, ptrdiff_t ds, unsigned bpc, const Params &p,
                    Scratch &s, ScaleSums (&out)[kScales])
{
    compute_frame(r, rs, d, ds, bpc, p, s, out);
}

void frame16_generic(const uint16_t *r, ptrdiff_t rs, const uint16_t *d, ptrdiff_t ds, unsigned bpc, const Params &p,
                     Scratch &s, ScaleSums (&out)[kScales])
{
    compute_frame(r, rs, d, ds, bpc, p, s, out);
}

#if VMAF_X86
__attribute__((target("avx2"))) void frame8_avx2(const uint8_t *r, ptrdiff_t rs, const uint8_t *d, ptrdiff_t ds,
                                                 unsigned bpc, const Params &p, Scratch &s,
                                                 ScaleSums (&out)[kScales])
{
    compute_frame(r, rs, d, ds, bpc, p, s, out);
}

__attribute__((target("avx2"))) void frame16_avx2(const uint16_t *r, ptrdiff_t rs, const uint16_t *d, ptrdiff_t ds,
                                                  unsigned bpc, const Params &p, Scratch &s,
                                                  ScaleSums (&out)[kScales])
{
    compute_frame(r, rs, d, ds, bpc, p, s, out);
}

// Again with 512-bit vectors; with floating-point contraction off (meson.build)
// the float and double steps round exactly as in the other builds.
__attribute__((target(VMAF_TARGET_AVX512))) void frame8_avx512(const uint8_t *r, ptrdiff_t rs, const uint8_t *d,
                                                       ptrdiff_t ds, unsigned bpc, const Params &p,
                                                       Scratch &s, ScaleSums (&out)[kScales])
{
    compute_frame(r, rs, d, ds, bpc, p, s, out);
}

__attribute__((target(VMAF_TARGET_AVX512))) void frame16_avx512(const uint16_t *r, ptrdiff_t rs, const uint16_t *d,
                                                        ptrdiff_t ds, unsigned bpc, const Params &p,
                                                        Scratch &s, ScaleSums (&out)[kScales])
{
    compute_frame(r, rs, d, ds, bpc, p, s, out);
}
#endif

class AdmCpu final : public Extractor {
public:
    AdmCpu(const FeatureOptions &o, adm::Kernels which) : which_(which), settings_(Settings::from(o))
    {
        params_.gain_limit = settings_.gain_limit;
        params_.skip_scale0 = settings_.skip_scale0;
        params_.skip_aim = settings_.skip_aim;
        params_.edge = settings_.edge;
    }

    int init(const FrameFormat &fmt) override
    {
        if (fmt.w < kMinSide || fmt.h < kMinSide) return -EINVAL;
        if (fmt.bpc < 8 || fmt.bpc > 16) return -EINVAL;
        // The 16-bit scale-0 pipeline cannot represent frequencies below those
        // of 1080 lines at 3 heights (libvmaf refuses them too).
        const ViewSetup &view = settings_.view;
        if (view.norm_view_dist * view.ref_display_height < kDefaultNormViewDist * kDefaultRefDisplayHeight)
            return -EINVAL;
        if (int err = make_weights(view, &params_.weights)) return err;
        params_.recip = reciprocal_table();
        fmt_ = fmt;
        // The buffers are made with the first frame: a context whose ADM runs
        // on the GPU never needs them (tens of MB at 2160p).
        scratch_.size(int(fmt.w), int(fmt.h));
        for (int i = 0; i < kScales; i++) params_.shifts[i] = sum_shifts(scratch_.w[i + 1], scratch_.h[i + 1], i);
        pick_kernels();
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        if (ref.w[0] != fmt_.w || ref.h[0] != fmt_.h || dist.w[0] != fmt_.w || dist.h[0] != fmt_.h ||
            ref.bpc != fmt_.bpc || dist.bpc != fmt_.bpc)
            return -EINVAL;
        if (!scratch_.allocated) scratch_.alloc();
        ScaleSums s[kScales];
        if (fmt_.bpc == 8)
            frame8_(static_cast<const uint8_t *>(ref.data[0]), ref.stride[0],
                    static_cast<const uint8_t *>(dist.data[0]), dist.stride[0], fmt_.bpc, params_, scratch_, s);
        else
            frame16_(static_cast<const uint16_t *>(ref.data[0]), ref.stride[0] / 2,
                     static_cast<const uint16_t *>(dist.data[0]), dist.stride[0] / 2, fmt_.bpc, params_, scratch_,
                     s);
        ScaleScore score[kScales];
        for (int i = 0; i < kScales; i++)
            score[i] = finish_scale(s[i], params_.shifts[i], i, params_.weights[i], settings_);
        return write_scores(score, settings_, fmt_.w, fmt_.h, index, out);
    }

private:
    void pick_kernels()
    {
        frame8_ = frame8_generic;
        frame16_ = frame16_generic;
#if VMAF_X86
        if ((which_ == adm::Kernels::Best || which_ == adm::Kernels::Avx2) && cpu_has_avx2()) {
            frame8_ = frame8_avx2;
            frame16_ = frame16_avx2;
        }
        if (which_ == adm::Kernels::Best && cpu_has_avx512()) {
            frame8_ = frame8_avx512;
            frame16_ = frame16_avx512;
        }
#endif
    }

    adm::Kernels which_;
    Settings settings_;
    Params params_{};
    FrameFormat fmt_{};
    Scratch scratch_;
    FrameFn8 frame8_ = nullptr;
    FrameFn16 frame16_ = nullptr;
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return std::make_unique<AdmCpu>(o, adm::Kernels::Best);
}

}  // namespace

std::unique_ptr<Extractor> adm::create_cpu(const FeatureOptions &opts, Kernels which)
{
    return std::make_unique<AdmCpu>(opts, which);
}

namespace {

constexpr FeatureAlias kAliases[] = {
    {kAdm2Name, "integer_adm2"},
    {kAimName, "integer_aim"},
    {kAdm3Name, "integer_adm3"},
    {kScaleNames[0], "integer_adm_scale0"},
    {kScaleNames[1], "integer_adm_scale1"},
    {kScaleNames[2], "integer_adm_scale2"},
    {kScaleNames[3], "integer_adm_scale3"},
};

}  // namespace

const ExtractorInfo kAdmExtractor = {"adm", kProvided, kOptions, 0, create, nullptr, kAliases};

}  // namespace vmaf
