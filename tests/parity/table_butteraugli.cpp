// SPDX-License-Identifier: BSD-2-Clause-Patent
// butteraugli's table: the CPU extractor's numbers (itself checked against
// libjxl's tool in test_butteraugli) to the bit, with libjxl's fused and
// unfused multiply-adds, another matrix, range and intensity target; libjxl's
// tool itself on every golden pair (the distance to the bit, the 3-norm to
// the 6 decimals it prints); synthetic pictures of every format and the depths
// above 8, among them widths whose 5-tap blur takes libjxl's scalar path
// (narrower than its lanes + 2, at full size or at the subsample) and sizes
// whose subsample is below 8x8. A device without doubles and pictures below
// 8x8 leave the work to the CPU. The twin is slow on lavapipe (its float
// operations rounded as the CPU's, in double): the options and the APIs on
// one small pair.
#include <algorithm>
#include <random>

#include "feature/butteraugli/butteraugli.h"
#include "golden.h"
#include "parity.h"
#include "picture/picture.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

namespace {

// The tool prints the 3-norm with 6 decimals.
constexpr double kNormTolerance = 5e-7 + 1e-12;

const Table &butteraugli_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kButteraugliExtractor;
        t.needs_float64 = true;
        t.outputs = {"butteraugli", "butteraugli_3norm"};
        // Every golden pair against libjxl's tool (VMAF_TEST_GOLDEN_PAIRS
        // narrows them); the other paths on one small pair.
        const std::vector<std::string> pair = {"astronaut_176x144_crf35"};
        t.golden = {{".butteraugli.json", {"butteraugli"}, 0.0, false},
                    {".butteraugli.json", {"butteraugli_3norm"}, kNormTolerance, false}};
        t.option_sets = {{{"libjxl_fma", "0"}}, {{"matrix", "bt709"}, {"range", "full"}, {"intensity_target", "203"}}};
        t.option_pairs = pair;
        // 9x12: the 5-tap blur's scalar path throughout, no subsample; 38x21:
        // a subsample of 19x11 (scalar columns after one vector); 8x8: the
        // smallest; 67x41 4:2:2: odd chroma blocks, a tail at both sizes.
        struct Case {
            VmafPixelFormat fmt;
            unsigned bpc, w, h;
        };
        for (Case c : {Case{VMAF_PIX_FMT_YUV444P, 8, 9, 12}, Case{VMAF_PIX_FMT_YUV420P, 10, 38, 21},
                       Case{VMAF_PIX_FMT_YUV420P, 16, 8, 8}, Case{VMAF_PIX_FMT_YUV422P, 12, 67, 41}})
            for (const char *fma : {"1", "0"})
                t.synthetic.push_back({c.fmt, c.bpc, c.w, c.h, 2, {{"libjxl_fma", fma}}});
        t.generate = [](const Synthetic &c, uint32_t seed, std::vector<VmafPicture> *ref,
                         std::vector<VmafPicture> *dist) { ramps(c, seed, 5, ref, dist); };
        t.declines = {{{VMAF_PIX_FMT_YUV420P, 8, 64, 48}, {}, "needs doubles", true},
                      {{VMAF_PIX_FMT_YUV420P, 8, 7, 48}, {}, "narrower than 8"},
                      {{VMAF_PIX_FMT_YUV420P, 8, 64, 7}, {}, "lower than 8"},
                      {{VMAF_PIX_FMT_YUV400P, 8, 64, 48}, {}, "no chroma"}};
        t.api_pairs = pair;
        t.one_submission_per_frame = false;  // the zeroed scratch at init, then one per frame
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(butteraugli, butteraugli_table, "[butteraugli]")
