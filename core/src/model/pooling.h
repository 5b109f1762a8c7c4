// SPDX-License-Identifier: BSD-2-Clause-Patent
// Pooling of per-frame scores over a range of frames, as libvmaf pools them
// (vmaf_feature_score_pooled): shared by the context, the model code and the
// output writers so that every pooled number is computed one way.
#pragma once

#include <cerrno>
#include <limits>
#include <span>
#include <vector>

#include "libvmaf/libvmaf.h"

namespace vmaf {

// Pool `scores` (in frame order) with `method`. Returns -EINVAL for an empty
// range or an unknown method. Arithmetic and order of operations follow
// libvmaf: the mean is a running sum divided by the count, and the harmonic
// mean is taken of score + 1 (so that zero scores are allowed), minus 1:
//     n / sum(1 / (s + 1)) - 1.
inline int pool(std::span<const double> scores, VmafPoolingMethod method, double *out)
{
    if (scores.empty() || !out) return -EINVAL;
    double min = scores[0], max = scores[0], sum = 0, inv_sum = 0;
    for (const double s : scores) {
        sum += s;
        inv_sum += 1.0 / (s + 1.0);
        if (s < min) min = s;
        if (s > max) max = s;
    }
    const double n = double(scores.size());
    switch (method) {
    case VMAF_POOL_METHOD_MIN: *out = min; return 0;
    case VMAF_POOL_METHOD_MAX: *out = max; return 0;
    case VMAF_POOL_METHOD_MEAN: *out = sum / n; return 0;
    case VMAF_POOL_METHOD_HARMONIC_MEAN: *out = n / inv_sum - 1.0; return 0;
    default: return -EINVAL;
    }
}

// Convenience form: NaN where the int form fails.
inline double pool(const std::vector<double> &scores, VmafPoolingMethod method)
{
    double v;
    return pool(std::span<const double>(scores), method, &v) ? std::numeric_limits<double>::quiet_NaN() : v;
}

}  // namespace vmaf
