// SPDX-License-Identifier: BSD-2-Clause-Patent
// Library log: "libvmaf ERROR: ..." lines on stderr, filtered by level.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "libvmaf/libvmaf.h"

namespace vmaf {

void log_set_level(VmafLogLevel level);
[[gnu::format(printf, 2, 3)]] void log(VmafLogLevel level, const char *fmt, ...);
// A line the environment caused (a variable's value refused, a device it asked
// for missing): the first time a process logs this text it is printed whatever
// the level a context set (a caller that silences the library still learns why
// its VMAF_BACKEND did nothing); later times it is logged as log() does.
[[gnu::format(printf, 2, 3)]] void log_env(VmafLogLevel level, const char *fmt, ...);

// While one lives, lines logged on its thread are kept instead of printed (a
// step that may fail quietly, such as VMAF_BACKEND=auto trying the GPU);
// replay() prints them as they would have been.
class LogCapture {
public:
    LogCapture();
    ~LogCapture();
    LogCapture(const LogCapture &) = delete;
    LogCapture &operator=(const LogCapture &) = delete;
    void replay();
    // The first line kept at error level, without its newline ("" if none).
    std::string first_error() const;

private:
    friend void log(VmafLogLevel, const char *, ...);
    LogCapture *outer_;
    std::vector<std::pair<VmafLogLevel, std::string>> lines_;
};

}  // namespace vmaf
