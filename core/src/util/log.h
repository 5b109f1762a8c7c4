// Library log: "libvmaf ERROR: ..." lines on stderr, filtered by level.
#pragma once

#include "libvmaf/libvmaf.h"

namespace vmaf {

void log_set_level(VmafLogLevel level);
[[gnu::format(printf, 2, 3)]] void log(VmafLogLevel level, const char *fmt, ...);

}  // namespace vmaf
