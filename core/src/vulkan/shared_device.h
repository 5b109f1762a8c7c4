// SPDX-License-Identifier: BSD-2-Clause-Patent
// The process's own device: one State per device choice (VMAF_VULKAN_DEVICE),
// made on first use and shared by every context that VMAF_BACKEND puts on the
// GPU (ADR 0063). It outlives its last context, for the life of the process
// (ADR 0073): a caller that makes a context per frame pays for the device and
// its pipelines once. The process's exit destroys the idle ones (their pipeline
// cache is written first); a child made by fork() never uses or destroys its
// parent's, but makes its own.
#pragma once

#include <cstdint>

namespace vmaf::vk {

class State;
struct Config;

// A reference to the shared state for the device VMAF_VULKAN_DEVICE names
// (the best usable device when unset), created when there is none. Returns 0
// or the negative errno of State::create (whose log lines say why).
int shared_state_acquire(State **out);
// A device of one context's own (vmaf_init_backend), made with `cfg`: not
// shared, and destroyed by its one shared_state_release(), so that whoever holds
// a state of the context drops it the same way whichever kind it is.
int own_state_create(const Config &cfg, State **out);

// Drop one reference. A shared state stays when it was the last, for the next
// context; an own state is destroyed; a hung one is given up (never destroyed:
// the GPU may still use it).
void shared_state_release(State *state);

// Destroy the states no context uses now (their pipeline caches are written
// first); at exit, and for tests. Returns how many it destroyed.
unsigned shared_state_trim();

// For tests: shared states alive now, and created since the process started.
struct SharedStateStats {
    unsigned live = 0;
    uint64_t created = 0;
    unsigned references = 0;  // of the live ones, together
    unsigned idle = 0;        // of the live ones, those no context uses
};
SharedStateStats shared_state_stats();

}  // namespace vmaf::vk
