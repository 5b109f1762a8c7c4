// Test helpers for the Vulkan backend: a validated device state and a score sink.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "feature/extractor.h"
#include "vulkan/context.h"

namespace vmaf::test {

// A state on the default device with the validation layer on: check_clean()
// fails the test on any validation error or warning. VMAF_TEST_VULKAN_NO_VALIDATION=1
// runs without the layer, for machines that do not have it installed.
inline std::unique_ptr<vk::State> validated_state(unsigned frames_in_flight = vk::kDefaultFramesInFlight)
{
    vk::Config cfg;
    const char *off = std::getenv("VMAF_TEST_VULKAN_NO_VALIDATION");
    cfg.validation = !(off && *off == '1');
    cfg.frames_in_flight = frames_in_flight;
    std::unique_ptr<vk::State> st;
    REQUIRE(vk::State::create(cfg, &st) == 0);
    REQUIRE(st->validation_enabled() == cfg.validation);
    return st;
}

inline void check_clean(const vk::State &st)
{
    INFO("validation messages on " << st.info().name);
    CHECK(st.validation_errors() == 0);
    CHECK(st.validation_warnings() == 0);
}

// Scores by provided name and index, and aggregates.
class MapSink final : public ScoreSink {
public:
    MapSink() = default;
    MapSink(const MapSink &o) : scores(o.scores), aggregates(o.aggregates) {}

    int append(const char *name, unsigned index, double value) override
    {
        std::lock_guard lock(mutex_);
        auto &series = scores[name];
        if (series.count(index)) return -EEXIST;
        series[index] = value;
        return 0;
    }
    int get(const char *name, unsigned index, double *value) const override
    {
        std::lock_guard lock(mutex_);
        auto s = scores.find(name);
        if (s == scores.end() || !s->second.count(index)) return -ENOENT;
        *value = s->second.at(index);
        return 0;
    }
    int set_aggregate(const char *name, double value) override
    {
        std::lock_guard lock(mutex_);
        aggregates[name] = value;
        return 0;
    }

    std::map<std::string, std::map<unsigned, double>> scores;
    std::map<std::string, double> aggregates;

private:
    mutable std::mutex mutex_;
};

}  // namespace vmaf::test
