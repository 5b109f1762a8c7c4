// SPDX-License-Identifier: BSD-2-Clause-Patent
// The shared view the four writers print from: which frames get a line, which
// features have a score on each, and libvmaf's number formatting.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "output/writer.h"

namespace vmaf::output {

struct ScoreTable {
    std::vector<std::string> names;                          // FeatureCollector::names() order
    std::vector<std::vector<std::optional<double>>> series;  // per name, by frame index
    std::vector<unsigned> rows;                              // frame indices that get a line

    static ScoreTable from(const FeatureCollector &fc, unsigned subsample);

    const std::optional<double> &at(size_t feature, unsigned frame) const;
    // Features that have a score on `frame`, in column order.
    size_t scores_on(unsigned frame) const;
};

// The pooling methods libvmaf prints, in its order, with their field names.
inline constexpr std::array<std::pair<VmafPoolingMethod, const char *>, 4> kPoolMethods = {{
    {VMAF_POOL_METHOD_MIN, "min"},
    {VMAF_POOL_METHOD_MAX, "max"},
    {VMAF_POOL_METHOD_MEAN, "mean"},
    {VMAF_POOL_METHOD_HARMONIC_MEAN, "harmonic_mean"},
}};

// The pooled values of one feature that could be computed, in kPoolMethods order.
std::vector<std::pair<const char *, double>> pooled_values(const OutputInfo &info,
                                                           const std::string &name);

// A score as libvmaf prints it: six decimals, or sixteen when the fractional
// part starts with more than six zeros (so tiny values do not print as 0.000000).
std::string format_score(double v);

// printf into a std::string.
[[gnu::format(printf, 1, 2)]] std::string strprintf(const char *fmt, ...);

std::string render_json(const ScoreTable &t, const FeatureCollector &fc, const OutputInfo &info);
std::string render_xml(const ScoreTable &t, const FeatureCollector &fc, const OutputInfo &info);
std::string render_csv(const ScoreTable &t);
std::string render_sub(const ScoreTable &t);

}  // namespace vmaf::output
