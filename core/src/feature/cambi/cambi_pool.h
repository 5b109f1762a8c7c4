// SPDX-License-Identifier: BSD-2-Clause-Patent
// CAMBI's spatial pooling: the mean of the topk fraction of largest c-values.
//
// libvmaf selects them with a quickselect (Hoare partition around arr[k]) and
// sums arr[0, k) in that order in a double. pool_topk_reference() does exactly
// that. pool_topk() gets the same double faster where the order cannot matter:
// every nonzero c-value is a float of at least 1/2 (weight * p0 * p / (p0 + p)
// with counts p0, p >= 1), hence a multiple of 2^-24, and of 2^(e - 23) when
// the smallest nonzero one pooled is at least 2^e. While the total of the k
// largest stays below 2^53 such steps, every partial sum in any order is a
// multiple of the step below that bound, exact in a double, so the sum is the
// exact total whatever the order. It finds the k largest by a radix select on
// the float bits, sums them exactly in integer units of 2^-24 and falls back
// to the reference when any of them is not such a value or the total is too
// large for its step.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace vmaf::cambi {

// The number of values pooled: topk of n, at least 1.
inline int topk_count(double topk, unsigned n)
{
    return std::clamp(int(topk * n), 1, int(n));
}

// libvmaf's quickselect: afterwards arr[0, k) holds the k largest values.
inline void select_largest(float *arr, int n, int k)
{
    if (n == k) return;
    int left = 0, right = n - 1;
    while (left < right) {
        const float pivot = arr[k];
        int i = left, j = right;
        do {
            while (arr[i] > pivot) i++;
            while (arr[j] < pivot) j--;
            if (i <= j) std::swap(arr[i++], arr[j--]);
        } while (i <= j);
        if (j < k) left = i;
        if (k < i) right = j;
    }
}

// libvmaf's pooling, step for step (reorders c).
inline double pool_topk_reference(float *c, unsigned n, double topk)
{
    const int k = topk_count(topk, n);
    select_largest(c, int(n), k);
    double sum = 0;
    for (int i = 0; i < k; i++) sum += c[i];
    return sum / k;
}

// Scratch of the fast pooling, kept between calls.
struct PoolScratch {
    std::vector<uint32_t> bins = std::vector<uint32_t>(1u << 16);
    std::vector<float> bucket;
};

// The same result as pool_topk_reference() (see the top of this file); may
// reorder c only when it falls back to it.
inline double pool_topk(float *c, unsigned n, double topk, PoolScratch &s)
{
    const int k = topk_count(topk, n);
    auto bits = [](float v) {
        uint32_t b;
        std::memcpy(&b, &v, sizeof(b));
        return b;
    };
    std::fill(s.bins.begin(), s.bins.end(), 0u);
    for (unsigned i = 0; i < n; i++) s.bins[bits(c[i]) >> 16]++;
    // Non-negative floats order as their bits: find the bin of the k-th largest.
    uint32_t b = 0xffff, above = 0;
    while (above + s.bins[b] < uint32_t(k)) above += s.bins[b--];

    bool exact = true;
    int64_t total = 0;
    float min_nz = 1e30f;
    auto units = [&](float v) {
        if (v != 0.0f) min_nz = std::min(min_nz, v);
        // Zero, or a non-negative float of at least 1/2.
        if (v != 0.0f && !(v >= 0.5f)) exact = false;
        if (bits(v) >> 31) exact = false;
        return int64_t(double(v) * 16777216.0);
    };
    s.bucket.clear();
    for (unsigned i = 0; i < n; i++) {
        const uint32_t key = bits(c[i]) >> 16;
        if (key > b)
            total += units(c[i]);
        else if (key == b)
            s.bucket.push_back(c[i]);
    }
    const size_t r = size_t(k) - above;
    std::nth_element(s.bucket.begin(), s.bucket.begin() + (r - 1), s.bucket.end(), std::greater<float>());
    for (size_t i = 0; i < r; i++) total += units(s.bucket[i]);
    // All k values are multiples of the spacing of floats at the smallest
    // nonzero one, 2^(e - 23) = 2^(e + 1) units: partial sums are exact while
    // the total stays below 2^53 such steps.
    if (exact && min_nz < 1e30f) {
        const int e = std::ilogb(min_nz);  // >= -1
        if (54 + e < 62 && total >= int64_t(1) << (54 + e)) exact = false;
    }
    if (!exact) return pool_topk_reference(c, n, topk);
    return double(total) * 0x1p-24 / k;
}

}  // namespace vmaf::cambi
