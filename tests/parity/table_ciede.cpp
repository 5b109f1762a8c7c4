// SPDX-License-Identifier: BSD-2-Clause-Patent
// ciede's table: libvmaf's numbers on every golden pair, the CPU's to the bit on
// every depth, chroma layout and awkward size, with extreme and saturated
// colours. Pictures of a few pixels isolate single CIEDE2000 evaluations (their
// sum in double is exact whatever the order, so any difference there is a
// per-pixel one). The 10-bit golden pair has pixels whose dE00 depends on how
// the C library's powf rounds C'^7, which the host settles (ciede_vk.cpp): the
// flat-area case holds such colour pairs.
#include <algorithm>
#include <cmath>
#include <random>

#include "feature/ciede/ciede.h"
#include "parity.h"
#include "picture/picture.h"
#include "pictures.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

namespace {

// Frame kinds cycle through uniform noise over the whole sample range
// (saturated and out-of-gamut colours), textured video-range content with a
// small distortion, all black against all white, and the corners of the YUV cube.
void synthetic(const Synthetic &c, uint32_t seed, std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    std::mt19937 rng(seed);
    const unsigned maxv = (1u << c.bpc) - 1;
    const unsigned s = 1u << (c.bpc - 8);
    for (unsigned f = 0; f < c.frames; f++) {
        const unsigned kind = f % 4;
        auto gen = [&](bool distorted) {
            return [&, distorted](unsigned pl, unsigned x, unsigned y) -> unsigned {
                switch (kind) {
                case 0: return unsigned(rng() % (maxv + 1));
                case 1: {
                    const double v = pl ? 128 + 40 * std::sin(0.3 * x + f) : 120 + 80 * std::cos(0.2 * x + 0.3 * y);
                    const int n = distorted ? int(rng() % 9) - 4 : 0;
                    return unsigned(std::clamp(int(v * s) + n, 0, int(maxv)));
                }
                case 2: return distorted ? maxv : 0u;
                default: {
                    const unsigned corner = (x + 3 * y + pl + (distorted ? 1 : 0)) % 3;
                    return corner == 0 ? 0u : corner == 1 ? maxv : 16 * s + unsigned(rng() % (220 * s));
                }
                }
            };
        };
        ref->push_back(make_picture(c.fmt, c.bpc, c.w, c.h, gen(false)));
        dist->push_back(make_picture(c.fmt, c.bpc, c.w, c.h, gen(true)));
    }
}

// 4x4 4:4:4 pictures: sixteen independent evaluations per frame, over the whole
// sample range, or near grey (small hue angles, chroma near zero, where atan2
// and the hue wrap are delicate).
Synthetic single_pixels(unsigned bpc, bool near_grey)
{
    Synthetic c{VMAF_PIX_FMT_YUV444P, bpc, 4, 4, 64};
    c.what = near_grey ? "single pixels near grey" : "single pixels of any colour";
    c.make = [bpc, near_grey](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
        std::mt19937 rng(bpc * 7 + near_grey);
        const unsigned maxv = (1u << bpc) - 1, mid = 1u << (bpc - 1);
        auto gen = [&](unsigned pl, unsigned, unsigned) -> unsigned {
            if (!near_grey) return unsigned(rng() % (maxv + 1));
            return pl ? mid + unsigned(rng() % 5) - 2 : unsigned(rng() % (maxv + 1));
        };
        for (unsigned f = 0; f < 64; f++) {
            ref->push_back(make_picture(VMAF_PIX_FMT_YUV444P, bpc, 4, 4, gen));
            dist->push_back(make_picture(VMAF_PIX_FMT_YUV444P, bpc, 4, 4, gen));
        }
    };
    return c;
}

// Pixel pairs of the 10-bit golden pair whose dE00 depends on how powf rounds
// C'^7 (glibc rounds it the other way from the exact value), as flat areas:
// every pixel of a tile needs settling, with one or two colour pairs per tile,
// some tiles with a third pair; plus noise.
Synthetic powf_sensitive()
{
    Synthetic c{VMAF_PIX_FMT_YUV444P, 10, 72, 64, 4};
    c.what = "flat areas of colour pairs whose dE00 hangs on powf's rounding";
    c.make = [](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
        struct Yuv {
            unsigned y, u, v;
        };
        static const Yuv pairs[3][2] = {{{181, 541, 500}, {186, 536, 493}},
                                        {{387, 589, 464}, {388, 586, 470}},
                                        {{274, 568, 480}, {273, 568, 482}}};
        for (unsigned f = 0; f < 4; f++) {
            std::mt19937 rng(f);
            auto gen = [&](bool d) {
                return [&, d](unsigned pl, unsigned x, unsigned y) -> unsigned {
                    const unsigned k = f == 0 ? 0 : f == 1 ? (x / 8) % 2 : (x / 8 + y / 8) % 3;
                    if (f == 3 && y >= 48) return 64 + unsigned(rng() % 800);  // and some noise
                    const Yuv &c = pairs[k][d ? 1 : 0];
                    return pl == 0 ? c.y : pl == 1 ? c.u : c.v;
                };
            };
            ref->push_back(make_picture(VMAF_PIX_FMT_YUV444P, 10, 72, 64, gen(false)));
            dist->push_back(make_picture(VMAF_PIX_FMT_YUV444P, 10, 72, 64, gen(true)));
        }
    };
    return c;
}

const Table &ciede_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kCiedeExtractor;
        t.golden = {{".libvmaf.more.json", {"ciede2000"}, 1e-4, true},
                    {".libvmaf.aom_ctc_v7.0.json", {"ciede2000"}, 1e-4, true}};
        t.synthetic = {
            {VMAF_PIX_FMT_YUV420P, 8, 37, 23, 8},    {VMAF_PIX_FMT_YUV420P, 10, 37, 23, 8},
            {VMAF_PIX_FMT_YUV420P, 12, 33, 35, 8},   {VMAF_PIX_FMT_YUV420P, 16, 19, 17, 4},
            {VMAF_PIX_FMT_YUV422P, 8, 131, 9, 4},    {VMAF_PIX_FMT_YUV422P, 10, 45, 21, 8},
            {VMAF_PIX_FMT_YUV422P, 12, 7, 66, 4},    {VMAF_PIX_FMT_YUV444P, 8, 40, 33, 8},
            {VMAF_PIX_FMT_YUV444P, 10, 17, 19, 8},   {VMAF_PIX_FMT_YUV444P, 12, 29, 3, 8},
            {VMAF_PIX_FMT_YUV444P, 16, 13, 11, 4},   {VMAF_PIX_FMT_YUV420P, 8, 1, 1, 4},
            {VMAF_PIX_FMT_YUV422P, 10, 1, 5, 4},     {VMAF_PIX_FMT_YUV420P, 10, 3, 3, 4},
            {VMAF_PIX_FMT_YUV444P, 12, 1, 1, 4},     {VMAF_PIX_FMT_YUV420P, 8, 70, 1, 4},
            {VMAF_PIX_FMT_YUV444P, 12, 256, 128, 4}, {VMAF_PIX_FMT_YUV420P, 10, 200, 96, 4},
        };
        for (unsigned bpc : {8u, 10u})
            for (bool grey : {false, true}) t.synthetic.push_back(single_pixels(bpc, grey));
        t.synthetic.push_back(powf_sensitive());
        t.frames_in_flight = {1, 3};
        t.generate = synthetic;
        // The 10-bit pair: the one with pixels the host settles.
        t.api_pairs = {"rocket_320x240_10bit_crf30"};
        t.needs_float64 = true;  // the kernel needs doubles (lavapipe has them)
        t.check_second_flush = false;
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(ciede, ciede_table, "[ciede]")

TEST_CASE("ciede: identical pictures score +infinity on the GPU", "[ciede][vulkan]")
{
    vk::State &st = shared_state();
    REQUIRE(st.float64());
    std::vector<VmafPicture> ref, dist;
    synthetic({VMAF_PIX_FMT_YUV420P, 10, 24, 18, 2}, 5, &ref, &dist);
    const MapSink gpu = run_engine(st, kCiedeExtractor, options_for(kCiedeExtractor), ref, ref);
    REQUIRE(gpu.scores.at("ciede2000").size() == 2);
    for (const auto &[i, v] : gpu.scores.at("ciede2000")) CHECK((std::isinf(v) && v > 0));
    unref_all(ref);
    unref_all(dist);
    check_clean(st);
}
