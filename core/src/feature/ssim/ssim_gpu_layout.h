// SPDX-License-Identifier: BSD-2-Clause-Patent
// The SSIM Vulkan twins' kernel layout, shared by ssim_vk.cpp and the kernels
// (exported to GLSL as ssim_tables.glsl by feature/ssim/ssim_tables_glsl.cpp).
#pragma once

namespace vmaf::ssim::gpu {

// ssim_terms.comp's workgroups of kTermsThreads threads over tiles of
// kTileW x kTileH outputs, ssim_sum.comp's of kSumThreads, and ssim_box.comp's
// and ssim_lpf.comp's of kPointTile x kPointTile outputs.
inline constexpr int kTermsThreads = 256;
inline constexpr int kTileW = 16, kTileH = 32;
inline constexpr int kSumThreads = 256;
inline constexpr int kPointTile = 16;

}  // namespace vmaf::ssim::gpu
