// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "util/log.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <set>

namespace vmaf {

namespace {
// Errors are shown unless a context asked for silence.
std::atomic<int> g_level{VMAF_LOG_LEVEL_ERROR};
}  // namespace

void log_set_level(VmafLogLevel level)
{
    g_level.store(level, std::memory_order_relaxed);
}

namespace {
thread_local LogCapture *t_capture = nullptr;
}  // namespace

LogCapture::LogCapture() : outer_(t_capture) { t_capture = this; }

LogCapture::~LogCapture() { t_capture = outer_; }

void LogCapture::replay()
{
    LogCapture *self = t_capture;
    t_capture = outer_;
    for (const auto &[level, text] : lines_) log(level, "%s", text.c_str());
    lines_.clear();
    t_capture = self;
}

std::string LogCapture::first_error() const
{
    for (const auto &[level, text] : lines_) {
        if (level != VMAF_LOG_LEVEL_ERROR) continue;
        std::string s = text;
        while (!s.empty() && s.back() == '\n') s.pop_back();
        return s;
    }
    return "";
}

namespace {

void print(VmafLogLevel level, const char *text)
{
    static constexpr const char *kTag[] = {"", "ERROR", "WARNING", "INFO", "DEBUG"};
    std::fprintf(stderr, "libvmaf %s: %s", kTag[level], text);
}

}  // namespace

void log_env(VmafLogLevel level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    std::vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (!t_capture && level != VMAF_LOG_LEVEL_NONE) {
        static std::mutex *mutex = new std::mutex;  // never destroyed: logged from exit paths too
        static std::set<std::string> *said = new std::set<std::string>;
        std::lock_guard lock(*mutex);
        if (said->insert(buf).second) {
            print(level, buf);
            return;
        }
    }
    log(level, "%s", buf);
}

void log(VmafLogLevel level, const char *fmt, ...)
{
    if (LogCapture *c = t_capture) {
        va_list ap;
        va_start(ap, fmt);
        char buf[1024];
        std::vsnprintf(buf, sizeof(buf), fmt, ap);
        va_end(ap);
        c->lines_.emplace_back(level, buf);
        return;
    }
    if (level > g_level.load(std::memory_order_relaxed) || level == VMAF_LOG_LEVEL_NONE) return;
    static constexpr const char *kTag[] = {"", "ERROR", "WARNING", "INFO", "DEBUG"};
    std::fprintf(stderr, "libvmaf %s: ", kTag[level]);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
}

}  // namespace vmaf
