// SPDX-License-Identifier: BSD-2-Clause-Patent
// What the CPU extractor and its GPU twin share on the host: the blur's and
// the YUV -> RGB conversion's constants, and the score from the norms of
// every scale, so that both finish a frame with the same code.
#pragma once

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "feature/extractor.h"
#include "feature/ssimulacra2/ssimulacra2_kernels.h"
#include "feature/ssimulacra2/ssimulacra2_tables.h"

namespace vmaf::ssimulacra2 {

// The recursive Gaussian of sigma kBlurSigma (ssimulacra2_cpu.cpp).
const RecursiveGaussian &gaussian();
// The conversion the options `matrix` and `range` name for this format.
using srgb::conversion_for;
// -cbrt(kOpsinBias), with the C library's cbrt as libjxl.
float neg_bias_cbrt();

struct ScaleNorms {
    double ssim[6];       // per channel: 1-norm, 4-norm
    double edgediff[12];  // per channel: artifact 1, 4-norm, detail lost 1, 4-norm
};

// The weights are taken in order over the scales computed: pictures with
// fewer than 6 scales use the first weights, as libjxl's tool does.
inline double score(const std::vector<ScaleNorms> &scales)
{
    double s = 0.0;
    std::size_t i = 0;
    for (unsigned c = 0; c < 3; c++)
        for (const ScaleNorms &sc : scales)
            for (unsigned n = 0; n < 2; n++) {
                s += kWeights[i++] * std::abs(sc.ssim[c * 2 + n]);
                s += kWeights[i++] * std::abs(sc.edgediff[c * 4 + n]);
                s += kWeights[i++] * std::abs(sc.edgediff[c * 4 + n + 2]);
            }
    s = s * kScoreScale;
    s = kPolyA * s - kPolyB * s * s + kPolyC * s * s * s;
    if (s > 0) return 100.0 - 10.0 * std::pow(s, kScoreExponent);
    return 100.0;
}

}  // namespace vmaf::ssimulacra2
