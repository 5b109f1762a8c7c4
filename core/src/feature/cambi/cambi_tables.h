// SPDX-License-Identifier: BSD-2-Clause-Patent
// CAMBI constants and the small scalar rules of libvmaf's cambi.c (and the
// luminance model of its luminance_tools.c), shared by the CPU extractor and a
// later GPU twin.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace vmaf::cambi {

inline constexpr int kScales = 5;
// Weight of each scale's pooled score in the frame score.
inline constexpr int kScaleWeights[kScales] = {16, 8, 4, 2, 1};
// Suprathreshold contrast response: weight of a luma step of d + 1 levels.
inline constexpr int kContrastWeights[32] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                             8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

inline constexpr double kDefaultTopk = 0.6;
inline constexpr int kDefaultWindow = 65;
inline constexpr double kDefaultTvi = 0.019;
inline constexpr double kDefaultVisLumThreshold = 0.0;
inline constexpr int kDefaultMaxLogContrast = 2;
inline constexpr double kDefaultMaxVal = 1000.0;
inline constexpr const char *kDefaultEotf = "bt1886";

// Below this many samples in both directions (of the encode, and of the source
// in full-reference mode) libvmaf's init fails.
inline constexpr unsigned kMinSide = 216;
// The spatial mask counts flat samples in a 7x7 square.
inline constexpr int kMaskFilterSize = 7;
// The pictures CAMBI works on are 10-bit.
inline constexpr int kWorkBits = 10;
// Limited-range luma at 10 bits.
inline constexpr int kLumaFoot = 64, kLumaHead = 940;

// cambi_high_res_speedup: the minimum encode area of each allowed setting.
inline constexpr long kSpeedup1080 = 1920L * 1080, kSpeedup1440 = 2560L * 1440, kSpeedup2160 = 3840L * 2160;

// Entries of the reciprocal table; a window of w x w needs w * w < this.
inline constexpr int kReciprocalSize = 4226;

// The reciprocal table libvmaf multiplies by: 1 / n rounded to 9 significant
// decimal digits, then to the nearest float (entry 0 is 0).
inline const std::array<float, kReciprocalSize> &reciprocal_table()
{
    static const std::array<float, kReciprocalSize> table = [] {
        std::array<float, kReciprocalSize> t{};
        char buf[40];
        for (int n = 1; n < kReciprocalSize; n++) {
            std::snprintf(buf, sizeof(buf), "%.9g", 1.0 / n);
            t[n] = std::strtof(buf, nullptr);
        }
        return t;
    }();
    return table;
}

// The window side at the working resolution: the option scaled by
// (w + h) / (3840 + 2160) in integer steps, halved with the high-resolution
// speed-up, then made odd.
inline unsigned adjust_window(unsigned window, unsigned w, unsigned h, bool speedup)
{
    unsigned out = uint16_t(((window * (w + h)) / 375) >> 4);
    if (speedup) out = uint16_t((out + 1) >> 1);
    return out | 1u;
}

inline unsigned ceil_log2(uint32_t n)
{
    unsigned bits = 0;
    if (n == 0) return 0;
    for (uint32_t t = n - 1; t > 0; t >>= 1) bits++;
    return bits;
}

// A sample is in the spatial mask when more than this many samples of the
// 7x7 square around it are flat (equal to their right and lower neighbours).
inline uint32_t mask_threshold(unsigned w, unsigned h)
{
    const uint32_t blocks = (w >> 6) * (h >> 6);
    const int t = (kMaskFilterSize * kMaskFilterSize + 3 * (int(ceil_log2(blocks)) - 11) - 1) >> 1;
    return uint16_t(t);
}

// ---- Luminance model (10-bit limited range, BT.1886 or PQ EOTF) ----

enum class Eotf { Bt1886, Pq };

inline double eotf_bt1886(double v)
{
    const double gamma = 2.4, lw = 300.0, lb = 0.01;
    const double a = std::pow(std::pow(lw, 1.0 / gamma) - std::pow(lb, 1.0 / gamma), gamma);
    const double b = std::pow(lb, 1.0 / gamma) / (std::pow(lw, 1.0 / gamma) - std::pow(lb, 1.0 / gamma));
    return a * std::pow(std::max(v + b, 0.0), gamma);
}

inline double eotf_pq(double v)
{
    const double m1 = 0.1593017578125, m2 = 78.84375;
    const double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double num = std::max(std::pow(v, 1.0 / m2) - c1, 0.0);
    const double den = c2 - c3 * std::pow(v, 1.0 / m2);
    return 10000 * std::pow(num / den, 1.0 / m1);
}

inline double luminance(int sample, Eotf eotf)
{
    const int clipped = std::clamp(sample, kLumaFoot, kLumaHead);
    const double v = double(clipped - kLumaFoot) / (kLumaHead - kLumaFoot);
    return eotf == Eotf::Pq ? eotf_pq(v) : eotf_bt1886(v);
}

// Whether a step of `diff` levels up from `sample` is visible.
inline bool step_visible(int sample, int diff, double tvi, Eotf eotf)
{
    const double base = luminance(sample, eotf);
    return luminance(sample + diff, eotf) - base > tvi * base;
}

// The largest sample at which a step of `diff` is still visible (the step's
// visibility falls with the sample); 0 when none is, the top code when all are.
inline int tvi_for_diff(int diff, double tvi, Eotf eotf)
{
    enum Where { Below, At, Above };
    auto where = [&](int s) {
        if (!step_visible(s, diff, tvi, eotf)) return Above;
        return step_visible(s + 1, diff, tvi, eotf) ? Below : At;
    };
    int lo = kLumaFoot, hi = kLumaHead - diff - 1;
    Where w = where(lo);
    if (w == Above) return 0;
    if (w == At) return lo;
    w = where(hi);
    if (w == Below) return (1 << kWorkBits) - 1;
    if (w == At) return hi;
    while (true) {
        const int mid = lo + (hi - lo) / 2;
        w = where(mid);
        if (w == At) return mid;
        (w == Above ? hi : lo) = mid;
    }
}

// The smallest sample whose luminance reaches `threshold` (0 when the foot
// already does): darker samples never count as banding.
inline int visibility_luma(double threshold, Eotf eotf)
{
    int s = kLumaFoot;
    // Every sample above the head has the head's luminance; stop there.
    while (s < (1 << kWorkBits) - 1 && luminance(s, eotf) < threshold) s++;
    return s == kLumaFoot ? 0 : s;
}

}  // namespace vmaf::cambi
