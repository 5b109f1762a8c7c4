// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "context/backend_select.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "context/context.h"
#include "util/env.h"
#include "util/log.h"

#if VMAF_HAVE_VULKAN
#include "vulkan/state.h"
#include "vulkan/shared_device.h"
#endif

namespace vmaf {

void vk::SharedStateRelease::operator()(vk::State *st) const
{
#if VMAF_HAVE_VULKAN
    vk::shared_state_release(st);
#else
    (void)st;
#endif
}

int select_backend_from_env(Context &ctx)
{
    const int choice = env_choice("VMAF_BACKEND", {"cpu", "vulkan", "auto"});
    if (choice == -2) {
        log_env(VMAF_LOG_LEVEL_ERROR, "vmaf_init: VMAF_BACKEND=%s is not a backend; the values are cpu, vulkan "
                                      "and auto (unset: cpu)\n", env_get("VMAF_BACKEND"));
        return -EINVAL;
    }
    if (choice <= 0) return 0;  // unset, "" or cpu
    const bool required = choice == 1;
    const char *v = required ? "vulkan" : "auto";
    // A nonzero gpumask keeps libvmaf off its GPU; here the variable is the
    // user's own word for this process and wins (ADR 0072). Callers pass a
    // mask they never meant (aomenc leaves it uninitialised), so it is said once.
    if (const uint64_t mask = ctx.config().gpumask) {
        log_env(VMAF_LOG_LEVEL_INFO, "VMAF_BACKEND=%s: VmafConfiguration.gpumask 0x%llx is not honoured; the "
                                     "environment chooses the backend\n", v, (unsigned long long)mask);
    }
#if VMAF_HAVE_VULKAN
    vk::State *st = nullptr;
    int err;
    {
        // Under auto a device that cannot be used is one notice, not the lines
        // of each step that failed.
        std::optional<LogCapture> quiet;
        if (!required) quiet.emplace();
        err = vk::shared_state_acquire(&st);
        if (err && !required) {
            const std::string why = quiet->first_error();
            quiet.reset();
            // One notice a process: FFmpeg, for one, makes more than one context
            // per filter graph. Later contexts say it at the info level.
            static std::atomic<bool> noticed{false};
            const char *reason = why.empty() ? std::strerror(-err) : why.c_str();
            if (!noticed.exchange(true))
                log_env(VMAF_LOG_LEVEL_WARNING, "VMAF_BACKEND=auto: no usable Vulkan device (%s); this context "
                                                "scores on the CPU\n", reason);
            else
                log(VMAF_LOG_LEVEL_INFO, "VMAF_BACKEND=auto: no usable Vulkan device (%s); this context scores "
                                         "on the CPU\n", reason);
            return 0;
        }
        if (quiet) quiet->replay();
    }
    if (err) {
        log_env(VMAF_LOG_LEVEL_ERROR, "vmaf_init: VMAF_BACKEND=vulkan: no usable Vulkan device (%s); set "
                                      "VMAF_BACKEND=cpu or auto to score on the CPU\n", std::strerror(-err));
        return err;
    }
    const std::string name = st->info().name;
    if (int e = ctx.use_shared_vulkan_state(st)) return e;  // it dropped the reference
    log(VMAF_LOG_LEVEL_INFO, "VMAF_BACKEND=%s: this context scores on Vulkan (%s)\n", v, name.c_str());
    return 0;
#else
    if (required) {
        log_env(VMAF_LOG_LEVEL_ERROR, "vmaf_init: VMAF_BACKEND=vulkan: this libvmaf was built without Vulkan\n");
        return -ENOSYS;
    }
    log_env(VMAF_LOG_LEVEL_WARNING, "VMAF_BACKEND=auto: this libvmaf was built without Vulkan; this context "
                                    "scores on the CPU\n");
    return 0;
#endif
}

}  // namespace vmaf
