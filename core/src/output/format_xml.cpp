// SPDX-License-Identifier: BSD-2-Clause-Patent
// XML in libvmaf's layout: <VMAF version>, <params>, <fyi fps>, one <frame> per
// listed frame with a name="value" attribute per score, <pooled_metrics>,
// <aggregate_metrics>. Every attribute is followed by a space, as libvmaf does.
#include "output/score_table.h"

namespace vmaf::output {

namespace {

// For attribute values; feature names used as attribute names are identifiers.
std::string escaped(const std::string &s)
{
    std::string e;
    for (const char c : s) {
        switch (c) {
        case '&': e += "&amp;"; break;
        case '<': e += "&lt;"; break;
        case '>': e += "&gt;"; break;
        case '"': e += "&quot;"; break;
        default: e += c;
        }
    }
    return e;
}

std::string attribute(const std::string &name, double v)
{
    return name + "=\"" + format_score(v) + "\" ";
}

}  // namespace

std::string render_xml(const ScoreTable &t, const FeatureCollector &fc, const OutputInfo &info)
{
    std::string out = "<VMAF version=\"" + escaped(info.version) + "\">\n";
    out += strprintf("  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n", info.width,
                     info.height);
    out += strprintf("  <fyi fps=\"%.2f\" />\n", info.fps);

    out += "  <frames>\n";
    for (const unsigned i : t.rows) {
        out += strprintf("    <frame frameNum=\"%u\" ", i);
        for (size_t j = 0; j < t.names.size(); j++)
            if (const auto &v = t.at(j, i)) out += attribute(t.names[j], *v);
        out += "/>\n";
    }
    out += "  </frames>\n";

    out += "  <pooled_metrics>\n";
    for (const std::string &name : t.names) {
        out += "    <metric name=\"" + escaped(name) + "\" ";
        for (const auto &[label, v] : pooled_values(info, name)) out += attribute(label, v);
        out += "/>\n";
    }
    out += "  </pooled_metrics>\n";

    out += "  <aggregate_metrics ";
    for (const auto &[name, v] : fc.aggregates()) out += attribute(name, v);
    out += "/>\n";
    out += "</VMAF>\n";
    return out;
}

}  // namespace vmaf::output
