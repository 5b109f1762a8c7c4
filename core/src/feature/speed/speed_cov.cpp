// SPDX-License-Identifier: BSD-2-Clause-Patent
// The covariance sums, portable and with AVX2 + FMA. Both follow libvmaf's
// AVX2 kernel (speed_kernel.h, CovAcc): the same lanes, the same fused
// multiply-adds (std::fma rounds once, as the instruction does), the same
// tail and final additions, so they agree to the bit.
#include "feature/speed/speed_cov.h"

#include "feature/speed/speed_kernel.h"
#include "util/simd.h"

#if VMAF_X86
#include <immintrin.h>
#endif

namespace vmaf::speed {

namespace {

double cov_sum_portable(const float *x, const float *y, std::ptrdiff_t stride, int w, int h, double mx, double my)
{
    CovAcc acc;
    for (int i = 0; i < h; i++)
        cov_row(x + std::ptrdiff_t(i) * stride, y + std::ptrdiff_t(i) * stride, std::size_t(w), mx, my, acc);
    return acc.total();
}

#if VMAF_X86
__attribute__((target("avx2,fma"))) double cov_sum_avx2(const float *x, const float *y, std::ptrdiff_t stride,
                                                         int w, int h, double mx, double my)
{
    __m256d acc0 = _mm256_setzero_pd(), acc1 = _mm256_setzero_pd();
    const __m256d vmx = _mm256_set1_pd(mx), vmy = _mm256_set1_pd(my);
    double tail = 0.0;
    for (int i = 0; i < h; i++) {
        const float *rx = x + std::ptrdiff_t(i) * stride, *ry = y + std::ptrdiff_t(i) * stride;
        int j = 0;
        for (; j + 7 < w; j += 8) {
            const __m256d cx0 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(rx + j)), vmx);
            const __m256d cx1 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(rx + j + 4)), vmx);
            const __m256d cy0 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(ry + j)), vmy);
            const __m256d cy1 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(ry + j + 4)), vmy);
            acc0 = _mm256_fmadd_pd(cx0, cy0, acc0);
            acc1 = _mm256_fmadd_pd(cx1, cy1, acc1);
        }
        for (; j + 3 < w; j += 4) {
            const __m256d cx = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(rx + j)), vmx);
            const __m256d cy = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(ry + j)), vmy);
            acc0 = _mm256_fmadd_pd(cx, cy, acc0);
        }
        for (; j < w; j++) {
            const double p = (double(rx[j]) - mx) * (double(ry[j]) - my);
            tail += p;
        }
    }
    alignas(32) double lane[4];
    _mm256_store_pd(lane, _mm256_add_pd(acc0, acc1));
    return lane[0] + lane[1] + lane[2] + lane[3] + tail;
}
#endif

}  // namespace

CovSumFn cov_sum_kernel(CovKernels which)
{
#if VMAF_X86
    if (which == CovKernels::Best && cpu_has_avx2() && __builtin_cpu_supports("fma")) return cov_sum_avx2;
#endif
    (void)which;
    return cov_sum_portable;
}

}  // namespace vmaf::speed
