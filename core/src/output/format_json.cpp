// SPDX-License-Identifier: BSD-2-Clause-Patent
// JSON in libvmaf's layout: version, fps, frames[] {frameNum, metrics},
// pooled_metrics {name: {min, max, mean, harmonic_mean}}, aggregate_metrics.
#include <cmath>

#include "output/score_table.h"

namespace vmaf::output {

namespace {

// Names are written as JSON strings; feature names never need escaping, but a
// model name given on the command line might.
std::string quoted(const std::string &s)
{
    std::string q = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            q += '\\';
            q += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            q += strprintf("\\u%04x", unsigned(c));
        } else {
            q += c;
        }
    }
    return q + "\"";
}

// JSON has no NaN or infinity: libvmaf writes null for them.
std::string number(double v)
{
    return std::isfinite(v) ? format_score(v) : "null";
}

void frames(std::string &out, const ScoreTable &t)
{
    out += "  \"frames\": [";
    bool first = true;
    for (const unsigned i : t.rows) {
        out += first ? "\n" : ",\n";
        first = false;
        out += "    {\n";
        out += strprintf("      \"frameNum\": %u,\n", i);
        out += "      \"metrics\": {\n";
        const size_t n = t.scores_on(i);
        size_t k = 0;
        for (size_t j = 0; j < t.names.size(); j++) {
            const auto &v = t.at(j, i);
            if (!v) continue;
            k++;
            out += "        " + quoted(t.names[j]) + ": " + number(*v) + (k < n ? ",\n" : "\n");
        }
        out += "      }\n";
        out += "    }";
    }
    out += "\n  ],\n";
}

void pooled(std::string &out, const ScoreTable &t, const OutputInfo &info)
{
    out += "  \"pooled_metrics\": {";
    for (size_t j = 0; j < t.names.size(); j++) {
        out += j ? ",\n" : "\n";
        out += "    " + quoted(t.names[j]) + ": {";
        const auto values = pooled_values(info, t.names[j]);
        for (size_t m = 0; m < values.size(); m++) {
            out += m ? ",\n" : "\n";
            out += strprintf("      \"%s\": ", values[m].first) + number(values[m].second);
        }
        out += "\n    }";
    }
    out += "\n  },\n";
}

void aggregates(std::string &out, const FeatureCollector &fc)
{
    out += "  \"aggregate_metrics\": {";
    const auto agg = fc.aggregates();
    for (size_t i = 0; i < agg.size(); i++) {
        out += "\n    " + quoted(agg[i].first) + ": " + number(agg[i].second);
        if (i + 1 < agg.size()) out += ",";
    }
    out += "\n  }\n";
}

}  // namespace

std::string render_json(const ScoreTable &t, const FeatureCollector &fc, const OutputInfo &info)
{
    std::string out = "{\n";
    out += "  \"version\": " + quoted(info.version) + ",\n";
    out += "  \"fps\": " + (std::isfinite(info.fps) ? strprintf("%.2f", info.fps) : "null") + ",\n";
    frames(out, t);
    pooled(out, t, info);
    aggregates(out, fc);
    out += "}\n";
    return out;
}

}  // namespace vmaf::output
