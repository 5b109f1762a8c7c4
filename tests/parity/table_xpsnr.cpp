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
    ref->resize(c.frames);
    dist->resize(c.frames);
    const int maxv = int((1u << c.bpc) - 1);
    for (unsigned f = 0; f < c.frames; f++) {
        REQUIRE(picture_alloc(&(*ref)[f], c.fmt, c.bpc, c.w, c.h) == 0);
        REQUIRE(picture_alloc(&(*dist)[f], c.fmt, c.bpc, c.w, c.h) == 0);
        const int spread = 1 + int(f % 3) * 4;
        for (unsigned p = 0; p < plane_count(c.fmt); p++) {
            const VmafPicture &r = (*ref)[f];
            for (unsigned y = 0; y < r.h[p]; y++)
                for (unsigned x = 0; x < r.w[p]; x++) {
                    const int a = x < r.w[p] / 2 ? int((x * 3 + y * 5 + f * 7) * unsigned(maxv) / 1024) % (maxv + 1)
                                                 : int(rng() % unsigned(maxv + 1));
                    const int b = std::clamp(a + int(rng() % unsigned(2 * spread + 1)) - spread, 0, maxv);
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
