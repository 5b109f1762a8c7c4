// Command recording and submission.
//
// FrameRing: one command pool and buffer per frame-in-flight slot and one
// timeline semaphore. Submission k signals value k; a slot remembers the value
// of its last submission, so reusing it waits for exactly that work (usually
// long done) and nothing else: no vkQueueWaitIdle, no fences to reset.
//
// A slot may also send a copy ahead on the state's copy queue (State::
// has_copy_queue): begin_copy() and submit_copy() record and submit a second
// command buffer there, which signals the ring's copy timeline; the slot's next
// submit() waits for that copy before its compute work. A slot's submit() is its
// last word: reusing the slot waits for it, and so for its copy too.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "vulkan/vk.h"

namespace vmaf::vk {

class State;

// A timeline semaphore value to wait for (before `stage`) or to signal.
struct SemaphoreOp {
    VkSemaphore semaphore;
    uint64_t value;
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
};

class FrameRing {
public:
    static int create(State &st, unsigned slots, std::unique_ptr<FrameRing> *out);
    ~FrameRing();  // waits for the ring's work
    FrameRing(const FrameRing &) = delete;
    FrameRing &operator=(const FrameRing &) = delete;

    unsigned size() const { return unsigned(slots_.size()); }

    // Wait for the slot's previous submission, reset its pool and begin
    // recording its command buffer.
    int begin(unsigned slot, VkCommandBuffer *cmd);
    // End the slot's command buffer and submit it, after `waits` and signalling
    // `signals` besides the ring's own semaphore (timeline semaphores).
    int submit(unsigned slot, std::span<const SemaphoreOp> waits = {}, std::span<const SemaphoreOp> signals = {});
    // After begin(): begin recording the slot's copy command buffer.
    int begin_copy(unsigned slot, VkCommandBuffer *cmd);
    // End it and submit it to the copy queue, after `waits` and signalling
    // `signals` and the ring's copy timeline; the slot's submit() waits for it
    // (at `consumer` stages).
    int submit_copy(unsigned slot, std::span<const SemaphoreOp> waits, std::span<const SemaphoreOp> signals,
                    VkPipelineStageFlags consumer);
    // Whether the slot's last submission has completed (true if none is pending).
    int poll(unsigned slot, bool *done);
    // Block until the slot's last submission has completed.
    int wait(unsigned slot);
    int wait_all();

private:
    struct Slot {
        VkCommandPool pool = VK_NULL_HANDLE;
        VkCommandBuffer cmd = VK_NULL_HANDLE, copy_cmd = VK_NULL_HANDLE;
        uint64_t value = 0;  // timeline value its last submission signals
        SemaphoreOp copy{};  // the copy its next submit() waits for (value 0: none)
    };
    explicit FrameRing(State &st) : st_(st) {}
    int wait_value(VkSemaphore sem, uint64_t value);

    State &st_;
    VkSemaphore timeline_ = VK_NULL_HANDLE, copy_timeline_ = VK_NULL_HANDLE;
    uint64_t submitted_ = 0;       // last value handed to a submission
    uint64_t copies_submitted_ = 0;  // likewise on the copy timeline
    std::vector<Slot> slots_;
};

// Record, submit and wait for one command buffer: set-up work and tests, never
// the per-frame path.
int run_once(State &st, const std::function<void(VkCommandBuffer)> &record);

// A global memory barrier: everything before it in the queue at `src` stages
// (their `src_access` writes) happens before `dst` stages access memory.
void memory_barrier(const State &st, VkCommandBuffer cmd, VkPipelineStageFlags src,
                    VkAccessFlags src_access, VkPipelineStageFlags dst, VkAccessFlags dst_access);

// The common case between two dependent dispatches.
void compute_barrier(const State &st, VkCommandBuffer cmd);

}  // namespace vmaf::vk
