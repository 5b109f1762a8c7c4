// Per-frame scores of every feature and model, by output name.
#pragma once

#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "feature/extractor.h"

namespace vmaf {

class FeatureCollector {
public:
    // Store `value` for `name` at `index`. Writing the same index twice is an
    // error (-EEXIST) unless `overwrite`. Thread-safe.
    int set(std::string_view name, unsigned index, double value, bool overwrite = false);
    // Read a score: `name` may be the stored name or a provided name whose alias
    // is stored. Returns -ENOENT when missing.
    int get(std::string_view name, unsigned index, double *value) const;
    // A copy of one feature's series (missing frames are empty optionals).
    std::vector<std::optional<double>> series(std::string_view name) const;
    // Stored names in first-written order.
    std::vector<std::string> names() const;
    // One past the highest index written (0 when empty).
    unsigned frame_count() const;
    // Whole-sequence scores, in first-written order.
    int set_aggregate(std::string_view name, double value);
    std::vector<std::pair<std::string, double>> aggregates() const;

private:
    using Series = std::vector<std::optional<double>>;
    const Series *find(std::string_view name) const;  // caller holds mutex_
    mutable std::mutex mutex_;
    std::vector<std::string> order_;
    std::unordered_map<std::string, Series> series_;
    unsigned frame_count_ = 0;
    std::vector<std::pair<std::string, double>> aggregates_;
};

// The ScoreSink one extractor instance writes through: maps its names to output
// names and stores them in the collector. A provided name is written as its alias
// plus the option suffix; any other (cambi's cambi_source, float_adm's adm) as it
// is, as libvmaf's name dictionary holds only the provided names.
class CollectorSink final : public ScoreSink {
public:
    CollectorSink(FeatureCollector &fc, std::span<const char *const> provided, std::string suffix)
        : fc_(fc), provided_(provided), suffix_(std::move(suffix)) {}
    int append(const char *name, unsigned index, double value) override;
    int get(const char *name, unsigned index, double *value) const override;
    int set_aggregate(const char *name, double value) override;

private:
    std::string output_name(const char *name) const;

    FeatureCollector &fc_;
    std::span<const char *const> provided_;
    std::string suffix_;
};

}  // namespace vmaf
