// SPDX-License-Identifier: BSD-2-Clause-Patent
// Test helper: a score sink that keeps everything, by provided name and index.
#pragma once

#include <catch2/catch.hpp>

#include <cerrno>
#include <map>
#include <mutex>
#include <string>

#include "feature/extractor.h"

namespace vmaf::test {

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

    // The score, which must be there (a REQUIRE of the calling test).
    double at(const std::string &name, unsigned index) const
    {
        double v = 0;
        INFO(name << " frame " << index);
        REQUIRE(get(name.c_str(), index, &v) == 0);
        return v;
    }

    std::map<std::string, std::map<unsigned, double>> scores;
    std::map<std::string, double> aggregates;

private:
    mutable std::mutex mutex_;
};

}  // namespace vmaf::test
