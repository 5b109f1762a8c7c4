// SPDX-License-Identifier: BSD-2-Clause-Patent
// XPSNR's table: the CPU's to the bit (itself checked against FFmpeg's filter in
// test_xpsnr) on every golden pair and on every format, depth and path of the
// filter: small pictures, thin border blocks, the second-order temporal
// difference, no smoothing above 640x480, 2x2 sums above 2048x1152.
#include <algorithm>
#include <random>

#include "feature/xpsnr/xpsnr.h"
#include "parity.h"
#include "picture/picture.h"

using namespace vmaf;
using namespace vmaf::test::parity;

namespace {

// The reference a moving gradient on the left half and noise on the right (so
// block weights differ and some sit at the activity floor), the distorted one
// the reference plus noise of +-spread; samples up to the depth's maximum
// (16-bit ones above 32767, which the filter takes as negative).
void synthetic(const Synthetic &c, uint32_t seed, std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    std::mt19937 rng(seed);
    const int maxv = int((1u << c.bpc) - 1);
    fill_pairs(
        c,
        [&](const VmafPicture &r, unsigned f, unsigned p, unsigned x, unsigned y) {
            const int spread = 1 + int(f % 3) * 4;
            const int a = x < r.w[p] / 2 ? int((x * 3 + y * 5 + f * 7) * unsigned(maxv) / 1024) % (maxv + 1)
                                         : int(rng() % unsigned(maxv + 1));
            const int b = std::clamp(a + int(rng() % unsigned(2 * spread + 1)) - spread, 0, maxv);
            return std::pair{unsigned(a), unsigned(b)};
        },
        ref, dist);
}

const Table &xpsnr_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kXpsnrExtractor;
        t.outputs = {"xpsnr_y", "xpsnr_cb", "xpsnr_cr"};
        t.aggregates = 3;
        const auto fmts = {VMAF_PIX_FMT_YUV400P, VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV444P};
        // 40x30: too small to weight (plain SSE). 313x200: 12-sample blocks, the
        // last column 1 wide (no activity, history kept). 176x144 at 60 fps:
        // second-order difference. 700x500: above 640x480 (no smoothing).
        struct Size {
            unsigned w, h, frames;
            const char *fps;
        };
        for (Size s : {Size{40, 30, 2, "0"}, Size{313, 200, 4, "25"}, Size{176, 144, 4, "60"}, Size{700, 500, 2, "30"}})
            for (VmafPixelFormat f : fmts)
                for (unsigned bpc : {8u, 10u, 16u}) t.synthetic.push_back({f, bpc, s.w, s.h, s.frames, {{"fps", s.fps}}});
        // Above 2048x1152: 2x2 sums, odd and even sizes.
        t.synthetic.push_back({VMAF_PIX_FMT_YUV420P, 8, 2049, 1153, 3, {{"fps", "25"}}});
        t.synthetic.push_back({VMAF_PIX_FMT_YUV420P, 8, 2560, 1440, 3, {{"fps", "50"}}});
        t.generate = synthetic;
        t.api_pairs = {"rocket_320x240_10bit_crf30"};
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(xpsnr, xpsnr_table, "[xpsnr]")
