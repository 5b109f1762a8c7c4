#include "context/collector.h"

#include <cerrno>
#include <cstring>

#include "feature/registry.h"

namespace vmaf {

int FeatureCollector::set(std::string_view name, unsigned index, double value, bool overwrite)
{
    std::lock_guard lock(mutex_);
    auto it = series_.find(std::string(name));
    if (it == series_.end()) {
        order_.emplace_back(name);
        it = series_.emplace(std::string(name), Series{}).first;
    }
    Series &s = it->second;
    if (s.size() <= index) s.resize(size_t(index) + 1);
    if (s[index] && !overwrite) return -EEXIST;
    s[index] = value;
    if (index + 1 > frame_count_) frame_count_ = index + 1;
    return 0;
}

const FeatureCollector::Series *FeatureCollector::find(std::string_view name) const
{
    auto it = series_.find(std::string(name));
    if (it != series_.end()) return &it->second;
    it = series_.find(std::string(feature_alias(name)));
    return it != series_.end() ? &it->second : nullptr;
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
    std::lock_guard lock(mutex_);
    return order_;
}

unsigned FeatureCollector::frame_count() const
{
    std::lock_guard lock(mutex_);
    return frame_count_;
}

int FeatureCollector::set_aggregate(std::string_view name, double value)
{
    std::lock_guard lock(mutex_);
    for (auto &[n, v] : aggregates_)
        if (n == name) { v = value; return 0; }
    aggregates_.emplace_back(name, value);
    return 0;
}

std::vector<std::pair<std::string, double>> FeatureCollector::aggregates() const
{
    std::lock_guard lock(mutex_);
    return aggregates_;
}

std::string CollectorSink::output_name(const char *name) const
{
    std::string out(feature_alias(name));
    for (const char *p : provided_)
        if (std::strcmp(p, name) == 0) return out + suffix_;
    return out;
}

int CollectorSink::append(const char *name, unsigned index, double value)
{
    return fc_.set(output_name(name), index, value);
}

int CollectorSink::get(const char *name, unsigned index, double *value) const
{
    return fc_.get(output_name(name), index, value);
}

int CollectorSink::set_aggregate(const char *name, double value)
{
    return fc_.set_aggregate(output_name(name), value);
}

}  // namespace vmaf
