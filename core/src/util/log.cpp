#include "util/log.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>

namespace vmaf {

namespace {
// Errors are shown unless a context asked for silence.
std::atomic<int> g_level{VMAF_LOG_LEVEL_ERROR};
}  // namespace

void log_set_level(VmafLogLevel level)
{
    g_level.store(level, std::memory_order_relaxed);
}

void log(VmafLogLevel level, const char *fmt, ...)
{
    if (level > g_level.load(std::memory_order_relaxed) || level == VMAF_LOG_LEVEL_NONE) return;
    static constexpr const char *kTag[] = {"", "ERROR", "WARNING", "INFO", "DEBUG"};
    std::fprintf(stderr, "libvmaf %s: ", kTag[level]);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
}

}  // namespace vmaf
