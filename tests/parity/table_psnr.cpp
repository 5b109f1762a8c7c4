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
    fill_pairs(
        c,
        [&](const VmafPicture &, unsigned f, unsigned, unsigned, unsigned) {
            const unsigned spread = f == c.frames - 1 ? maxv : (8u << f);
            const unsigned a = rng() % (maxv + 1);
            const int d = int(rng() % (2 * spread + 1)) - int(spread);
            return std::pair{a, unsigned(std::clamp(int(a) + d, 0, int(maxv)))};
        },
        ref, dist);
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
