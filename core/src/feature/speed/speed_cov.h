// SPDX-License-Identifier: BSD-2-Clause-Patent
// The covariance sum of SpEED: sum over a w x h window pair of
// (x - mx) * (y - my), in double, in the order of libvmaf's AVX2 kernel
// (speed_kernel.h, cov_row). A portable build and, on x86-64 processors with
// AVX2 and FMA, a vector one; both give the same bits.
#pragma once

#include <cstddef>

namespace vmaf::speed {

using CovSumFn = double (*)(const float *x, const float *y, std::ptrdiff_t stride, int w, int h, double mx,
                            double my);

enum class CovKernels { Best, Portable };

CovSumFn cov_sum_kernel(CovKernels which);

}  // namespace vmaf::speed
