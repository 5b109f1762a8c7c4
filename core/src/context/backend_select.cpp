// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "context/backend_select.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
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

namespace {

#if VMAF_HAVE_VULKAN
// A device of the context's own, as vmaf_vulkan_state_init() makes one.
int create_own_state(const VmafVulkanConfiguration &c, vk::State **out)
{
    vk::Config cfg;
    cfg.device_index = c.device_index;
    if (c.device_name) cfg.device_name = c.device_name;
    cfg.validation = c.enable_validation != 0;
    if (c.frames_in_flight) cfg.frames_in_flight = c.frames_in_flight;
    return vk::own_state_create(cfg, out);  // destroyed by the context's shared_state_release()
}
#endif

// `what` of auto's notice: once a process a warning (FFmpeg, for one, makes
// more than one context per filter graph; the bindings one per pair), later
// contexts at the info level. The environment's first one is printed whatever
// the level (a silenced caller still learns why VMAF_BACKEND did nothing).
void notice_cpu(const BackendRequest &req, const std::string &what)
{
    static std::atomic<bool> noticed{false};
    const char *fmt = "%s: %s; this context scores on the CPU\n";
    if (noticed.exchange(true))
        log(VMAF_LOG_LEVEL_INFO, fmt, req.asker.c_str(), what.c_str());
    else if (req.from_environment)
        log_env(VMAF_LOG_LEVEL_WARNING, fmt, req.asker.c_str(), what.c_str());
    else
        log(VMAF_LOG_LEVEL_WARNING, fmt, req.asker.c_str(), what.c_str());
}

// A line of a choice that failed: the environment's first one is printed
// whatever the level.
void say_error(const BackendRequest &req, const std::string &line)
{
    const char *fn = req.from_environment ? "vmaf_init" : "vmaf_init_backend";
    if (req.from_environment)
        log_env(VMAF_LOG_LEVEL_ERROR, "%s: %s: %s\n", fn, req.asker.c_str(), line.c_str());
    else
        log(VMAF_LOG_LEVEL_ERROR, "%s: %s: %s\n", fn, req.asker.c_str(), line.c_str());
}

}  // namespace

int choose_backend(Context &ctx, const BackendRequest &req, BackendOutcome *out)
{
    *out = BackendOutcome{};
    if (req.mode == BackendMode::Cpu) return 0;
    const bool required = req.mode == BackendMode::Vulkan;
    if (const uint64_t mask = ctx.config().gpumask) {
        char hex[24];
        std::snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)mask);
        if (req.from_environment) {
            // A nonzero gpumask keeps libvmaf off its GPU; the variable is the
            // user's own word for this process and wins (ADR 0072). Callers pass
            // a mask they never meant (aomenc leaves it uninitialised), so it is
            // said once.
            log_env(VMAF_LOG_LEVEL_INFO, "%s: VmafConfiguration.gpumask %s is not honoured; the environment "
                                         "chooses the backend\n", req.asker.c_str(), hex);
        } else {
            const std::string why = std::string("VmafConfiguration.gpumask ") + hex + " keeps this context off the GPU";
            out->reason = why;
            if (required) {
                say_error(req, why + "; pass 0 to score on Vulkan");
                return -EINVAL;
            }
            notice_cpu(req, why);
            return 0;
        }
    }
#if VMAF_HAVE_VULKAN
    vk::State *st = nullptr;
    int err;
    std::string why;
    {
        // Under auto a device that cannot be used is one notice, not the lines
        // of each step that failed; under vulkan those lines are the detail.
        // (Not under vulkan: the environment's lines, such as a VMAF_VULKAN_DEVICE
        // that names no device, are printed whatever the level, which a replay
        // would not keep.)
        std::optional<LogCapture> quiet;
        if (!required) quiet.emplace();
        err = req.from_environment ? vk::shared_state_acquire(&st) : create_own_state(req.device, &st);
        if (err && quiet) why = quiet->first_error();
        if (quiet && !err) quiet->replay();
    }
    if (err) {
        if (why.empty()) why = std::strerror(-err);
        out->reason = why;
        if (!required) {
            notice_cpu(req, "no usable Vulkan device (" + why + ")");
            return 0;
        }
        say_error(req, "no usable Vulkan device (" + why + "); " +
                           (req.from_environment ? "set VMAF_BACKEND=cpu or auto" : "choose cpu or auto") +
                           " to score on the CPU");
        return err;
    }
    const std::string name = st->info().name;
    if (int e = ctx.use_shared_vulkan_state(st)) return e;  // it dropped the reference
    out->vulkan = true;
    out->device_name = name;
    // The environment's choice is news to the caller; the caller's own is not.
    log(req.from_environment ? VMAF_LOG_LEVEL_INFO : VMAF_LOG_LEVEL_DEBUG, "%s: this context scores on Vulkan (%s)\n",
        req.asker.c_str(), name.c_str());
    return 0;
#else
    out->reason = "this libvmaf was built without Vulkan";
    if (required) {
        say_error(req, out->reason);
        return -ENOSYS;
    }
    notice_cpu(req, out->reason);
    return 0;
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
    BackendRequest req;
    req.mode = choice == 1 ? BackendMode::Vulkan : BackendMode::Auto;
    req.asker = choice == 1 ? "VMAF_BACKEND=vulkan" : "VMAF_BACKEND=auto";
    req.from_environment = true;
    BackendOutcome out;
    return choose_backend(ctx, req, &out);
}

}  // namespace vmaf
