// The process's own device: one State per device choice (VMAF_VULKAN_DEVICE),
// made on first use and shared by every context that VMAF_BACKEND puts on the
// GPU, freed when the last of them closes (ADR 0063).
#pragma once

#include <cstdint>

namespace vmaf::vk {

class State;

// A reference to the shared state for the device VMAF_VULKAN_DEVICE names
// (the best usable device when unset), created when there is none. Returns 0
// or the negative errno of State::create (whose log lines say why).
int shared_state_acquire(State **out);
// Drop one reference; the last one destroys the state (its pipeline cache is
// written first). Every context using it must be closed.
void shared_state_release(State *state);

// For tests: shared states alive now, and created since the process started.
struct SharedStateStats {
    unsigned live = 0;
    uint64_t created = 0;
    unsigned references = 0;  // of the live ones, together
};
SharedStateStats shared_state_stats();

}  // namespace vmaf::vk
