// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/speed/speed_engine.h"

#include <algorithm>
#include <cerrno>
#include <cmath>

#include "feature/common/float_vif_filter.h"
#include "feature/speed/speed_kernel.h"
#include "feature/speed/speed_tables.h"
#include "util/log.h"

namespace vmaf::speed {

using float_vif::PlaneView;

bool prescales(double prescale)
{
    return !(std::fabs(prescale - 1.0) < kPrescaleOneTolerance);
}

Dims speed_dims(int w, int h, double prescale)
{
    Dims d;
    d.w = w;
    d.h = h;
    // Within the tolerance of 1 nothing is resampled, so the plane keeps its
    // size (libvmaf would still round w * prescale, see docs/features/speed.md).
    d.scaled_w = prescales(prescale) ? int(double(w) * prescale + 0.5) : w;
    d.scaled_h = prescales(prescale) ? int(double(h) * prescale + 0.5) : h;
    d.dec_w = d.scaled_w >> kScales;
    d.dec_h = d.scaled_h >> kScales;
    d.blocks_x = d.dec_w / kBlock;
    d.blocks_y = d.dec_h / kBlock;
    d.sub_w = d.blocks_x * kBlock - kBlock + 1;
    d.sub_h = d.blocks_y * kBlock - kBlock + 1;
    return d;
}

int Engine::init(int w, int h, const Params &p, const char *feature, const char *plane)
{
    p_ = p;
    feature_ = feature;
    cov_sum_ = cov_sum_kernel(CovKernels::Best);
    if (!float_vif::valid_kernel_scale(float(p.kernelscale))) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: speed_kernelscale %g is not a supported kernel scale\n", feature,
            p.kernelscale);
        return -EINVAL;
    }
    dims_ = speed_dims(w, h, p.prescale);
    if (dims_.too_small()) {
        // Fewer than 80 samples one way leave no whole 5x5 block after the
        // decimation by 16 (libvmaf logs "image too small" and then crashes).
        if (prescales(p.prescale))
            log(VMAF_LOG_LEVEL_ERROR,
                "%s: %s are %dx%d, %dx%d after speed_prescale %g, too small: SpEED needs planes of at least %dx%d\n",
                feature, plane, w, h, dims_.scaled_w, dims_.scaled_h, p.prescale, kMinInputSize, kMinInputSize);
        else
            log(VMAF_LOG_LEVEL_ERROR, "%s: %s are %dx%d, too small: SpEED needs planes of at least %dx%d\n", feature, plane, w,
                h, kMinInputSize, kMinInputSize);
        return -EINVAL;
    }

    const float ks = float(p.kernelscale);
    // The anti-aliasing blur has as many taps as scale 1's filter, with sigma
    // sqrt(kScales) * taps / 5 (computed in double, rounded to float).
    const int aa_taps = float_vif::filter_taps(1, ks);
    antialias_ = float_vif::gaussian_kernel(aa_taps, float(std::sqrt(double(kScales)) * aa_taps / 5.0f));
    local_ = float_vif::scale_kernel(kScales, ks);

    const std::size_t blocks = std::size_t(dims_.blocks());
    if (prescales(p.prescale)) scaled_.assign(std::size_t(dims_.scaled_w) * dims_.scaled_h, 0.0f);
    row_.assign(std::size_t(dims_.scaled_w > w ? dims_.scaled_w : w), 0.0f);
    dec_.assign(std::size_t(dims_.dec_w) * dims_.dec_h, 0.0f);
    blur_.assign(dec_.size(), 0.0f);
    means_.assign(kBlockElems, 0.0f);
    cov_.assign(kBlockElems * kBlockElems, 0.0f);
    eig_.assign(kBlockElems, 0.0f);
    y_.assign(kBlockElems * blocks, 0.0f);
    x_.assign(kBlockElems * blocks, 0.0f);
    for (Stats *s : {&ref_, &dis_}) {
        s->entropy.assign(blocks, 0.0f);
        s->variance.assign(blocks, 0.0f);
    }
    return 0;
}

void Engine::prepare(const float *src, std::ptrdiff_t stride)
{
    PlaneView in{src, dims_.w, dims_.h, stride};
    if (prescales(p_.prescale)) {
        float_vif::scale_plane(p_.prescale_method, in, scaled_.data(), dims_.scaled_w, dims_.scaled_h,
                               dims_.scaled_w);
        in = PlaneView{scaled_.data(), dims_.scaled_w, dims_.scaled_h, dims_.scaled_w};
    }

    // Blur, keeping every 16th row and column (only those are filtered).
    const int dw = dims_.dec_w, dh = dims_.dec_h;
    for (int y = 0; y < dh; y++) {
        float_vif::vertical_pass(antialias_.f, antialias_.taps, float_vif::Term::Plain, in, in, y * kDecimation,
                                 row_.data());
        float *out = dec_.data() + std::ptrdiff_t(y) * dw;
        for (int x = 0; x < dw; x++)
            out[x] = float_vif::horizontal_at(antialias_.f, antialias_.taps, row_.data(), in.w, x * kDecimation);
    }

    // Remove the local mean.
    float_vif::filter_plane(local_.f, local_.taps, PlaneView{dec_.data(), dw, dh, dw}, blur_.data(), dw,
                            row_.data());
    for (std::size_t i = 0; i < dec_.size(); i++) dec_[i] -= blur_[i];
}

bool Engine::estimate(Stats &out)
{
    covariance();
    return fit(out);
}

void Engine::covariance()
{
    const int dw = dims_.dec_w;
    const int sw = dims_.sub_w, sh = dims_.sub_h;
    const float *data = dec_.data();
    const std::size_t n_sub = std::size_t(sw) * std::size_t(sh);

    // Covariance of the 25 windows (one per position in a block), each window
    // sw x sh starting at that position; means in float, sums in double.
    for (int r = 0; r < kBlock; r++)
        for (int c = 0; c < kBlock; c++) {
            float sum = 0.0f;
            for (int i = 0; i < sh; i++) {
                const float *row = data + std::ptrdiff_t(r + i) * dw + c;
                for (int j = 0; j < sw; j++) sum += row[j];
            }
            means_[r * kBlock + c] = sum / float(n_sub);
        }
    for (int xi = 0; xi < kBlockElems; xi++)
        for (int yi = 0; yi <= xi; yi++) {
            const float *px = data + std::ptrdiff_t(xi / kBlock) * dw + xi % kBlock;
            const float *py = data + std::ptrdiff_t(yi / kBlock) * dw + yi % kBlock;
            const double mx = means_[xi], my = means_[yi];
            const float cv = covariance_entry(cov_sum_(px, py, dw, sw, sh, mx, my));
            cov_[xi * kBlockElems + yi] = cv;
            cov_[yi * kBlockElems + xi] = cv;
        }
}

bool Engine::fit(Stats &out)
{
    const int dw = dims_.dec_w;
    const float *data = dec_.data();

    if (!symmetric_eigenvalues(cov_.data(), kBlockElems, eig_.data()) && !warned_iterations_) {
        warned_iterations_ = true;
        log(VMAF_LOG_LEVEL_WARNING, "%s: eigenvalues did not converge in %d iterations\n", feature_,
            kMaxEigenIterations);
    }

    // The samples of every block, one row per position in the block.
    const int bx = dims_.blocks_x, nb = dims_.blocks();
    for (int by = 0; by < dims_.blocks_y; by++)
        for (int b = 0; b < bx; b++)
            for (int r = 0; r < kBlock; r++)
                for (int c = 0; c < kBlock; c++)
                    y_[std::size_t(r * kBlock + c) * nb + by * bx + b] =
                        data[std::ptrdiff_t(by * kBlock + r) * dw + b * kBlock + c];

    bool regular = true;
    for (float e : eig_)
        if (double(e) < kEps) regular = false;
    const bool ok = regular && solver_.solve(cov_.data(), kBlockElems, y_.data(), nb, x_.data());
    if (!ok) {
        if (!warned_singular_) {
            warned_singular_ = true;
            log(VMAF_LOG_LEVEL_WARNING, "%s: covariance matrix is singular (reported once)\n", feature_);
        }
        std::fill(x_.begin(), x_.end(), 0.0f);
    }

    // Each block's variance: the sum over positions of x * y / 25.
    for (std::size_t i = 0; i < x_.size(); i++) x_[i] = (x_[i] * y_[i]) / float(kBlockElems);
    for (int k = 1; k < kBlockElems; k++)
        for (int b = 0; b < nb; b++) x_[b] += x_[std::size_t(k) * nb + b];

    const float sigma_nn = float(p_.sigma_nn);
    std::fill(out.entropy.begin(), out.entropy.end(), 0.0f);
    for (int k = 0; k < kBlockElems; k++) {
        const float l = eig_[k] < 0 ? 0.0f : eig_[k];
        for (int b = 0; b < nb; b++) out.entropy[b] = add_entropy(out.entropy[b], l, x_[b], sigma_nn);
    }
    std::copy(x_.begin(), x_.begin() + nb, out.variance.begin());
    return ok;
}

float Engine::compare() const
{
    const float base = base_entropy(float(p_.sigma_nn), float(p_.nn_floor));
    const int nb = dims_.blocks();
    float score = 0.0f;
    for (int b = 0; b < nb; b++) {
        // Both below the noise floor: no visible difference.
        if (ref_.entropy[b] < base && dis_.entropy[b] < base) continue;
        score += weighted_difference(p_.weight_var_mode, ref_.entropy[b], dis_.entropy[b], ref_.variance[b],
                                     dis_.variance[b]);
    }
    return score / float(nb);
}

float Engine::score(const float *ref, const float *dis, std::ptrdiff_t stride, bool *singular)
{
    prepare(ref, stride);
    const bool ok_ref = estimate(ref_);
    prepare(dis, stride);
    const bool ok_dis = estimate(dis_);
    return finish(ok_ref, ok_dis, singular);
}

float Engine::score(const Prepared &ref, const Prepared &dis, bool *singular)
{
    bool ok[2];
    Stats *stats[2] = {&ref_, &dis_};
    const Prepared *side[2] = {&ref, &dis};
    for (int s = 0; s < 2; s++) {
        std::copy(side[s]->dec, side[s]->dec + dec_.size(), dec_.begin());
        for (int xi = 0; xi < kBlockElems; xi++)
            for (int yi = 0; yi <= xi; yi++) {
                const float cv = side[s]->cov[xi * (xi + 1) / 2 + yi];
                cov_[xi * kBlockElems + yi] = cv;
                cov_[yi * kBlockElems + xi] = cv;
            }
        ok[s] = fit(*stats[s]);
    }
    return finish(ok[0], ok[1], singular);
}

float Engine::finish(bool ok_ref, bool ok_dis, bool *singular) const
{
    *singular = !ok_ref || !ok_dis;
    // Only one side unstable: 0 rather than an inflated score.
    if (ok_ref != ok_dis) return 0.0f;
    return compare();
}

}  // namespace vmaf::speed
