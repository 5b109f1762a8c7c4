// SPDX-License-Identifier: BSD-2-Clause-Patent
// The exception barrier of the C ABI: every export that may allocate or call
// code that throws runs its body through guarded(), so that no C++ exception
// crosses extern "C". std::bad_alloc becomes -ENOMEM, any other exception
// -EINVAL, each with a log line naming the export.
#pragma once

#include <cerrno>
#include <exception>
#include <new>

#include "util/log.h"

namespace vmaf::api {

template <typename F>
int guarded(const char *fn, F &&f) noexcept
{
    try {
        return f();
    } catch (const std::bad_alloc &) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: out of memory\n", fn);
        return -ENOMEM;
    } catch (const std::exception &e) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: internal error: %s\n", fn, e.what());
        return -EINVAL;
    } catch (...) {
        log(VMAF_LOG_LEVEL_ERROR, "%s: internal error\n", fn);
        return -EINVAL;
    }
}

}  // namespace vmaf::api
