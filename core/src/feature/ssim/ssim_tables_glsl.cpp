// SPDX-License-Identifier: BSD-2-Clause-Patent
// ssim_tables.glsl: the float SSIM family's constants for the Vulkan twins, as
// the bit patterns of the very floats the CPU code uses (kernels turn them back
// with uintBitsToFloat), so no decimal literal is parsed twice.
#include <bit>
#include <cstdint>
#include <vector>

#include "feature/ssim/ssim_gpu_layout.h"
#include "feature/ssim/ssim_kernel.h"
#include "feature/ssim/ssim_tables.h"
#include "vulkan/glsl_writer.h"

int main()
{
    using namespace vmaf;
    glsl::Writer w("SSIM_TABLES_GLSL", "core/src/feature/ssim/ssim_tables.h");
    w.constant("kSsimWindow", int32_t(ssim::kWindow));
    std::vector<uint32_t> gauss;
    for (float t : ssim::kGaussian) gauss.push_back(std::bit_cast<uint32_t>(t));
    w.array("kSsimGaussianBits", gauss);
    w.constant("kSsimC1Bits", std::bit_cast<uint32_t>(ssim::kC1));
    w.constant("kSsimC2Bits", std::bit_cast<uint32_t>(ssim::kC2));
    w.constant("kSsimC3Bits", std::bit_cast<uint32_t>(ssim::kC3));
    w.constant("kSsimLpf", int32_t(ssim::kLpf));
    // Row v, column t of the low-pass filter at kSsimLowPassBits[v * kSsimLpf + t].
    std::vector<uint32_t> lpf;
    for (const auto &row : ssim::kLowPass)
        for (float t : row) lpf.push_back(std::bit_cast<uint32_t>(t));
    w.array("kSsimLowPassBits", lpf);

    // The kernels' layout (ssim_gpu_layout.h).
    w.constant("kSsimTermsThreads", int32_t(ssim::gpu::kTermsThreads));
    w.constant("kSsimTileW", int32_t(ssim::gpu::kTileW));
    w.constant("kSsimTileH", int32_t(ssim::gpu::kTileH));
    w.constant("kSsimSumThreads", int32_t(ssim::gpu::kSumThreads));
    w.constant("kSsimPointTile", int32_t(ssim::gpu::kPointTile));
    return 0;
}
