// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "util/process.h"

#include <cerrno>
#include <cstdlib>

#if defined(_WIN32)
#error "util/process.cpp: the Windows branch is not written yet"
#else
#include <pthread.h>
#include <unistd.h>
#endif

namespace vmaf {

#if !defined(_WIN32)

long process_id()
{
    return long(::getpid());
}

int call_around_fork(void (*prepare)(), void (*after)())
{
    return -::pthread_atfork(prepare, after, after);
}

int call_at_exit(void (*fn)())
{
    // In a shared library atexit() registers with the library's own handle:
    // the call also comes when the library is unloaded.
    return std::atexit(fn) ? -ENOMEM : 0;
}

#endif

}  // namespace vmaf
