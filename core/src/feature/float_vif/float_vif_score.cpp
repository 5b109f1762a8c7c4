// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/float_vif/float_vif_score.h"

namespace vmaf::float_vif {

ScaleSizes scale_sizes(int w, int h)
{
    ScaleSizes s;
    for (int i = 0; i < kScales; i++) {
        s.w[i] = w;
        s.h[i] = h;
        w /= 2;
        h /= 2;
    }
    return s;
}

bool fits(int w, int h, float kernelscale, int first_scale)
{
    const ScaleSizes s = scale_sizes(w, h);
    for (int i = first_scale; i < kScales; i++) {
        const int r = filter_taps(i, kernelscale) / 2;
        // The mirror reaches r samples past each edge; it needs r < size.
        if (s.w[i] <= r || s.h[i] <= r) return false;
    }
    return true;
}

void Scorer::init(int w, int h, const Settings &s)
{
    settings_ = s;
    params_ = stat_params(s.gain_limit, s.sigma_nsq);
    for (int i = 0; i < kScales; i++) kernels_[i] = scale_kernel(i, float(s.kernelscale));
    sizes_ = scale_sizes(w, h);
    const std::size_t half = std::size_t(sizes_.w[1]) * std::size_t(sizes_.h[1]);
    const std::size_t quarter = std::size_t(sizes_.w[2]) * std::size_t(sizes_.h[2]);
    ref_a_.assign(half, 0.0f);
    dis_a_.assign(half, 0.0f);
    ref_b_.assign(quarter, 0.0f);
    dis_b_.assign(quarter, 0.0f);
    for (auto &r : vrow_) r.assign(std::size_t(w), 0.0f);
    for (auto &r : hrow_) r.assign(std::size_t(w), 0.0f);
}

void Scorer::scale_sums(const Kernel &k, PlaneView ref, PlaneView dis, float *num, float *den)
{
    const int w = ref.w;
    float acc_num = 0.0f, acc_den = 0.0f;
    for (int y = 0; y < ref.h; y++) {
        vertical_pass(k.f, k.taps, Term::Plain, ref, ref, y, vrow_[0].data());
        vertical_pass(k.f, k.taps, Term::Plain, dis, dis, y, vrow_[1].data());
        vertical_pass(k.f, k.taps, Term::Square, ref, ref, y, vrow_[2].data());
        vertical_pass(k.f, k.taps, Term::Square, dis, dis, y, vrow_[3].data());
        vertical_pass(k.f, k.taps, Term::Product, ref, dis, y, vrow_[4].data());
        for (int i = 0; i < 5; i++) horizontal_pass(k.f, k.taps, vrow_[i].data(), w, hrow_[i].data());
        const float *mu1 = hrow_[0].data(), *mu2 = hrow_[1].data();
        const float *xx = hrow_[2].data(), *yy = hrow_[3].data(), *xy = hrow_[4].data();
        float row_num = 0.0f, row_den = 0.0f;
        for (int x = 0; x < w; x++) {
            const PixelStat s = pixel_stat(mu1[x], mu2[x], xx[x], yy[x], xy[x], params_);
            row_num += s.num;
            row_den += s.den;
        }
        acc_num += row_num;
        acc_den += row_den;
    }
    *num = acc_num;
    *den = acc_den;
}

Sums Scorer::score(PlaneView ref, PlaneView dis)
{
    Sums out;
    PlaneView cur_ref = ref, cur_dis = dis;
    const int first = settings_.skip_scale0 ? 1 : 0;
    for (int s = first; s < kScales; s++) {
        const Kernel &k = kernels_[s];
        if (s > 0) {
            // Blur the previous scale with this scale's kernel, keep every
            // second sample.
            float *nr = (s % 2) ? ref_a_.data() : ref_b_.data();
            float *nd = (s % 2) ? dis_a_.data() : dis_b_.data();
            blur_decimate(k, cur_ref, nr, scratch_);
            blur_decimate(k, cur_dis, nd, scratch_);
            const int w = sizes_.w[s], h = sizes_.h[s];
            cur_ref = PlaneView{nr, w, h, w};
            cur_dis = PlaneView{nd, w, h, w};
        }
        float num, den;
        scale_sums(k, cur_ref, cur_dis, &num, &den);
        out.num[s] = double(num);
        out.den[s] = double(den);
    }
    return out;
}

}  // namespace vmaf::float_vif
