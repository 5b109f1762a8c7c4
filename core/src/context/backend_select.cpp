#include "context/backend_select.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "context/context.h"
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
    // libvmaf's meaning: a nonzero gpumask keeps the context off every GPU.
    if (ctx.config().gpumask) return 0;
    const char *v = std::getenv("VMAF_BACKEND");
    if (!v || !*v || !std::strcmp(v, "cpu")) return 0;
    const bool required = !std::strcmp(v, "vulkan");
    if (!required && std::strcmp(v, "auto") != 0) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_init: VMAF_BACKEND=%s is not a backend; the values are cpu, vulkan and "
                                  "auto (unset: cpu)\n", v);
        return -EINVAL;
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
            log(noticed.exchange(true) ? VMAF_LOG_LEVEL_INFO : VMAF_LOG_LEVEL_WARNING,
                "VMAF_BACKEND=auto: no usable Vulkan device (%s); this context scores on the CPU\n",
                why.empty() ? std::strerror(-err) : why.c_str());
            return 0;
        }
        if (quiet) quiet->replay();
    }
    if (err) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_init: VMAF_BACKEND=vulkan: no usable Vulkan device (%s); set "
                                  "VMAF_BACKEND=cpu or auto to score on the CPU\n", std::strerror(-err));
        return err;
    }
    const std::string name = st->info().name;
    if (int e = ctx.use_shared_vulkan_state(st)) return e;  // it dropped the reference
    log(VMAF_LOG_LEVEL_INFO, "VMAF_BACKEND=%s: this context scores on Vulkan (%s)\n", v, name.c_str());
    return 0;
#else
    if (required) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_init: VMAF_BACKEND=vulkan: this libvmaf was built without Vulkan\n");
        return -ENOSYS;
    }
    log(VMAF_LOG_LEVEL_WARNING, "VMAF_BACKEND=auto: this libvmaf was built without Vulkan; this context scores "
                                "on the CPU\n");
    return 0;
#endif
}

}  // namespace vmaf
