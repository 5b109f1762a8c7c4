// SPDX-License-Identifier: BSD-2-Clause-Patent
// The one backend chooser (ADR 0080): where a context computes its features,
// the CPU or a Vulkan device, by one rule. `cpu` stays on the CPU; `vulkan`
// puts the context on a device or fails with one line saying why; `auto` puts
// it on a device when one is usable, else leaves it on the CPU with one notice.
// Two callers ask: vmaf_init() for a caller that does not choose, through
// VMAF_BACKEND (cpu, vulkan or auto; unset: cpu) and VMAF_VULKAN_DEVICE
// (docs/environment.md, ADR 0063), on the process's shared device; and
// vmaf_init_backend() for a caller that does (the vmaf tool, the Python
// bindings), on a device of the context's own.
#pragma once

#include <string>

#include "libvmaf/libvmaf_vulkan.h"

namespace vmaf {

class Context;

enum class BackendMode { Cpu, Vulkan, Auto };

struct BackendRequest {
    BackendMode mode = BackendMode::Cpu;
    // Who asked, the prefix of every line: "VMAF_BACKEND=vulkan", "backend auto".
    std::string asker;
    // The environment's choice: the process's shared device (VMAF_VULKAN_DEVICE),
    // and a nonzero VmafConfiguration.gpumask is not honoured (ADR 0072). The
    // caller's choice: a device of the context's own made from `device`, and a
    // nonzero gpumask keeps the context off the GPU.
    bool from_environment = false;
    VmafVulkanConfiguration device{VMAF_VULKAN_DEVICE_AUTO, nullptr, 0, 0, {}};
};

// Where the chooser put the context.
struct BackendOutcome {
    bool vulkan = false;
    std::string device_name;  // on Vulkan
    std::string reason;       // on the CPU after auto: why no device was usable
};

// Attach the backend `req` asks for to `ctx` (before its first picture).
// Returns 0, or a negative errno with one log line: -ENODEV (or the device's
// own error) under vulkan when no device is usable, -ENOSYS under vulkan when
// the library was built without Vulkan, -EINVAL when the caller's gpumask
// keeps a context that must be on Vulkan off the GPU.
int choose_backend(Context &ctx, const BackendRequest &req, BackendOutcome *out);

// vmaf_init()'s choice: VMAF_BACKEND read and checked (an unknown value is
// -EINVAL with a log line naming the variable), then choose_backend().
int select_backend_from_env(Context &ctx);

}  // namespace vmaf
