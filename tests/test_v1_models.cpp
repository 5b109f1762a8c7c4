// SPDX-License-Identifier: BSD-2-Clause-Patent
// The VMAF v1 models (vmaf_v1.0.16_3d0h, _5d0h, _3d0h_2160, _1d5h_2160) and
// their high-frame-rate variants (vmaf_v1.0.16_hfr_*) by
// name through the C API on the CPU: every per-frame output libvmaf printed
// (cambi, speed_chroma, integer adm3 and motion3 with all their companions,
// vmaf) and the pooled VMAF equal Netflix libvmaf's to the bit on every golden
// pair it scores; where libvmaf fails, a clean error saying why.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "golden.h"
#include "v1_models.h"

using namespace vmaf::test;

TEST_CASE("the v1 models by name equal libvmaf to the bit on every golden pair it scores", "[v1][golden]")
{
    unsigned runs = 0, values = 0;
    for (const auto &pair : golden_pairs()) {
        for (const V1Model &model : kV1Models) {
            if (!std::filesystem::exists(data_dir() + "/" + pair + model.golden)) continue;
            INFO(pair << " " << model.version);
            const V1Run r = run_v1(pair, model);
            INFO(r.log);
            REQUIRE(r.err == 0);
            // cambi, speed_chroma u/v/uv, integer adm (2, 3, aim, 4 scales),
            // motion (sad, 2, 3) and vmaf.
            CHECK(r.outputs == 15);
            CHECK(r.max_diff == 0.0);
            CHECK_FALSE(r.gpu_engine);
            std::printf("%-28s %-24s %u values, max |diff| %g\n", pair.c_str(), model.version, r.values, r.max_diff);
            runs++;
            values += r.values;
        }
    }
    // Every file of libvmaf's v1 output (MANIFEST: 18) unless a subset of pairs is picked.
    if (!golden_subset()) CHECK(runs == 18);
    CHECK(runs > 0);
    std::printf("v1 models on the CPU: %u runs, %u values, all equal to libvmaf's\n", runs, values);
}

TEST_CASE("where libvmaf fails on the v1 models, a clear error instead", "[v1]")
{
    unsigned failed = 0, small = 0;
    for (const auto &pair : golden_pairs()) {
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        const unsigned cw = ref[0].w[1], ch = ref[0].h[1];
        const bool small_frames = ref[0].w[0] < 320 && ref[0].h[0] < 240;
        unref_all(ref);
        for (const V1Model &model : kV1Models) {
            if (std::filesystem::exists(data_dir() + "/" + pair + model.golden)) continue;
            INFO(pair << " " << model.version);
            const V1Run r = run_v1(pair, model);
            INFO(r.log);
            CHECK(r.err == -EINVAL);
            const std::string v = model.version;
            const double prescale = v == "vmaf_v1.0.16_5d0h" ? 0.6 : v == "vmaf_v1.0.16_3d0h_2160" ? 0.5 : 1.0;
            const unsigned sw = unsigned(cw * prescale + 0.5), sh = unsigned(ch * prescale + 0.5);
            const bool speed_too_small = sw < 80 || sh < 80;
            // Every such run has chroma planes (prescaled or not) below SpEED's
            // minimum; on the 176x144 pairs libvmaf's SpEED runs on its 88x72
            // planes and libvmaf stops later, for want of cambi's score.
            CHECK(speed_too_small);
            // The feature, the chroma planes' size, the prescaled size and the minimum.
            const std::string plane = std::to_string(cw) + "x" + std::to_string(ch);
            const std::string scaled = std::to_string(sw) + "x" + std::to_string(sh);
            CHECK(r.log.find("speed_chroma") != std::string::npos);
            CHECK(r.log.find(plane) != std::string::npos);
            if (prescale != 1.0) CHECK(r.log.find(scaled + " after speed_prescale") != std::string::npos);
            CHECK(r.log.find("at least 80x80") != std::string::npos);
            failed++;
            small += small_frames;
        }
    }
    if (!golden_subset()) {
        // MANIFEST: every model on the three 176x144 pairs, 5d0h and 3d0h_2160 on
        // the five 4:2:0 pairs of 320x240 and 322x186.
        CHECK(small == 12);
        CHECK(failed == 12 + 10);
    }
    std::printf("v1 models where libvmaf fails: %u runs, each a SpEED size error (%u on 176x144)\n", failed, small);
}

TEST_CASE("the v1 HFR models by name equal libvmaf to the bit on every golden pair it scores", "[v1][golden]")
{
    unsigned runs = 0, values = 0;
    for (const auto &pair : golden_pairs()) {
        for (const V1Model &model : kV1HfrModels) {
            if (!std::filesystem::exists(data_dir() + "/" + pair + model.golden)) continue;
            INFO(pair << " " << model.version);
            const V1Run r = run_v1(pair, model);
            INFO(r.log);
            REQUIRE(r.err == 0);
            // As the v1 models: motion3's outputs carry the _mffw and _mma suffixes.
            CHECK(r.outputs == 15);
            CHECK(r.max_diff == 0.0);
            CHECK_FALSE(r.gpu_engine);
            std::printf("%-28s %-28s %u values, max |diff| %g\n", pair.c_str(), model.version, r.values,
                        r.max_diff);
            runs++;
            values += r.values;
        }
    }
    // Every file of libvmaf's v1 HFR output (MANIFEST: 14) unless a subset of pairs is picked.
    if (!golden_subset()) CHECK(runs == 14);
    CHECK(runs > 0);
    std::printf("v1 HFR models on the CPU: %u runs, %u values, all equal to libvmaf's\n", runs, values);
}
