// SPDX-License-Identifier: BSD-2-Clause-Patent
// The two line formats: CSV (one row per listed frame) and MicroDVD subtitles
// (one caption per frame, so a player shows the scores over the video).
#include "output/score_table.h"

namespace vmaf::output {

// Header "Frame,name,...," and rows "index,value,...,", each cell followed by a
// comma as in libvmaf. A feature without a score on a listed frame gets an empty
// cell so that the columns stay aligned with the header.
std::string render_csv(const ScoreTable &t)
{
    std::string out = "Frame,";
    for (const std::string &name : t.names) out += name + ",";
    out += "\n";
    for (const unsigned i : t.rows) {
        out += strprintf("%u,", i);
        for (size_t j = 0; j < t.names.size(); j++) {
            if (const auto &v = t.at(j, i)) out += format_score(*v);
            out += ",";
        }
        out += "\n";
    }
    return out;
}

// "{start}{end}caption": frame i is shown from frame i to frame i + 1; "|" is
// MicroDVD's line break.
std::string render_sub(const ScoreTable &t)
{
    std::string out;
    for (const unsigned i : t.rows) {
        out += strprintf("{%u}{%u}frame: %u|", i, i + 1, i);
        for (size_t j = 0; j < t.names.size(); j++)
            if (const auto &v = t.at(j, i)) out += t.names[j] + ": " + format_score(*v) + "|";
        out += "\n";
    }
    return out;
}

}  // namespace vmaf::output
