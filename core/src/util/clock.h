// SPDX-License-Identifier: BSD-2-Clause-Patent
// Milliseconds on the steady clock, for the times the library logs and reports
// (start-up splits, the host's share of frames).
#pragma once

#include <chrono>

namespace vmaf {

using SteadyTime = std::chrono::steady_clock::time_point;

inline double ms_between(SteadyTime a, SteadyTime b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

inline double ms_since(SteadyTime t)
{
    return ms_between(t, std::chrono::steady_clock::now());
}

}  // namespace vmaf
