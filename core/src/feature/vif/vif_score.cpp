// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/vif/vif_score.h"

namespace vmaf::vif {

Settings Settings::from(const FeatureOptions &o)
{
    Settings s;
    s.debug = o.flag("debug");
    s.skip_scale0 = o.flag("vif_skip_scale0");
    s.gain_limit = o.number("vif_enhn_gain_limit");
    return s;
}

int write_scores(const ScaleScore (&s)[kScales], const Settings &settings, unsigned index, ScoreSink &out)
{
    const bool skip0 = settings.skip_scale0;
    int err = 0;
    for (int i = 0; i < kScales; i++) {
        // libvmaf divides in float, then widens.
        const float v = (i == 0 && skip0) ? 0.0f : s[i].num / s[i].den;
        err |= out.append(kScaleNames[i], index, v);
    }
    if (!settings.debug) return err;

    double num = 0.0, den = 0.0;
    for (int i = skip0 ? 1 : 0; i < kScales; i++) {
        num += double(s[i].num);
        den += double(s[i].den);
    }
    err |= out.append("integer_vif", index, den == 0.0 ? 1.0 : num / den);
    err |= out.append("integer_vif_num", index, num);
    err |= out.append("integer_vif_den", index, den);
    for (int i = 0; i < kScales; i++) {
        const bool skipped = i == 0 && skip0;
        err |= out.append(kNumNames[i], index, skipped ? 0.0 : double(s[i].num));
        err |= out.append(kDenNames[i], index, skipped ? -1.0 : double(s[i].den));
    }
    return err;
}

}  // namespace vmaf::vif
