// SPDX-License-Identifier: BSD-2-Clause-Patent
// The float SSIM engine (ssim_engine.h), its portable kernels and the pick
// of the vector ones (ssim_simd_x86.h).
#include "feature/ssim/ssim_engine.h"

#include <cstddef>

#include "feature/ssim/ssim_kernel.h"
#include "feature/ssim/ssim_simd_x86.h"

namespace vmaf::ssim {

namespace {

void horizontal_generic(const float *ref, const float *cmp, int n, float *const out[5])
{
    for (int x = 0; x < n; x++) {
        out[0][x] = window_sum(ref + x, 1, kGaussian, kWindow);
        out[1][x] = window_sum(cmp + x, 1, kGaussian, kWindow);
        out[2][x] = window_sum_product(ref + x, ref + x, kGaussian, kWindow);
        out[3][x] = window_sum_product(cmp + x, cmp + x, kGaussian, kWindow);
        out[4][x] = window_sum_product(ref + x, cmp + x, kGaussian, kWindow);
    }
}

void vertical_terms_generic(const float *const (*rows)[kWindow], int n, const TermRows &out)
{
    for (int x = 0; x < n; x++) {
        float m[5];
        for (int p = 0; p < 5; p++) m[p] = column_sum(rows[p], x, kGaussian, kWindow);
        const PixelTerms t = pixel_terms(m[0], m[1], m[2], m[3], m[4]);
        out.lcs[x] = t.l * t.c * t.s;
        out.l[x] = t.l;
        out.c[x] = t.c;
        out.s[x] = t.s;
    }
}

void lpf_half_row_generic(const float *const *even, const float *const *odd, int out_w, float *out)
{
    for (int x = 0; x < out_w; x++) out[x] = lpf_point(even, odd, x);
}

constexpr KernelSet kGeneric = {horizontal_generic, vertical_terms_generic, lpf_half_row_generic};

#if VMAF_X86
constexpr KernelSet kAvx2 = {avx2::Rows::horizontal, avx2::Rows::vertical_terms, avx2::Rows::lpf_half_row};
constexpr KernelSet kAvx512 = {avx512::Rows::horizontal, avx512::Rows::vertical_terms,
                               avx512::Rows::lpf_half_row};
#endif

const KernelSet *pick(Kernels which)
{
#if VMAF_X86
    if (which == Kernels::Best && cpu_has_avx512()) return &kAvx512;
    if ((which == Kernels::Best || which == Kernels::Avx2) && cpu_has_avx2()) return &kAvx2;
#endif
    (void)which;
    return &kGeneric;
}

}  // namespace

Engine::Engine(Kernels which) : k_(pick(which)) {}

ScaleTerms Engine::ssim(const float *ref, const float *cmp, int w, int h)
{
    const int n = w - kWindow + 1, rows = h - kWindow + 1;
    const std::size_t sn = std::size_t(n);
    ring_.resize(5 * kWindow * sn);
    terms_.resize(4 * sn);
    // Row r of plane p's horizontal outputs lives in ring slot r % kWindow.
    auto slot = [&](int p, int r) { return ring_.data() + (std::size_t(p) * kWindow + r % kWindow) * sn; };
    auto horizontal = [&](int r) {
        float *const out[5] = {slot(0, r), slot(1, r), slot(2, r), slot(3, r), slot(4, r)};
        k_->horizontal(ref + std::size_t(r) * w, cmp + std::size_t(r) * w, n, out);
    };
    for (int r = 0; r < kWindow - 1; r++) horizontal(r);

    const TermRows t = {terms_.data(), terms_.data() + sn, terms_.data() + 2 * sn, terms_.data() + 3 * sn};
    double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;
    for (int y = 0; y < rows; y++) {
        horizontal(y + kWindow - 1);
        const float *window[5][kWindow];
        for (int p = 0; p < 5; p++)
            for (int k = 0; k < kWindow; k++) window[p][k] = slot(p, y + k);
        k_->vertical_terms(window, n, t);
        // libvmaf's sums run over the pixels in raster order.
        for (int x = 0; x < n; x++) {
            ssim_sum += t.lcs[x];
            l_sum += t.l[x];
            c_sum += t.c[x];
            s_sum += t.s[x];
        }
    }
    return mean_terms(ssim_sum, l_sum, c_sum, s_sum, double(n * rows));
}

void Engine::lpf_half(const float *src, int w, int h, float *dst)
{
    const int out_w = decimated_size(w, 2), out_h = decimated_size(h, 2);
    // Each source row padded with kLpfHalf mirrored samples a side, split
    // into its even and odd samples.
    const int padded = w + 2 * kLpfHalf, half = (padded + 1) / 2;
    const std::size_t row_size = 2 * std::size_t(half);
    split_.resize(std::size_t(h) * row_size);
    for (int r = 0; r < h; r++) {
        const float *in = src + std::size_t(r) * w;
        float *even = split_.data() + r * row_size, *odd = even + half;
        for (int j = 0; j < padded; j++) {
            const float v = in[mirror(j - kLpfHalf, w)];
            if (j & 1)
                odd[j / 2] = v;
            else
                even[j / 2] = v;
        }
    }
    for (int y = 0; y < out_h; y++) {
        const float *even[kLpf], *odd[kLpf];
        for (int v = 0; v < kLpf; v++) {
            even[v] = split_.data() + std::size_t(mirror(2 * y + v - kLpfHalf, h)) * row_size;
            odd[v] = even[v] + half;
        }
        k_->lpf_half_row(even, odd, out_w, dst + std::size_t(y) * out_w);
    }
}

void Engine::box_decimate(const float *src, int w, int h, int factor, float *dst)
{
    const int out_w = decimated_size(w, factor), out_h = decimated_size(h, factor);
    box_.assign(std::size_t(factor) * factor, 1.0f / float(factor * factor));
    for (int y = 0; y < out_h; y++)
        for (int x = 0; x < out_w; x++)
            dst[std::size_t(y) * out_w + x] = filter_point(src, w, h, x * factor, y * factor, box_.data(), factor, factor);
}

}  // namespace vmaf::ssim
