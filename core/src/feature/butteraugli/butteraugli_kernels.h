// SPDX-License-Identifier: BSD-2-Clause-Patent
// The builds of butteraugli's per-frame computation (butteraugli_kernels_tmpl.h):
// portable, and AVX2 with FMA for processors that have both. The extractor
// picks one at start-up (make_engine()); both give the same bits.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "feature/common/srgb.h"
#include "feature/butteraugli/butteraugli_tables.h"
#include "util/simd.h"

namespace vmaf::butteraugli {

// One float plane, row-major without padding. The storage only grows, and a
// resize leaves the values undefined: every pass writes all of its output.
struct Plane {
    unsigned w = 0, h = 0;
    std::vector<float> v;

    void resize(unsigned nw, unsigned nh)
    {
        w = nw;
        h = nh;
        if (v.size() < size()) v.resize(size());
    }
    std::size_t size() const { return std::size_t(w) * h; }
    float *row(unsigned y) { return v.data() + std::size_t(y) * w; }
    const float *row(unsigned y) const { return v.data() + std::size_t(y) * w; }
};

struct Image3 {
    Plane p[3];
    void resize(unsigned w, unsigned h)
    {
        for (Plane &q : p) q.resize(w, h);
    }
    unsigned w() const { return p[0].w; }
    unsigned h() const { return p[0].h; }
};

// A truncated Gaussian kernel (2 diff + 1 taps, diff = max(1, int(2.25
// sigma))), computed as libjxl does: exp() of a double, stored as float.
std::vector<float> gauss_kernel(float sigma);

// The kernels of the five blurs, worked out once.
struct Kernels5 {
    std::vector<float> opsin, lf, hf, uhf, mask;
};
const Kernels5 &kernels();

// The 5-tap blur's weights (centre, 1 and 2 away): the kernel scaled by its
// sum, as libjxl's Blur() hands them to Separable5.
struct Blur5Weights {
    float w[3];
};
inline Blur5Weights blur5_weights(const std::vector<float> &kernel)
{
    float sum_weights = 0.0f;
    for (const float k : kernel) sum_weights += k;
    const float scale = 1.0f / sum_weights;
    return {{kernel[2] * scale, kernel[1] * scale, kernel[0] * scale}};
}

// The end of the columns Separable5's vector code computes at width w (the
// rest take its scalar code): libjxl's lanes, 8 for its AVX2 build (fused),
// 4 for SSE2; none below lanes + 2 columns.
inline int64_t blur5_vector_end(int64_t w, bool fused)
{
    const int64_t lanes = fused ? 8 : 4;
    if (w < lanes + 2) return 0;
    int64_t x = lanes;
    while (x + lanes + 2 <= w) x += lanes;
    if (w % lanes < 2) x += lanes;
    return x;
}

// ConvolutionWithTranspose's kernel scaled by its sum, taps 0 to len / 2.
inline void scaled_half(const std::vector<float> &kernel, float *out)
{
    float weight_no_border = 0.0f;
    for (const float k : kernel) weight_no_border += k;
    const float scale_no_border = 1.0f / weight_no_border;
    for (std::size_t i = 0; i <= kernel.size() / 2; i++) out[i] = kernel[i] * scale_no_border;
}

// MaltaDiffMapT's weights of the symmetric and the half-open differences.
struct MaltaNorms {
    float gt, lt;
};
inline MaltaNorms malta_norms(double mulli, double w_0gt1, double w_0lt1, double norm1)
{
    const double w_pre0gt1 = mulli * std::sqrt(kMaltaWeight0 * w_0gt1) / (kMaltaLen * 2 + 1);
    const double w_pre0lt1 = mulli * std::sqrt(kMaltaWeight1 * w_0lt1) / (kMaltaLen * 2 + 1);
    return {float(w_pre0gt1 * norm1), float(w_pre0lt1 * norm1)};
}

// The per-frame computation: two linear RGB pictures (values in [0, 1]) of one
// size, at least kMinSide in each direction, to libjxl's difference map.
class Engine {
public:
    virtual ~Engine() = default;
    virtual void diffmap(const Image3 &rgb0, const Image3 &rgb1, float intensity_target, Plane &out) = 0;
};

// `fused`: libjxl's Highway multiply-adds fused (its AVX2 build, 8 float
// lanes) or not (its SSE2/SSE4 build, 4 lanes), which moves the last bits.
// Every build of this library gives the same bits for either.
std::unique_ptr<Engine> make_engine(bool fused, Kernels which);

// The tool's 3-norm of the map, its sums of d^3, d^6 and d^12 over lanes of
// doubles (4 for the fused build, 2 otherwise) in libjxl's order.
double three_norm(const Plane &map, bool fused);
// Its end: the lanes' running totals of the rows and the sums of the columns
// past the last whole lane group, to the norm of a w x h map.
double finish_three_norm(const double (&totals)[3][4], const double (&tail)[3], std::size_t lanes, unsigned w,
                         unsigned h);

// AddSupersampled2x's weight of the full map, 1 - 0.3 w (w = 0.5), in double.
inline double subsampled_keep()
{
    return 1.0 - kHeuristicMixingValue * double(kSubsampledWeight);
}

namespace generic {
VMAF_INLINE float fmadd(float a, float b, float c) { return srgb::fma_by_double(a, b, c); }
#include "feature/butteraugli/butteraugli_kernels_tmpl.h"
}  // namespace generic

#if VMAF_X86
VMAF_BEGIN_TARGET("avx2,fma")
namespace avx2 {
VMAF_INLINE float fmadd(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
#include "feature/butteraugli/butteraugli_kernels_tmpl.h"
}  // namespace avx2
VMAF_END_TARGET
#endif

}  // namespace vmaf::butteraugli
