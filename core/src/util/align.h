// SPDX-License-Identifier: BSD-2-Clause-Patent
// Rounding sizes and offsets up to a multiple of an alignment.
#pragma once

namespace vmaf {

// The least multiple of a (> 0) that is at least v, in v's type.
template <typename T, typename A>
constexpr T align_up(T v, A a)
{
    const T m = T(a);
    return (v + m - 1) / m * m;
}

}  // namespace vmaf
