// SPDX-License-Identifier: BSD-2-Clause-Patent
// butteraugli: libjxl's butteraugli distance and 3-norm of the RGB pictures the
// YUV frames convert to (docs/features/butteraugli.md). CPU only.
#pragma once

#include <memory>

#include "feature/extractor.h"
#include "util/simd.h"

namespace vmaf {

extern const ExtractorInfo kButteraugliExtractor;

// The extractor with the build of its kernels `which` names (the registry's
// create() takes the best); every build gives the same bits.
std::unique_ptr<Extractor> create_butteraugli_cpu(const FeatureOptions &opts, Kernels which);

}  // namespace vmaf
