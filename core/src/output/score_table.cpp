// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "output/score_table.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace vmaf::output {

ScoreTable ScoreTable::from(const FeatureCollector &fc, unsigned subsample)
{
    ScoreTable t;
    t.names = fc.names();
    t.series.reserve(t.names.size());
    for (const std::string &n : t.names) t.series.push_back(fc.series(n));

    unsigned frames = 0;
    for (const auto &s : t.series) frames = std::max(frames, unsigned(s.size()));
    for (unsigned i = 0; i < frames; i++) {
        // Subsampled-out frames are never listed, even where a temporal feature
        // computed them; frames nothing was written for are skipped.
        if (subsample > 1 && i % subsample) continue;
        if (t.scores_on(i)) t.rows.push_back(i);
    }
    return t;
}

const std::optional<double> &ScoreTable::at(size_t feature, unsigned frame) const
{
    static const std::optional<double> none;
    const auto &s = series[feature];
    return frame < s.size() ? s[frame] : none;
}

size_t ScoreTable::scores_on(unsigned frame) const
{
    size_t n = 0;
    for (size_t j = 0; j < series.size(); j++) n += at(j, frame).has_value();
    return n;
}

std::vector<std::pair<const char *, double>> pooled_values(const OutputInfo &info,
                                                           const std::string &name)
{
    std::vector<std::pair<const char *, double>> out;
    if (!info.pool) return out;
    for (const auto &[method, label] : kPoolMethods) {
        double v;
        if (info.pool(name, method, &v) == 0) out.emplace_back(label, v);
    }
    return out;
}

namespace {

// How many zeros follow the decimal point before the first nonzero digit of
// |v|'s fractional part (0 when there is no fractional part). This is libvmaf's
// rule, computed with the same double arithmetic so the choice of precision
// matches it on every value.
int fraction_leading_zeros(double v)
{
    const double a = std::fabs(v);
    double frac = a - std::trunc(a);
    int zeros = 0;
    while (frac < 1.0 && frac != 0.0) {
        frac *= 10.0;
        zeros++;
    }
    return zeros;
}

}  // namespace

std::string format_score(double v)
{
    return strprintf(fraction_leading_zeros(v) <= 6 ? "%.6f" : "%.16f", v);
}

std::string strprintf(const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    const int n = std::vsnprintf(nullptr, 0, fmt, ap);
    va_end(ap);
    std::string s(n > 0 ? size_t(n) : 0, '\0');
    if (n > 0) std::vsnprintf(s.data(), s.size() + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

}  // namespace vmaf::output
