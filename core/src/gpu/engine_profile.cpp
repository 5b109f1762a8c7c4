// SPDX-License-Identifier: BSD-2-Clause-Patent
// The frame engine's timestamps: GPU time per frame and, in profile mode,
// one interval per part of the frame (GpuProfile).
#include "gpu/engine.h"

#include <algorithm>

#include "util/log.h"
#include "vulkan/command.h"
#include "vulkan/state.h"

namespace vmaf::vk {

int Engine::init_timestamps()
{
    if (!st_.timestamps()) return 0;
    if (st_.profiling()) {
        // The frame's parts in recording order (record_and_submit); "host copy"
        // joins them if enable_host_frames() is called.
        profile_.intervals.push_back({"upload"});
        for (unsigned stage = 0; stage < stages_; stage++) {
            for (const Entry &e : features_)
                if (stage < e.feature->carried_stages()) profile_.intervals.push_back({e.name, int(stage), true});
            for (const Entry &e : features_) {
                if (stage >= e.feature->stages()) continue;
                // A stage with steps: one interval per step, named feature:step.
                const std::vector<std::string> steps = e.feature->steps(stage);
                if (steps.empty()) profile_.intervals.push_back({e.name, int(stage)});
                for (const std::string &step : steps) profile_.intervals.push_back({e.name + ":" + step, int(stage)});
            }
        }
        profile_.intervals.push_back({"readback"});
        points_ = unsigned(profile_.intervals.size()) + 1;
        slot_queries_ = points_ + 1;
    }
    VkQueryPoolCreateInfo qi = make<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = slot_queries_ * unsigned(slots_.size());
    const VkResult r = st_.fn().vkCreateQueryPool(st_.device(), &qi, nullptr, &timestamps_);
    if (r != VK_SUCCESS) {
        timestamps_ = VK_NULL_HANDLE;
        profile_.intervals.clear();
        log(VMAF_LOG_LEVEL_WARNING, "Vulkan engine: no timestamps (vkCreateQueryPool: %s)\n", result_name(r));
    }
    return 0;
}

// Profile mode: a timestamp once every command recorded so far is done, ending
// the interval `*point` - 1 and starting the next.
void Engine::mark(VkCommandBuffer cmd, unsigned slot, unsigned *point)
{
    if (profile_.intervals.empty()) return;
    st_.fn().vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_,
                                 slot * slot_queries_ + (*point)++);
}

void Engine::read_timestamps(unsigned slot)
{
    if (!timestamps_) return;
    uint64_t fixed[2] = {0, 0};
    std::vector<uint64_t> many;
    uint64_t *t = fixed;
    if (points_ > 2) {
        many.resize(points_);
        t = many.data();
    }
    const VkResult r = st_.fn().vkGetQueryPoolResults(st_.device(), timestamps_, slot * slot_queries_, points_,
                                                      points_ * sizeof(uint64_t), t, sizeof(uint64_t),
                                                      VK_QUERY_RESULT_64_BIT);
    if (r != VK_SUCCESS) return;
    const uint32_t bits = st_.timestamp_bits();
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    const double tick_ms = st_.timestamp_period_ns() * 1e-6;
    const double ms = double((t[points_ - 1] - t[0]) & mask) * tick_ms;
    if (!profile_.intervals.empty()) {
        for (size_t i = 0; i + 1 < points_; i++)
            profile_.intervals[i].total_ms += double((t[i + 1] - t[i]) & mask) * tick_ms;
        profile_.total_ms += ms;
        profile_.frames++;
    }
    timing_.min_ms = timing_.frames ? std::min(timing_.min_ms, ms) : ms;
    timing_.max_ms = timing_.frames ? std::max(timing_.max_ms, ms) : ms;
    timing_.total_ms += ms;
    timing_.frames++;
}

}  // namespace vmaf::vk
