// SPDX-License-Identifier: BSD-2-Clause-Patent
// Float ADM on the CPU (libvmaf's "float_adm" extractor: float_adm.c, adm.c,
// adm_tools.c).
//
// Per scale: one db2 wavelet level of both luma planes (samples centred on
// zero); decoupling of the distorted detail bands into a part restored from
// the reference (r) and an additive impairment (a); CSF weighting; a masking
// threshold from the 3x3 neighbourhood of the masker; and the p-norm (cube
// root by default) of the masked signal plus a noise floor. DLM (adm2) masks
// r with a and divides by the reference's own CSF-weighted energy; AIM masks
// a with r over the same denominator.
//
// Everything is single precision with libvmaf's accumulation order (per-row
// float sums added into float totals, a few products in double); the
// per-sample arithmetic lives in float_adm_kernels.h.
#include "feature/float_adm/float_adm.h"

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <vector>

#include "feature/common/float_picture.h"
#include "feature/float_adm/float_adm_csf.h"
#include "feature/float_adm/float_adm_kernels.h"
#include "feature/float_adm/float_adm_tables.h"
#include "util/log.h"

namespace vmaf {

namespace {

using namespace float_adm;

constexpr OptionSpec kOptions[] = {
    {"debug", nullptr, OptType::Bool, 0, 0, 1, false,
     "also write adm, adm_num, adm_den and the numerator and denominator of every scale"},
    {"adm_enhn_gain_limit", "egl", OptType::Double, kDefaultEnhnGainLimit, 1.0, kDefaultEnhnGainLimit, true,
     "cap on the enhancement gain; 1.0 disables enhancement"},
    {"adm_norm_view_dist", "nvd", OptType::Double, kDefaultNormViewDist, 0.75, 24.0, true,
     "viewing distance divided by the display height"},
    {"adm_noise_weight", "nw", OptType::Double, kDefaultNoiseWeight, 0.0, 1500.0, true,
     "weight of the noise floor added to every numerator and denominator term"},
    {"adm_csf_scale", "scf", OptType::Double, 1.0, 0.0, 50.0, true,
     "Barten CSF gain of the horizontal and vertical bands"},
    {"adm_csf_diag_scale", "scfd", OptType::Double, 1.0, 0.0, 50.0, true, "Barten CSF gain of the diagonal band"},
    {"adm_ref_display_height", "rdf", OptType::Int, double(kDefaultRefDisplayHeight), 1, 4320, true,
     "display height in pixels"},
    {"adm_csf_mode", "csf", OptType::Int, kCsfWatson97, 0, 9, true,
     "CSF: 1 Barten, 2 the DLM paper's, any other value Watson"},
    {"adm_bypass_cm", "bcm", OptType::Int, 0, 0, 1, true, "1: no contrast masking (zero thresholds)"},
    {"adm_adm3_apply_hm", "aah", OptType::Bool, 0, 0, 1, true,
     "adm3 as the harmonic mean of adm2 and aim instead of the weighted blend"},
    {"adm_p_norm", "apn", OptType::Double, kDefaultPNorm, 1.0, 20.0, true, "exponent of the energy norms"},
    {"adm_dlm_weight", "dlmw", OptType::Double, 0.5, 0.0, 1.0, true,
     "weight of DLM against AIM in adm3 (1 is DLM only)"},
    {"adm_min_val", "min", OptType::Double, 0.0, 0.0, 1.0, true, "lower bound of adm3"},
    {"adm_f1s0", "f1s0", OptType::Double, -1.0, -1.0, 10.0, true, "h/v CSF weight of scale 0 (negative: model's)"},
    {"adm_f1s1", "f1s1", OptType::Double, -1.0, -1.0, 10.0, true, "h/v CSF weight of scale 1 (negative: model's)"},
    {"adm_f1s2", "f1s2", OptType::Double, -1.0, -1.0, 10.0, true, "h/v CSF weight of scale 2 (negative: model's)"},
    {"adm_f1s3", "f1s3", OptType::Double, -1.0, -1.0, 10.0, true, "h/v CSF weight of scale 3 (negative: model's)"},
    {"adm_f2s0", "f2s0", OptType::Double, -1.0, -1.0, 10.0, true, "d CSF weight of scale 0 (negative: model's)"},
    {"adm_f2s1", "f2s1", OptType::Double, -1.0, -1.0, 10.0, true, "d CSF weight of scale 1 (negative: model's)"},
    {"adm_f2s2", "f2s2", OptType::Double, -1.0, -1.0, 10.0, true, "d CSF weight of scale 2 (negative: model's)"},
    {"adm_f2s3", "f2s3", OptType::Double, -1.0, -1.0, 10.0, true, "d CSF weight of scale 3 (negative: model's)"},
    // Unset (-1) leaves every scale in AIM; only 0..3 can be given.
    {"adm_skip_aim_scale", "sasc", OptType::Int, -1, 0, 3, true, "leave this scale out of AIM"},
    {"adm_skip_scale0", "ssz", OptType::Bool, 0, 0, 1, true,
     "skip scale 0: it adds nothing to DLM or AIM and its score is 0"},
};

constexpr const char *kAdm2 = "VMAF_feature_adm2_score";
constexpr const char *kAim = "VMAF_feature_aim_score";
constexpr const char *kAdm3 = "VMAF_feature_adm3_score";
constexpr const char *kScaleNames[kScales] = {"VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score",
                                              "VMAF_feature_adm_scale2_score", "VMAF_feature_adm_scale3_score"};
constexpr const char *kNumNames[kScales] = {"adm_num_scale0", "adm_num_scale1", "adm_num_scale2", "adm_num_scale3"};
constexpr const char *kDenNames[kScales] = {"adm_den_scale0", "adm_den_scale1", "adm_den_scale2", "adm_den_scale3"};

// libvmaf's list, "adm_scale0" (never written) included.
constexpr const char *kProvided[] = {
    kAdm2, kAim, kAdm3, kScaleNames[0], kScaleNames[1], kScaleNames[2], kScaleNames[3],
    "adm_num", "adm_den", "adm_scale0",
    kNumNames[0], kDenNames[0], kNumNames[1], kDenNames[1],
    kNumNames[2], kDenNames[2], kNumNames[3], kDenNames[3],
};

constexpr FeatureAlias kAliases[] = {
    {kAdm2, "adm2"},
    {kAim, "aim"},
    {kAdm3, "adm3"},
    {kScaleNames[0], "adm_scale0"},
    {kScaleNames[1], "adm_scale1"},
    {kScaleNames[2], "adm_scale2"},
    {kScaleNames[3], "adm_scale3"},
};

struct Params {
    double gain_limit, noise_weight, p_norm, dlm_weight, min_val;
    bool cube;    // p == 3: powers as products
    float p, inv_p;
    bool bypass_cm, apply_hm, skip_scale0, debug;
    int skip_aim_scale;
    CsfSetup csf;
};

// The four bands of one level; rows of w floats.
struct Bands {
    int w = 0, h = 0;
    std::vector<float> a, det[kOrientations];  // det: h, v, d
    void alloc(int bw, int bh)
    {
        w = bw;
        h = bh;
        a.assign(size_t(w) * size_t(h), 0.0f);
        for (auto &d : det) d.assign(a.size(), 0.0f);
    }
};

// Three planes of one band size (r, a, or the masker's CSF values and
// neighbour terms), reused by every scale with that scale's width as stride.
struct Triple {
    std::vector<float> p[kOrientations];
    void alloc(size_t n)
    {
        for (auto &v : p) v.assign(n, 0.0f);
    }
    float *operator[](int o) { return p[o].data(); }
};

// One level of the db2 transform of a w x h plane (rows of `stride` floats),
// mirrored at the edges: a vertical pass per output row into low and high
// rows, then a horizontal pass. lo_only leaves the detail bands alone.
void dwt2(const float *src, ptrdiff_t stride, int w, int h, Bands &out, bool lo_only, float *lo, float *hi)
{
    const int ow = out.w;
    for (int i = 0; i < out.h; i++) {
        const float *r0 = src + mirror(2 * i - 1, h) * stride;
        const float *r1 = src + mirror(2 * i, h) * stride;
        const float *r2 = src + mirror(2 * i + 1, h) * stride;
        const float *r3 = src + mirror(2 * i + 2, h) * stride;
        for (int j = 0; j < w; j++) {
            lo[j] = dwt_tap(kDwtLo, r0[j], r1[j], r2[j], r3[j]);
            if (!lo_only) hi[j] = dwt_tap(kDwtHi, r0[j], r1[j], r2[j], r3[j]);
        }
        float *a = out.a.data() + size_t(i) * ow;
        float *bh = out.det[0].data() + size_t(i) * ow;
        float *bv = out.det[1].data() + size_t(i) * ow;
        float *bd = out.det[2].data() + size_t(i) * ow;
        for (int j = 0; j < ow; j++) {
            const int x0 = mirror(2 * j - 1, w), x1 = mirror(2 * j, w);
            const int x2 = mirror(2 * j + 1, w), x3 = mirror(2 * j + 2, w);
            a[j] = dwt_tap(kDwtLo, lo[x0], lo[x1], lo[x2], lo[x3]);
            if (lo_only) continue;
            bv[j] = dwt_tap(kDwtHi, lo[x0], lo[x1], lo[x2], lo[x3]);
            bh[j] = dwt_tap(kDwtLo, hi[x0], hi[x1], hi[x2], hi[x3]);
            bd[j] = dwt_tap(kDwtHi, hi[x0], hi[x1], hi[x2], hi[x3]);
        }
    }
}

// Restored (r) and additive (a) parts of the distorted bands over the work
// region.
void decouple_bands(const Bands &ref, const Bands &dis, double gain_limit, Triple &r, Triple &a)
{
    const int w = ref.w;
    const Rect rc = work_rect(w, ref.h);
    for (int i = rc.top; i < rc.bottom; i++) {
        for (int j = rc.left; j < rc.right; j++) {
            const size_t k = size_t(i) * w + j;
            float rr[3], aa[3];
            float_adm::decouple(ref.det[0][k], ref.det[1][k], ref.det[2][k], dis.det[0][k], dis.det[1][k],
                                dis.det[2][k], gain_limit, rr, aa);
            for (int o = 0; o < kOrientations; o++) {
                r[o][k] = rr[o];
                a[o][k] = aa[o];
            }
        }
    }
}

// The masker's CSF-weighted values and neighbour terms over the work region.
void weigh_masker(Triple &src, int w, int h, const float (&weight)[kOrientations], Triple &csf, Triple &nb)
{
    const Rect rc = work_rect(w, h);
    for (int o = 0; o < kOrientations; o++) {
        for (int i = rc.top; i < rc.bottom; i++) {
            for (int j = rc.left; j < rc.right; j++) {
                const size_t k = size_t(i) * w + j;
                const float c = weight[o] * src[o][k];
                csf[o][k] = c;
                nb[o][k] = neighbour_mask(c);
            }
        }
    }
}

// The p-norms of the three orientations (each with its noise floor), summed.
float finish(const float (&acc)[kOrientations], const Rect &rc, double noise_weight, float inv_p)
{
    const double noise = double((rc.right - rc.left) * (rc.bottom - rc.top)) * noise_weight;
    const float h = norm_with_noise(acc[0], noise, inv_p);
    const float v = norm_with_noise(acc[1], noise, inv_p);
    const float d = norm_with_noise(acc[2], noise, inv_p);
    return h + v + d;
}

// The reference's CSF-weighted energy over the score region (denominator).
float reference_energy(const Bands &ref, const float (&weight)[kOrientations], const Params &p)
{
    const int w = ref.w;
    const Rect rc = score_rect(w, ref.h);
    float acc[kOrientations] = {0.0f, 0.0f, 0.0f};
    for (int i = rc.top; i < rc.bottom; i++) {
        float row[kOrientations] = {0.0f, 0.0f, 0.0f};
        for (int j = rc.left; j < rc.right; j++) {
            const size_t k = size_t(i) * w + j;
            for (int o = 0; o < kOrientations; o++)
                row[o] += power(std::fabs(weight[o] * ref.det[o][k]), p.cube, p.p);
        }
        for (int o = 0; o < kOrientations; o++) acc[o] += row[o];
    }
    return finish(acc, rc, p.noise_weight, p.inv_p);
}

// The masked energy of `signal` (CSF-weighted here) under the masker whose
// weighted values and neighbour terms are in csf/nb.
float masked_energy(Triple &signal, Triple &csf, Triple &nb, int w, int h, const float (&weight)[kOrientations],
                    double noise_weight, const Params &p)
{
    const Rect rc = score_rect(w, h);
    float acc[kOrientations] = {0.0f, 0.0f, 0.0f};
    for (int i = rc.top; i < rc.bottom; i++) {
        const size_t r0 = size_t(mirror(i - 1, h)) * w, r1 = size_t(i) * w, r2 = size_t(mirror(i + 1, h)) * w;
        float row[kOrientations] = {0.0f, 0.0f, 0.0f};
        for (int j = rc.left; j < rc.right; j++) {
            float thr = 0.0f;
            if (!p.bypass_cm) {
                const int c0 = mirror(j - 1, w), c2 = mirror(j + 1, w);
                for (int o = 0; o < kOrientations; o++)
                    thr += window_threshold(nb[o] + r0, nb[o] + r1, nb[o] + r2, c0, j, c2, csf[o][r1 + j]);
            }
            for (int o = 0; o < kOrientations; o++)
                row[o] += power(masked(signal[o][r1 + j] * weight[o], thr), p.cube, p.p);
        }
        for (int o = 0; o < kOrientations; o++) acc[o] += row[o];
    }
    return finish(acc, rc, noise_weight, p.inv_p);
}

class FloatAdmCpu final : public Extractor {
public:
    explicit FloatAdmCpu(const FeatureOptions &o)
    {
        p_.gain_limit = o.number("adm_enhn_gain_limit");
        p_.noise_weight = o.number("adm_noise_weight");
        p_.p_norm = o.number("adm_p_norm");
        p_.dlm_weight = o.number("adm_dlm_weight");
        p_.min_val = o.number("adm_min_val");
        p_.cube = p_.p_norm == 3.0;
        p_.p = float(p_.p_norm);
        p_.inv_p = float(1.0f / p_.p_norm);
        p_.bypass_cm = o.number("adm_bypass_cm") != 0.0;
        p_.apply_hm = o.flag("adm_adm3_apply_hm");
        p_.skip_scale0 = o.flag("adm_skip_scale0");
        p_.debug = o.flag("debug");
        p_.skip_aim_scale = int(o.number("adm_skip_aim_scale"));
        p_.csf.mode = int(o.number("adm_csf_mode"));
        p_.csf.norm_view_dist = o.number("adm_norm_view_dist");
        p_.csf.ref_display_height = int(o.number("adm_ref_display_height"));
        p_.csf.csf_scale = o.number("adm_csf_scale");
        p_.csf.csf_diag_scale = o.number("adm_csf_diag_scale");
        static const char *const f1[kScales] = {"adm_f1s0", "adm_f1s1", "adm_f1s2", "adm_f1s3"};
        static const char *const f2[kScales] = {"adm_f2s0", "adm_f2s1", "adm_f2s2", "adm_f2s3"};
        for (int s = 0; s < kScales; s++) {
            p_.csf.f1[s] = o.number(f1[s]);
            p_.csf.f2[s] = o.number(f2[s]);
        }
    }

    int init(const FrameFormat &fmt) override
    {
        if (fmt.w < kMinSide || fmt.h < kMinSide) {
            log(VMAF_LOG_LEVEL_ERROR, "float_adm: %ux%u is too small (each side must be at least %u)\n", fmt.w,
                fmt.h, kMinSide);
            return -EINVAL;
        }
        w_ = int(fmt.w);
        h_ = int(fmt.h);
        int bw = w_, bh = h_;
        for (int s = 0; s < kScales; s++) {
            bw = (bw + 1) / 2;
            bh = (bh + 1) / 2;
            ref_[s].alloc(bw, bh);
            dis_[s].alloc(bw, bh);
            csf_weights(p_.csf, s, weight_[s]);
        }
        const size_t n = ref_[0].a.size();
        r_.alloc(n);
        a_.alloc(n);
        csf_.alloc(n);
        nb_.alloc(n);
        lo_.assign(size_t(w_), 0.0f);
        hi_.assign(size_t(w_), 0.0f);
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &out) override
    {
        ref_pic_.assign(ref, 0, kSampleOffset);
        dis_pic_.assign(dist, 0, kSampleOffset);

        double num = 0.0, den = 0.0, aim_num = 0.0, aim_den = 0.0;
        float scale_num[kScales], scale_den[kScales];
        const float *ref_src = ref_pic_.data.data(), *dis_src = dis_pic_.data.data();
        ptrdiff_t stride = w_;
        int w = w_, h = h_;
        for (int s = 0; s < kScales; s++) {
            const bool skip = s == 0 && p_.skip_scale0;
            dwt2(ref_src, stride, w, h, ref_[s], skip, lo_.data(), hi_.data());
            dwt2(dis_src, stride, w, h, dis_[s], skip, lo_.data(), hi_.data());
            w = ref_[s].w;
            h = ref_[s].h;

            float s_num = 0.0f, s_den, s_aim = 0.0f;
            if (skip) {
                s_den = kSkippedDen;
            } else {
                const float (&wt)[kOrientations] = weight_[s];
                decouple_bands(ref_[s], dis_[s], p_.gain_limit, r_, a_);
                s_den = reference_energy(ref_[s], wt, p_);
                // DLM: the restored part, masked by the additive one.
                weigh_masker(a_, w, h, wt, csf_, nb_);
                s_num = masked_energy(r_, csf_, nb_, w, h, wt, p_.noise_weight, p_);
                // AIM: the additive part, masked by the restored one, no noise floor.
                weigh_masker(r_, w, h, wt, csf_, nb_);
                s_aim = masked_energy(a_, csf_, nb_, w, h, wt, 0.0, p_);
            }
            num += s_num;
            den += s_den;
            if (p_.skip_aim_scale != s) {
                aim_den += s_den;
                aim_num += s_aim;
            }
            scale_num[s] = s_num;
            scale_den[s] = s_den;

            ref_src = ref_[s].a.data();
            dis_src = dis_[s].a.data();
            stride = w;
        }

        const double limit = kNumDenLimit * (w_ * h_) / (1920.0 * 1080.0);
        if (num < limit) num = 0.0;
        if (den < limit) den = 0.0;
        double score, aim;
        if (den == 0.0) {
            // libvmaf leaves AIM undefined here; no impairment is the
            // consistent reading of a perfect DLM.
            score = 1.0;
            aim = 0.0;
        } else {
            const double ratio = aim_num / aim_den;
            aim = ratio < 1.0 ? ratio : 1.0;
            score = num / den;
        }
        double adm3 = p_.apply_hm ? 2 * score * aim / (score + aim)
                                  : score * p_.dlm_weight + (1 - aim) * (1 - p_.dlm_weight);
        adm3 = adm3 > p_.min_val ? adm3 : p_.min_val;

        int err = 0;
        err |= out.append(kAdm2, index, score);
        err |= out.append(kAim, index, aim);
        err |= out.append(kAdm3, index, adm3);
        for (int s = 0; s < kScales; s++)
            err |= out.append(kScaleNames[s], index, double(scale_num[s]) / double(scale_den[s]));
        if (!p_.debug) return err;
        err |= out.append("adm", index, score);
        err |= out.append("adm_num", index, num);
        err |= out.append("adm_den", index, den);
        for (int s = 0; s < kScales; s++) {
            err |= out.append(kNumNames[s], index, scale_num[s]);
            err |= out.append(kDenNames[s], index, scale_den[s]);
        }
        return err;
    }

private:
    Params p_{};
    int w_ = 0, h_ = 0;
    float weight_[kScales][kOrientations] = {};
    FloatPlane ref_pic_, dis_pic_;
    Bands ref_[kScales], dis_[kScales];
    Triple r_, a_, csf_, nb_;
    std::vector<float> lo_, hi_;
};

std::unique_ptr<Extractor> create(const FeatureOptions &o)
{
    return std::make_unique<FloatAdmCpu>(o);
}

}  // namespace

const ExtractorInfo kFloatAdmExtractor = {"float_adm", kProvided, kOptions, 0, create, nullptr, kAliases};

}  // namespace vmaf
