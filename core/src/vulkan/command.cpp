// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/command.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "util/log.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

// Long enough for a large frame on a software rasterizer under a sanitizer; a GPU
// that takes longer has hung.
constexpr uint64_t kWaitTimeoutNs = 120ull * 1000 * 1000 * 1000;

}  // namespace

int FrameRing::create(State &st, unsigned slots, std::unique_ptr<FrameRing> *out, bool lane)
{
    std::unique_ptr<FrameRing> ring(new FrameRing(st, lane));
    const auto &fn = st.fn();
    VkSemaphoreTypeCreateInfo ti = make<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
    ti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    ti.initialValue = 0;
    VkSemaphoreCreateInfo si = make<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
    si.pNext = &ti;
    if (int err = check_result(fn.vkCreateSemaphore(st.device(), &si, nullptr, &ring->timeline_), "vkCreateSemaphore"))
        return err;

    ring->slots_.resize(slots);
    for (Slot &s : ring->slots_) {
        VkCommandPoolCreateInfo pi = make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
        pi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        pi.queueFamilyIndex = lane ? st.transfer_family() : st.queue_family();
        if (int err = check_result(fn.vkCreateCommandPool(st.device(), &pi, nullptr, &s.pool), "vkCreateCommandPool"))
            return err;
        VkCommandBufferAllocateInfo ai = make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
        ai.commandPool = s.pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        if (int err = check_result(fn.vkAllocateCommandBuffers(st.device(), &ai, &s.cmd), "vkAllocateCommandBuffers"))
            return err;
    }
    *out = std::move(ring);
    return 0;
}

FrameRing::~FrameRing()
{
    if (st_.hung()) return;  // the GPU may still run these command buffers
    wait_all();
    const auto &fn = st_.fn();
    for (Slot &s : slots_)
        if (s.pool) fn.vkDestroyCommandPool(st_.device(), s.pool, nullptr);  // frees its buffer
    if (timeline_) fn.vkDestroySemaphore(st_.device(), timeline_, nullptr);
}

int FrameRing::wait_value(uint64_t value)
{
    if (!value) return 0;
    VkSemaphoreWaitInfo wi = make<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
    wi.semaphoreCount = 1;
    wi.pSemaphores = &timeline_;
    wi.pValues = &value;
    VkResult r = st_.injected(State::Fault::Wait);
    if (r == VK_SUCCESS) r = st_.fn().vkWaitSemaphores(st_.device(), &wi, kWaitTimeoutNs);
    if (r == VK_TIMEOUT) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: a frame did not finish in %llu s; the GPU is hung, and nothing it may "
                                  "still use will be freed\n",
            (unsigned long long)(kWaitTimeoutNs / 1000000000ull));
        st_.mark_hung();
        return -ETIMEDOUT;
    }
    return check_result(r, "vkWaitSemaphores");
}

int FrameRing::begin(unsigned slot, VkCommandBuffer *cmd)
{
    Slot &s = slots_[slot];
    if (int err = wait_value(s.value)) return err;
    const auto &fn = st_.fn();
    if (int err = check_result(fn.vkResetCommandPool(st_.device(), s.pool, 0), "vkResetCommandPool")) return err;
    VkCommandBufferBeginInfo bi = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (int err = check_result(fn.vkBeginCommandBuffer(s.cmd, &bi), "vkBeginCommandBuffer")) return err;
    *cmd = s.cmd;
    return 0;
}

int FrameRing::submit(unsigned slot, std::span<const SemaphoreOp> waits, std::span<const SemaphoreOp> signals)
{
    Slot &s = slots_[slot];
    if (int err = check_result(st_.fn().vkEndCommandBuffer(s.cmd), "vkEndCommandBuffer")) return err;
    const uint64_t value = submitted_ + 1;
    std::vector<VkSemaphore> wait_sems, signal_sems{timeline_};
    std::vector<uint64_t> wait_values, signal_values{value};
    std::vector<VkPipelineStageFlags> wait_stages;
    for (const SemaphoreOp &w : waits) {
        wait_sems.push_back(w.semaphore);
        wait_values.push_back(w.value);
        wait_stages.push_back(w.stage);
    }
    for (const SemaphoreOp &g : signals) {
        signal_sems.push_back(g.semaphore);
        signal_values.push_back(g.value);
    }
    VkTimelineSemaphoreSubmitInfo ti = make<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
    ti.waitSemaphoreValueCount = uint32_t(wait_values.size());
    ti.pWaitSemaphoreValues = wait_values.data();
    ti.signalSemaphoreValueCount = uint32_t(signal_values.size());
    ti.pSignalSemaphoreValues = signal_values.data();
    VkSubmitInfo si = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.pNext = &ti;
    si.waitSemaphoreCount = uint32_t(wait_sems.size());
    si.pWaitSemaphores = wait_sems.data();
    si.pWaitDstStageMask = wait_stages.data();
    si.commandBufferCount = 1;
    si.pCommandBuffers = &s.cmd;
    si.signalSemaphoreCount = uint32_t(signal_sems.size());
    si.pSignalSemaphores = signal_sems.data();
    const VkResult r = lane_ ? st_.submit(st_.transfer_lane(), si) : st_.submit(si);
    if (int err = check_result(r, "vkQueueSubmit")) return err;
    submitted_ = value;
    s.value = value;
    return 0;
}

int FrameRing::poll(unsigned slot, bool *done)
{
    uint64_t now = 0;
    if (int err = check_result(st_.fn().vkGetSemaphoreCounterValue(st_.device(), timeline_, &now),
                               "vkGetSemaphoreCounterValue"))
        return err;
    *done = now >= slots_[slot].value;
    return 0;
}

int FrameRing::wait(unsigned slot) { return wait_value(slots_[slot].value); }

int FrameRing::wait_all() { return timeline_ ? wait_value(submitted_) : 0; }

int run_once(State &st, const std::function<void(VkCommandBuffer)> &record)
{
    std::unique_ptr<FrameRing> ring;
    if (int err = FrameRing::create(st, 1, &ring)) return err;
    VkCommandBuffer cmd;
    if (int err = ring->begin(0, &cmd)) return err;
    record(cmd);
    if (int err = ring->submit(0)) return err;
    return ring->wait(0);
}

namespace {

// Tables up to this size ride in the command buffer (vkCmdUpdateBuffer, at most
// 64 KiB a command): no staging memory. A staging buffer would open a host-visible
// block of its own only to free it again, which took most of the 15 ms that
// VIF's table cost a process's first frame on an H200 (ADR 0068).
constexpr VkDeviceSize kInlineTableBytes = VkDeviceSize(256) << 10;
constexpr VkDeviceSize kUpdateChunk = VkDeviceSize(64) << 10;

int upload_new_table(State &st, std::span<const std::byte> bytes, Buffer *out)
{
    const VkDeviceSize size = bytes.size();
    Allocator &a = st.allocator();
    // Read by kernels; copied from only by tests, which read it back.
    const VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    if (int err = a.create_buffer(size, usage, MemoryUse::Device, out)) return err;
    Buffer staging;
    if (size > kInlineTableBytes) {
        if (int err = a.create_buffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload, &staging)) return err;
        std::memcpy(staging.data(), bytes.data(), size);
        if (int err = staging.flush()) return err;
    }
    return run_once(st, [&](VkCommandBuffer cmd) {
        if (staging) {
            const VkBufferCopy region = {0, 0, size};
            st.fn().vkCmdCopyBuffer(cmd, staging.get(), out->get(), 1, &region);
        } else {
            for (VkDeviceSize at = 0; at < size; at += kUpdateChunk)
                st.fn().vkCmdUpdateBuffer(cmd, out->get(), at, std::min(kUpdateChunk, size - at), bytes.data() + at);
        }
        memory_barrier(st, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    });
}

}  // namespace

int TableShelf::get(std::span<const std::byte> bytes, std::shared_ptr<const Buffer> *out)
{
    // Under the lock: two contexts starting at once upload a table once. The
    // upload's submission waits for nothing but itself.
    std::lock_guard lock(mutex_);
    for (const Entry &e : entries_)
        if (e.bytes.size() == bytes.size() && std::equal(bytes.begin(), bytes.end(), e.bytes.begin())) {
            *out = e.buffer;
            return 0;
        }
    auto buffer = std::make_shared<Buffer>();
    if (int err = upload_new_table(st_, bytes, buffer.get())) return err;
    uploads_++;
    if (entries_.size() < kMaxEntries) entries_.push_back({std::vector<std::byte>(bytes.begin(), bytes.end()), buffer});
    *out = std::move(buffer);
    return 0;
}

uint64_t TableShelf::uploads() const
{
    std::lock_guard lock(mutex_);
    return uploads_;
}

int upload_table(State &st, std::span<const std::byte> bytes, std::shared_ptr<const Buffer> *out)
{
    if (bytes.empty() || bytes.size() % 4 != 0) return -EINVAL;
    return st.tables().get(bytes, out);
}

void memory_barrier(const State &st, VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags src_access,
                    VkPipelineStageFlags dst, VkAccessFlags dst_access)
{
    VkMemoryBarrier b = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    b.srcAccessMask = src_access;
    b.dstAccessMask = dst_access;
    st.fn().vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &b, 0, nullptr, 0, nullptr);
}

void compute_barrier(const State &st, VkCommandBuffer cmd)
{
    memory_barrier(st, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

}  // namespace vmaf::vk
