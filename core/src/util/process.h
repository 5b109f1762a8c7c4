// SPDX-License-Identifier: BSD-2-Clause-Patent
// The process the library runs in: its id (a child made by fork() has another),
// and hooks around fork() and exit. The system calls live in process.cpp.
#pragma once

namespace vmaf {

// This process's id.
long process_id();

// Calls `prepare` in the thread that forks, before the fork, and `after` in
// both processes after it (pthread_atfork): a lock taken in `prepare` and let
// go in `after` is never inherited held. Returns 0 or a negative errno.
int call_around_fork(void (*prepare)(), void (*after)());

// Calls `fn` when the process exits normally (or this library is unloaded),
// before the destructors of the libraries loaded before the call (a Vulkan
// driver's among them). Returns 0 or a negative errno.
int call_at_exit(void (*fn)());

}  // namespace vmaf
