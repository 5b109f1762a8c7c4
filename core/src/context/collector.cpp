// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "context/collector.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "feature/registry.h"

namespace vmaf {

void FeatureCollector::place(OrderKey *at, OrderKey key, bool first)
{
    if (key.call == OrderKey::kNone) {
        if (first) *at = {OrderKey::kNone, 0, unordered_++};
    } else if (first || key < *at) {
        *at = key;
    }
}

int FeatureCollector::set(std::string_view name, unsigned index, double value, bool overwrite, OrderKey key)
{
    std::lock_guard lock(mutex_);
    auto it = series_.find(std::string(name));
    const bool first = it == series_.end();
    if (first) it = series_.emplace(std::string(name), Entry{}).first;
    Series &s = it->second.series;
    if (s.size() <= index) s.resize(size_t(index) + 1);
    if (s[index] && !overwrite) return -EEXIST;
    place(&it->second.key, key, first);
    s[index] = value;
    if (index + 1 > frame_count_) frame_count_ = index + 1;
    return 0;
}

const FeatureCollector::Series *FeatureCollector::find(std::string_view name) const
{
    auto it = series_.find(std::string(name));
    if (it != series_.end()) return &it->second.series;
    it = series_.find(std::string(feature_alias(name)));
    return it != series_.end() ? &it->second.series : nullptr;
}

int FeatureCollector::get(std::string_view name, unsigned index, double *value) const
{
    std::lock_guard lock(mutex_);
    const Series *s = find(name);
    if (!s || index >= s->size() || !(*s)[index]) return -ENOENT;
    *value = *(*s)[index];
    return 0;
}

std::vector<std::optional<double>> FeatureCollector::series(std::string_view name) const
{
    std::lock_guard lock(mutex_);
    const Series *s = find(name);
    return s ? *s : Series{};
}

std::vector<std::string> FeatureCollector::names() const
{
    std::vector<std::pair<OrderKey, const std::string *>> sorted;
    std::lock_guard lock(mutex_);
    sorted.reserve(series_.size());
    for (const auto &[name, e] : series_) sorted.emplace_back(e.key, &name);
    std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first < b.first : *a.second < *b.second;
    });
    std::vector<std::string> out;
    out.reserve(sorted.size());
    for (const auto &s : sorted) out.push_back(*s.second);
    return out;
}

unsigned FeatureCollector::frame_count() const
{
    std::lock_guard lock(mutex_);
    return frame_count_;
}

int FeatureCollector::set_aggregate(std::string_view name, double value, OrderKey key)
{
    std::lock_guard lock(mutex_);
    for (Aggregate &a : aggregates_)
        if (a.name == name) {
            a.value = value;
            place(&a.key, key, false);
            return 0;
        }
    aggregates_.push_back({std::string(name), value, {}});
    place(&aggregates_.back().key, key, true);
    return 0;
}

std::vector<std::pair<std::string, double>> FeatureCollector::aggregates() const
{
    std::vector<const Aggregate *> sorted;
    std::lock_guard lock(mutex_);
    for (const Aggregate &a : aggregates_) sorted.push_back(&a);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Aggregate *a, const Aggregate *b) { return a->key < b->key; });
    std::vector<std::pair<std::string, double>> out;
    out.reserve(sorted.size());
    for (const Aggregate *a : sorted) out.emplace_back(a->name, a->value);
    return out;
}

std::string CollectorSink::output_name(const char *name) const
{
    std::string out(feature_alias(name));
    for (const char *p : provided_)
        if (std::strcmp(p, name) == 0) return out + suffix_;
    return out;
}

OrderKey CollectorSink::next_key() const
{
    return CallScope::next_key(rank_);
}

int CollectorSink::append(const char *name, unsigned index, double value)
{
    return fc_.set(output_name(name), index, value, false, next_key());
}

int CollectorSink::get(const char *name, unsigned index, double *value) const
{
    return fc_.get(output_name(name), index, value);
}

int CollectorSink::set_aggregate(const char *name, double value)
{
    for (const char *a : suffixed_aggregates_)
        if (std::strcmp(a, name) == 0) return fc_.set_aggregate(name + suffix_, value, next_key());
    return fc_.set_aggregate(output_name(name), value, next_key());
}

}  // namespace vmaf
