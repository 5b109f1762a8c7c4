// SPDX-License-Identifier: BSD-2-Clause-Patent
// The backend of a context whose caller does not choose one: VMAF_BACKEND
// (cpu, vulkan or auto; unset: cpu) and VMAF_VULKAN_DEVICE, read by vmaf_init
// (docs/environment.md, ADR 0063). Set to vulkan or auto it wins over a nonzero
// VmafConfiguration.gpumask (ADR 0072).
#pragma once

namespace vmaf {

class Context;

// Put `ctx` on the process's shared Vulkan device when VMAF_BACKEND asks for
// it. Returns 0, or a negative errno (with a log line naming the variable)
// when the value is unknown or, under `vulkan`, no device is usable. Under
// `auto` a device that cannot be used leaves the context on the CPU with one
// notice.
int select_backend_from_env(Context &ctx);

}  // namespace vmaf
