// SPDX-License-Identifier: BSD-2-Clause-Patent
// Command recording and submission.
//
// FrameRing: one command pool and buffer per frame-in-flight slot and one
// timeline semaphore. Submission k signals value k; a slot remembers the value
// of its last submission, so reusing it waits for exactly that work (usually
// long done) and nothing else: no vkQueueWaitIdle, no fences to reset.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "vulkan/memory.h"
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
    // `lane`: the ring submits to the state's transfer lane (State::transfer_lane,
    // which must not be None) instead of the compute queue.
    static int create(State &st, unsigned slots, std::unique_ptr<FrameRing> *out, bool lane = false);
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
    // Whether the slot's last submission has completed (true if none is pending).
    int poll(unsigned slot, bool *done);
    // Block until the slot's last submission has completed.
    int wait(unsigned slot);
    int wait_all();
    // The slot's last submission as a wait for another submission (before `stage`).
    SemaphoreOp done(unsigned slot, VkPipelineStageFlags stage) const
    {
        return {timeline_, slots_[slot].value, stage};
    }

private:
    struct Slot {
        VkCommandPool pool = VK_NULL_HANDLE;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        uint64_t value = 0;  // timeline value its last submission signals
    };
    FrameRing(State &st, bool lane) : st_(st), lane_(lane) {}
    int wait_value(uint64_t value);

    State &st_;
    bool lane_;
    VkSemaphore timeline_ = VK_NULL_HANDLE;
    uint64_t submitted_ = 0;  // last value handed to a submission
    std::vector<Slot> slots_;
};

// Record, submit and wait for one command buffer: set-up work and tests, never
// the per-frame path.
int run_once(State &st, const std::function<void(VkCommandBuffer)> &record);

// A device-local storage buffer holding `bytes` (a whole number of 32-bit
// words), written once and only read by kernels after it: a feature's constant
// tables. Up to 256 KiB they are written from the command buffer, larger ones
// through staging memory (ADR 0068). One upload per device and content: the
// device's TableShelf hands the same buffer to every later call with the same
// bytes (a device's second context makes no set-up submission for its tables).
int upload_table(State &st, std::span<const std::byte> bytes, std::shared_ptr<const Buffer> *out);

// The tables uploaded on one device (State::tables()), kept until the device
// goes. At most kMaxEntries; past that a table is uploaded for its caller alone.
class TableShelf {
public:
    static constexpr size_t kMaxEntries = 64;
    explicit TableShelf(State &st) : st_(st) {}
    TableShelf(const TableShelf &) = delete;
    TableShelf &operator=(const TableShelf &) = delete;

    int get(std::span<const std::byte> bytes, std::shared_ptr<const Buffer> *out);
    uint64_t uploads() const;  // made so far (diagnostics, tests)

private:
    struct Entry {
        std::vector<std::byte> bytes;
        std::shared_ptr<const Buffer> buffer;
    };
    State &st_;
    mutable std::mutex mutex_;
    std::vector<Entry> entries_;
    uint64_t uploads_ = 0;
};

// A global memory barrier: everything before it in the queue at `src` stages
// (their `src_access` writes) happens before `dst` stages access memory.
void memory_barrier(const State &st, VkCommandBuffer cmd, VkPipelineStageFlags src,
                    VkAccessFlags src_access, VkPipelineStageFlags dst, VkAccessFlags dst_access);

// The common case between two dependent dispatches.
void compute_barrier(const State &st, VkCommandBuffer cmd);

}  // namespace vmaf::vk
