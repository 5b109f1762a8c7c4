// SPDX-License-Identifier: BSD-2-Clause-Patent
// Test helpers: synthetic pictures from sample generators.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "feature/extractor.h"
#include "picture/picture.h"

namespace vmaf::test {

inline FrameFormat format_of(const VmafPicture &p) { return {p.pix_fmt, p.bpc, p.w[0], p.h[0]}; }

// A picture whose samples are gen(plane, x, y).
template <typename Gen>
VmafPicture make_picture(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, Gen gen)
{
    VmafPicture p;
    REQUIRE(picture_alloc(&p, fmt, bpc, w, h) == 0);
    for (unsigned pl = 0; pl < plane_count(fmt); pl++)
        for (unsigned y = 0; y < p.h[pl]; y++) {
            auto *row = static_cast<uint8_t *>(p.data[pl]) + size_t(y) * p.stride[pl];
            for (unsigned x = 0; x < p.w[pl]; x++) {
                const unsigned v = gen(pl, x, y);
                if (bpc == 8) row[x] = uint8_t(v);
                else reinterpret_cast<uint16_t *>(row)[x] = uint16_t(v);
            }
        }
    return p;
}

// A luma-only (4:0:0) picture whose samples are gen(x, y).
template <typename Gen>
VmafPicture make_picture(unsigned bpc, unsigned w, unsigned h, Gen gen)
{
    return make_picture(VMAF_PIX_FMT_YUV400P, bpc, w, h, [&](unsigned, unsigned x, unsigned y) { return gen(x, y); });
}

// A textured 8-bit sample: luma a diagonal ramp with some hashed noise, chroma
// hashed noise around the middle; `seed` picks the noise.
inline unsigned hashed_sample(unsigned pl, unsigned x, unsigned y, unsigned seed)
{
    const unsigned h = (x * 73856093u) ^ (y * 19349663u) ^ (pl * 83492791u) ^ (seed * 2654435761u);
    return pl ? 96 + (h >> 7) % 64 : 32 + ((x * 5 + y * 3) % 160) + (h >> 9) % 32;
}

// make_picture()'s generator of hashed_sample() with `seed`.
inline auto hashed(unsigned seed)
{
    return [seed](unsigned pl, unsigned x, unsigned y) { return hashed_sample(pl, x, y, seed); };
}

// The luma sample at (x, y).
inline unsigned sample(const VmafPicture &p, unsigned x, unsigned y)
{
    const uint8_t *row = static_cast<const uint8_t *>(p.data[0]) + size_t(y) * p.stride[0];
    return p.bpc == 8 ? row[x] : reinterpret_cast<const uint16_t *>(row)[x];
}

// The same luma at a higher bit depth: samples << (bpc - 8).
inline std::vector<VmafPicture> widen(const std::vector<VmafPicture> &pics, unsigned bpc)
{
    std::vector<VmafPicture> out;
    for (const auto &p : pics)
        out.push_back(make_picture(bpc, p.w[0], p.h[0],
                                   [&](unsigned x, unsigned y) { return sample(p, x, y) << (bpc - 8); }));
    return out;
}

// `count` 4:2:0 pictures of random samples and as many distorted ones, each
// sample a few codes off (throughput runs cycle through them).
inline void noise_frames(std::mt19937 &rng, unsigned bpc, unsigned w, unsigned h, size_t count,
                         std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    ref->resize(count);
    dist->resize(count);
    for (size_t f = 0; f < count; f++) {
        REQUIRE(picture_alloc(&(*ref)[f], VMAF_PIX_FMT_YUV420P, bpc, w, h) == 0);
        REQUIRE(picture_alloc(&(*dist)[f], VMAF_PIX_FMT_YUV420P, bpc, w, h) == 0);
        for (unsigned p = 0; p < 3; p++) {
            const size_t bytes = size_t((*ref)[f].stride[p]) * (*ref)[f].h[p];
            auto *a = static_cast<uint8_t *>((*ref)[f].data[p]);
            auto *b = static_cast<uint8_t *>((*dist)[f].data[p]);
            for (size_t i = 0; i < bytes; i++) {
                a[i] = uint8_t(rng());
                b[i] = uint8_t(a[i] ^ (rng() & 7));
            }
            if (bpc > 8)  // keep samples within the depth
                for (size_t i = 1; i < bytes; i += 2) a[i] &= 3, b[i] &= 3;
        }
    }
}

}  // namespace vmaf::test
