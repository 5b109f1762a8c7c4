// SPDX-License-Identifier: BSD-2-Clause-Patent
// ssimulacra2's table: the CPU extractor's numbers (itself checked against
// libjxl's tool in test_ssimulacra2) within 1e-6 on every golden pair (8 and 10
// bit; 4:2:0, 4:2:2, 4:4:4), with libjxl's fused and unfused multiply-adds and
// another matrix and range; libjxl's tool within 1e-6 on the 10-bit pair;
// synthetic 12- and 16-bit pictures of odd and the smallest sizes. A device
// without doubles and pictures below 8x8 leave the work to the CPU.
#include <algorithm>
#include <cmath>
#include <random>

#include "feature/ssimulacra2/ssimulacra2.h"
#include "env.h"
#include "golden.h"
#include "parity.h"
#include "picture/picture.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

namespace {

// The sums of the maps are added in another order than the CPU's (one column
// after another, each column's in double): ADR 0078, ADR 0088.
constexpr double kTolerance = 1e-6;

const Table &ssimulacra2_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kSsimulacra2Extractor;
        t.tol = kTolerance;
        t.needs_float64 = true;
        t.outputs = {"ssimulacra2"};
        // libjxl's own tool on the 10-bit pair (test_ssimulacra2 holds the CPU
        // extractor to the same bound).
        t.golden = {{".ssimulacra2.json", {"ssimulacra2"}, kTolerance, false, {"rocket_320x240_10bit_crf30"}}};
        t.option_sets = {{{"libjxl_fma", "0"}}, {{"matrix", "bt709"}, {"range", "full"}}};
        t.option_pairs = golden_pairs();  // the pairs VMAF_TEST_GOLDEN_PAIRS names
        // 37x29: four scales, the last 5x4 (narrower than the blur's radius);
        // 8x8: two scales; 67x41 4:2:2: odd chroma blocks.
        struct Case {
            VmafPixelFormat fmt;
            unsigned bpc, w, h;
        };
        for (Case c : {Case{VMAF_PIX_FMT_YUV444P, 12, 37, 29}, Case{VMAF_PIX_FMT_YUV420P, 16, 8, 8},
                       Case{VMAF_PIX_FMT_YUV422P, 12, 67, 41}, Case{VMAF_PIX_FMT_YUV420P, 16, 67, 41}})
            for (const char *fma : {"1", "0"})
                t.synthetic.push_back({c.fmt, c.bpc, c.w, c.h, 2, {{"libjxl_fma", fma}, {"range", "full"}}});
        t.generate = [](const Synthetic &c, uint32_t seed, std::vector<VmafPicture> *ref,
                         std::vector<VmafPicture> *dist) { ramps(c, seed, 0, ref, dist); };
        t.declines = {{{VMAF_PIX_FMT_YUV420P, 8, 64, 48}, {}, "needs doubles", true},
                      {{VMAF_PIX_FMT_YUV420P, 8, 7, 48}, {}, "narrower than 8"},
                      {{VMAF_PIX_FMT_YUV420P, 8, 64, 7}, {}, "lower than 8"}};
        t.api_pairs = {"rocket_320x240_10bit_crf30"};
        t.one_submission_per_frame = false;  // the constants at init, then one per frame: the case below
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(ssimulacra2, ssimulacra2_table, "[ssimulacra2]")

TEST_CASE("ssimulacra2: a device without doubles and pictures below 8x8 stay on the CPU", "[ssimulacra2][vulkan]")
{
    vk::State &own = shared_state();
    vk::FeatureChain no_float64;
    std::unique_ptr<vk::State> st = adopt_without_float64(own, &no_float64);
    const auto opts = options_for(kSsimulacra2Extractor);
    FrameFormat fmt{};
    fmt.pix_fmt = VMAF_PIX_FMT_YUV420P;
    fmt.bpc = 8;
    fmt.w = 64;
    fmt.h = 48;
    CHECK(vk::Engine::supports(own, fmt, kSsimulacra2Extractor, opts));
    CHECK(!vk::Engine::supports(*st, fmt, kSsimulacra2Extractor, opts));
    for (auto [w, h] : {std::pair{7u, 48u}, std::pair{64u, 7u}}) {
        fmt.w = w;
        fmt.h = h;
        CHECK(!vk::Engine::supports(own, fmt, kSsimulacra2Extractor, opts));
        CHECK(kSsimulacra2Extractor.create(opts)->init(fmt) == -EINVAL);  // the CPU's clear error
    }
    check_clean(own);
}

TEST_CASE("ssimulacra2: a context with an imported state scores as libjxl's tool, one submission per frame",
          "[ssimulacra2][vulkan]")
{
    // A state of its own: the shared one has the constants from earlier cases.
    auto own = validated_state();
    vk::State &st = *own;
    vk::ssimulacra2_native_fma(st);  // the fma() probe's own submission, once per device, before counting
    const std::string pair = "rocket_320x240_10bit_crf30";
    const Expected e = load_expected(data_dir() + "/" + pair + ".ssimulacra2.json");
    // The engine takes the offer to carry the column blurs into the next
    // frame (ADR 0089); VMAF_VULKAN_CARRY=0 declines it. The same kernels in
    // the same order either way: the same scores, bit for bit.
    std::vector<double> carried;
    for (const bool carry : {true, false}) {
        INFO((carry ? "carried" : "VMAF_VULKAN_CARRY=0"));
        const EnvOverride env("VMAF_VULKAN_CARRY", carry ? nullptr : "0");
        const ContextScores gpu = score_in_context(st, "ssimulacra2", pair, "ssimulacra2");
        // The constants at init (the first context only), one per frame, and
        // carrying, the last frame's column blurs alone.
        CHECK(gpu.submissions == gpu.values.size() + (carry ? 2 : 0));
        REQUIRE(e.frames.size() == gpu.values.size());
        if (carry) carried = gpu.values;
        else CHECK(gpu.values == carried);
        double diff = 0;
        for (size_t i = 0; i < gpu.values.size(); i++) {
            INFO("frame " << i);
            const double d = std::fabs(gpu.values[i] - e.frames[i].at("ssimulacra2"));
            CHECK(d <= kTolerance);
            diff = std::max(diff, d);
        }
        std::printf("%s through a context on the GPU (%s): max |GPU - libjxl| %.3g over %zu frames\n", pair.c_str(),
                    carry ? "carried" : "not carried", diff, gpu.values.size());
    }
    check_clean(st);
}

TEST_CASE("ssimulacra2: fma() where the device's rounds once, else the emulation in double, the same scores",
          "[ssimulacra2][vulkan]")
{
    // ADR 0086: the probe compares, on the device, fma_native() (fma() where
    // operands and result are normal floats) with the emulation in double, on
    // triples chosen to catch a second rounding. lavapipe's fma() is a product
    // and a sum, rounded twice: the probe must say so (it differs on about one
    // random triple in ten). Either way of computing libjxl's fused
    // multiply-add gives the same floats, so the same scores, bit for bit.
    auto own = validated_state();
    vk::State &st = *own;
    const bool native = vk::ssimulacra2_native_fma(st);
    std::printf("ssimulacra2 on %s: fma() %s\n", st.info().name.c_str(),
                native ? "rounds once: the kernels use it" : "fails the probe: the kernels emulate it");
    if (st.info().name.find("llvmpipe") != std::string::npos) CHECK(!native);
    CHECK(vk::ssimulacra2_native_fma(st) == native);  // worked out once
    const std::string pair = "rocket_320x240_10bit_crf30";
    const ContextScores first = score_in_context(st, "ssimulacra2", pair, "ssimulacra2");
    REQUIRE(setenv("VMAF_VULKAN_NATIVE_FMA", "0", 1) == 0);
    CHECK(!vk::ssimulacra2_native_fma(st));
    const ContextScores emulated = score_in_context(st, "ssimulacra2", pair, "ssimulacra2");
    unsetenv("VMAF_VULKAN_NATIVE_FMA");
    REQUIRE(first.values.size() == emulated.values.size());
    REQUIRE(!first.values.empty());
    for (size_t i = 0; i < first.values.size(); i++) {
        INFO("frame " << i);
        CHECK(first.values[i] == emulated.values[i]);
    }
    check_clean(st);
}
