// SPDX-License-Identifier: BSD-2-Clause-Patent
// Whether a device's fma() rounds once, for the kernels of the features that
// follow libjxl's multiply-adds (ssimulacra2, butteraugli): they take libjxl's
// fused multiply-add from fma_native() where it does, else from fma_once()
// (fma_once.glsl).
#pragma once

namespace vmaf::vk {

class State;

// Whether the kernels take libjxl's fused multiply-add from the device's fma()
// (ADR 0086): the verdict of the probe (fma_probe.comp), worked out once per
// device; false where VMAF_VULKAN_NATIVE_FMA=0 turns it off.
bool native_fma(State &st);

}  // namespace vmaf::vk
