// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/cambi/cambi_settings.h"

#include <algorithm>
#include <cstdio>

#include "feature/cambi/cambi_tables.h"

namespace vmaf::cambi {

Settings Settings::from(const FeatureOptions &o, const FrameFormat &fmt)
{
    Settings s;
    const unsigned w = fmt.w, h = fmt.h;
    s.bpc = fmt.bpc;
    s.enc_bits = o.number("enc_bitdepth") ? unsigned(o.number("enc_bitdepth")) : fmt.bpc;
    s.enc_w = unsigned(o.number("enc_width"));
    s.enc_h = unsigned(o.number("enc_height"));
    if (!s.enc_w || !s.enc_h) s.enc_w = w, s.enc_h = h;
    s.src_w = unsigned(o.number("src_width"));
    s.src_h = unsigned(o.number("src_height"));
    if (!s.src_w || !s.src_h) s.src_w = w, s.src_h = h;
    // An encode larger than the picture was upscaled: score the picture as it is.
    if (s.enc_h > h || s.enc_w > w) s.enc_w = w, s.enc_h = h;
    s.full_ref = o.flag("full_ref");

    if ((s.enc_w < kMinSide && s.enc_h < kMinSide) || (s.src_w < kMinSide && s.src_h < kMinSide)) {
        s.check = Check::TooSmall;
        return s;
    }
    if ((s.src_w > s.enc_w && s.src_h < s.enc_h) || (s.src_w < s.enc_w && s.src_h > s.enc_h)) {
        s.check = Check::Shapes;
        return s;
    }
    if (fmt.bpc < 8 || fmt.bpc > 16) {
        s.check = Check::BitDepth;
        return s;
    }

    const long enc_area = long(s.enc_w) * s.enc_h;
    const int hrs = int(o.number("cambi_high_res_speedup"));
    s.speedup = (hrs == 1080 && enc_area >= kSpeedup1080) || (hrs == 1440 && enc_area >= kSpeedup1440) ||
                (hrs == 2160 && enc_area >= kSpeedup2160);

    s.num_diffs = 1 << int(o.number("max_log_contrast"));
    const std::string &ceotf = o.text("cambi_eotf");
    const std::string &eotf_name = ceotf != kDefaultEotf ? ceotf : o.text("eotf");
    const Eotf eotf = eotf_name == "pq" ? Eotf::Pq : Eotf::Bt1886;
    const double tvi = o.number("tvi_threshold");
    s.tvi.resize(size_t(s.num_diffs));
    s.weights.resize(size_t(s.num_diffs));
    for (int d = 0; d < s.num_diffs; d++) {
        s.tvi[size_t(d)] = uint16_t(tvi_for_diff(d + 1, tvi, eotf) + s.num_diffs);
        s.weights[size_t(d)] = kContrastWeights[d];
    }
    s.vlt_luma = uint16_t(visibility_luma(o.number("cambi_vis_lum_threshold"), eotf));
    const int lo = int(s.vlt_luma) - 3 * s.num_diffs + 1;
    s.band_base = lo > 0 ? lo : 0;
    s.band_size = std::max(int(s.tvi[size_t(s.num_diffs - 1)]) + 1 - s.band_base, 0);

    s.window_size = unsigned(o.number("window_size"));
    s.window = adjust_window(s.window_size, s.enc_w, s.enc_h, s.speedup);
    s.src_window = adjust_window(s.window_size, s.src_w, s.src_h, s.speedup);
    const unsigned max_window = std::max(s.window, s.src_window);
    if (max_window * max_window >= unsigned(kReciprocalSize)) s.check = Check::Window;

    s.topk = o.number("topk") != kDefaultTopk ? o.number("topk") : o.number("cambi_topk");
    s.max_val = o.number("cambi_max_val");
    return s;
}

std::string Settings::problem() const
{
    char line[256];
    switch (check) {
    case Check::Ok: return {};
    case Check::TooSmall:
        std::snprintf(line, sizeof line,
                      "cambi: needs an encode and a source width or height of at least %u "
                      "(encode %ux%u, source %ux%u): no cambi score is written\n",
                      kMinSide, enc_w, enc_h, src_w, src_h);
        break;
    case Check::Shapes:
        std::snprintf(line, sizeof line,
                      "cambi: src_width/src_height (%ux%u) and the encode (%ux%u) "
                      "must not be larger in one direction and smaller in the other\n",
                      src_w, src_h, enc_w, enc_h);
        break;
    case Check::BitDepth:
        std::snprintf(line, sizeof line, "cambi: %u-bit pictures are not supported\n", bpc);
        break;
    case Check::Window:
        std::snprintf(line, sizeof line,
                      "cambi: window_size %u gives a window of %u samples at %ux%u, "
                      "more than the largest supported (65)\n",
                      window_size, std::max(window, src_window), enc_w, enc_h);
        break;
    }
    return line;
}

}  // namespace vmaf::cambi
