// SPDX-License-Identifier: BSD-2-Clause-Patent
// PSNR's table: libvmaf's numbers on every golden pair, the CPU's to the bit on
// options, every format and depth, odd and one-pixel sizes, with one and three
// frames in flight.
#include <algorithm>
#include <random>

#include "feature/psnr/psnr.h"
#include "parity.h"
#include "picture/picture.h"

using namespace vmaf;
using namespace vmaf::test::parity;

namespace {

// Distorted = reference plus noise of a few sizes (the last frame's the whole
// range), clipped to the depth.
void noisy(const Synthetic &c, uint32_t seed, std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    std::mt19937 rng(seed);
    const unsigned maxv = (1u << c.bpc) - 1;
    ref->resize(c.frames);
    dist->resize(c.frames);
    for (unsigned f = 0; f < c.frames; f++) {
        REQUIRE(picture_alloc(&(*ref)[f], c.fmt, c.bpc, c.w, c.h) == 0);
        REQUIRE(picture_alloc(&(*dist)[f], c.fmt, c.bpc, c.w, c.h) == 0);
        const unsigned spread = f == c.frames - 1 ? maxv : (8u << f);
        for (unsigned p = 0; p < plane_count(c.fmt); p++)
            for (unsigned y = 0; y < (*ref)[f].h[p]; y++)
                for (unsigned x = 0; x < (*ref)[f].w[p]; x++) {
                    const unsigned a = rng() % (maxv + 1);
                    const int d = int(rng() % (2 * spread + 1)) - int(spread);
                    const unsigned b = unsigned(std::clamp(int(a) + d, 0, int(maxv)));
                    auto *ra = static_cast<uint8_t *>((*ref)[f].data[p]) + y * (*ref)[f].stride[p];
                    auto *rb = static_cast<uint8_t *>((*dist)[f].data[p]) + y * (*dist)[f].stride[p];
                    if (c.bpc == 8) {
                        ra[x] = uint8_t(a);
                        rb[x] = uint8_t(b);
                    } else {
                        reinterpret_cast<uint16_t *>(ra)[x] = uint16_t(a);
                        reinterpret_cast<uint16_t *>(rb)[x] = uint16_t(b);
                    }
                }
    }
}

const Table &psnr_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kPsnrExtractor;
        t.golden = {{".libvmaf.json", {"psnr_y", "psnr_cb", "psnr_cr"}, 1e-4},
                    // libvmaf's JSON carries the 10-bit pair's luma to the bit
                    {".libvmaf.json", {"psnr_y"}, 0, false, {"rocket_320x240_10bit_crf30"}}};
        t.option_sets = {
            {{"enable_mse", "true"}, {"enable_apsnr", "true"}},
            {{"enable_chroma", "false"}, {"enable_mse", "true"}},
            {{"min_sse", "0.5"}, {"enable_apsnr", "true"}},
            {{"reduced_hbd_peak", "true"}, {"min_sse", "2"}},
        };
        t.option_pairs = {"coffee_320x240_crf28",       "astronaut_320x240_422_crf33", "coffee_320x240_444_crf30",
                          "rocket_320x240_10bit_crf30", "chelsea_176x144_identical",   "chelsea_322x186_rescale"};
        // Five frames: more than the ring holds.
        t.synthetic = grid({VMAF_PIX_FMT_YUV400P, VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV444P},
                           {8, 10, 12, 16}, {{67, 35}, {1, 1}, {1921, 3}}, 5,
                           {{"enable_mse", "true"}, {"enable_apsnr", "true"}});
        t.frames_in_flight = {1, 3};
        t.generate = noisy;
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(psnr, psnr_table, "[psnr]")
