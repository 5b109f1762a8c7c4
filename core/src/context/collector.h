// SPDX-License-Identifier: BSD-2-Clause-Patent
// Per-frame scores of every feature and model, by output name.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "feature/extractor.h"
#include "feature/score_order.h"

namespace vmaf {

class FeatureCollector {
public:
    // Store `value` for `name` at `index`. Writing the same index twice is an
    // error (-EEXIST) unless `overwrite`. `key`: where the write stands in the
    // listing order (OrderKey). Thread-safe.
    int set(std::string_view name, unsigned index, double value, bool overwrite = false,
            OrderKey key = {});
    // Read a score: `name` may be the stored name or a provided name whose alias
    // is stored. Returns -ENOENT when missing.
    int get(std::string_view name, unsigned index, double *value) const;
    // A copy of one feature's series (missing frames are empty optionals).
    std::vector<std::optional<double>> series(std::string_view name) const;
    // Stored names in listing order: by the smallest OrderKey each was written
    // with.
    std::vector<std::string> names() const;
    // One past the highest index written (0 when empty).
    unsigned frame_count() const;
    // Whole-sequence scores, in listing order as names().
    int set_aggregate(std::string_view name, double value, OrderKey key = {});
    std::vector<std::pair<std::string, double>> aggregates() const;

private:
    using Series = std::vector<std::optional<double>>;
    struct Entry {
        Series series;
        OrderKey key;
    };
    struct Aggregate {
        std::string name;
        double value;
        OrderKey key;
    };
    const Series *find(std::string_view name) const;  // caller holds mutex_
    // *at becomes the smaller of itself and `key` (`first`: `key`); a `key` of
    // no call places a new name after the earlier ones of no call.
    void place(OrderKey *at, OrderKey key, bool first);
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Entry> series_;
    unsigned frame_count_ = 0;
    uint64_t unordered_ = 0;  // names and aggregates written in no call so far
    std::vector<Aggregate> aggregates_;
};

// The ScoreSink of one registered feature (every instance of it, on any thread or
// backend, writes through it): maps its names to output names and stores them in
// the collector. A provided name is written as its alias plus the option suffix,
// and so is an aggregate the extractor lists as suffixed; any other (cambi's
// cambi_source, float_adm's adm, psnr's apsnr_y) as it is, as libvmaf's name
// dictionary holds only the provided names. Writes made inside a CallScope are
// placed by that call and `rank`, the feature's place within a call.
class CollectorSink final : public ScoreSink {
public:
    CollectorSink(FeatureCollector &fc, std::span<const char *const> provided, std::string suffix,
                  unsigned rank = 0, std::span<const char *const> suffixed_aggregates = {})
        : fc_(fc), provided_(provided), suffixed_aggregates_(suffixed_aggregates), suffix_(std::move(suffix)),
          rank_(rank) {}
    int append(const char *name, unsigned index, double value) override;
    int get(const char *name, unsigned index, double *value) const override;
    int set_aggregate(const char *name, double value) override;

private:
    std::string output_name(const char *name) const;
    OrderKey next_key() const;

    FeatureCollector &fc_;
    std::span<const char *const> provided_;
    std::span<const char *const> suffixed_aggregates_;
    std::string suffix_;
    unsigned rank_;
};

}  // namespace vmaf
