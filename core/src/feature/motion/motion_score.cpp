// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/motion/motion_score.h"

#include <algorithm>
#include <vector>

#include "feature/motion/motion_tables.h"

namespace vmaf::motion {

Settings Settings::from(const FeatureOptions &o)
{
    Settings s;
    s.force_zero = o.flag("motion_force_zero");
    s.blend_factor = o.number("motion_blend_factor");
    s.blend_offset = o.number("motion_blend_offset");
    s.fps_weight = o.number("motion_fps_weight");
    s.max_val = o.number("motion_max_val");
    s.five_frame = o.flag("motion_five_frame_window");
    s.moving_average = o.flag("motion_moving_average");
    s.debug = o.flag("debug");
    return s;
}

double frame_score(uint64_t sad, unsigned w, unsigned h, const Settings &s)
{
    return score_from_sad(sad, w, h, s.fps_weight, s.max_val);
}

int write_frame(double score, const Settings &s, unsigned index, ScoreSink &out)
{
    if (int err = out.append(kSadName, index, score)) return err;
    if (s.debug) return out.append(kMotionName, index, score);
    return 0;
}

// motion2 at i is min(SAD[lo], SAD[i+1]) with lo = i, or i-1 with the
// five-frame window (SAD[i+1] alone while lo has no SAD yet); the last frame
// keeps its own SAD. motion3 is motion2 blended and clipped; frames before the
// first SAD take the processed value of that first SAD.
int write_sequence(const Settings &s, ScoreSink &out)
{
    std::vector<double> sad;
    for (double v; !out.get(kSadName, unsigned(sad.size()), &v);) sad.push_back(v);
    const unsigned n = unsigned(sad.size());
    if (!n) return 0;
    const unsigned lag = s.lag();

    auto processed = [&](double v) { return std::min(blend(v, s.blend_factor, s.blend_offset), s.max_val); };
    const double stamp = n > lag ? processed(sad[lag]) : 0.0;
    double prev_processed = 0.0;
    for (unsigned i = 0; i < n; i++) {
        double m2 = 0.0;
        if (i >= lag) {
            const int lo = int(i) - int(lag - 1);
            if (i + 1 >= n) m2 = sad[i];
            else if (lo >= int(lag)) m2 = std::min(sad[unsigned(lo)], sad[i + 1]);
            else m2 = sad[i + 1];
        }
        if (int err = out.append(kMotion2Name, i, m2)) return err;

        double m3;
        if (i < lag) {
            m3 = prev_processed = stamp;
        } else {
            const double p = processed(m2);
            m3 = s.moving_average ? (p + prev_processed) / 2.0 : p;
            prev_processed = p;
        }
        if (int err = out.append(kMotion3Name, i, m3)) return err;
    }
    return 0;
}

}  // namespace vmaf::motion
