// SPDX-License-Identifier: BSD-2-Clause-Patent
// The parity harness's model-level case file (no extractor table: the models
// combine several twins). The VMAF v1 models (and their HFR variants, whose
// motion3 takes the five-frame window) by name through the C API with the
// Vulkan backend, on the harness's shared state: every feature (cambi, integer
// adm3, integer motion3 and speed_chroma, with the _2160 models' bilinear
// speed_prescale too) runs on the device, and every per-frame output and the
// pooled VMAF equal Netflix libvmaf's to the bit on every golden pair it
// scores; where libvmaf fails (planes too small for SpEED: its twin declines
// them), the same clean error as on the CPU. Every other run has 4 threads, so
// SpEED's host finishing runs on the engine's workers (ADR 0066). The
// validation layer reports nothing.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "context/context.h"
#include "golden.h"
#include "parity.h"
#include "v1_models.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

TEST_CASE("the v1 models on the Vulkan backend equal libvmaf to the bit", "[v1_models]")
{
    vk::State &st = shared_state();
    unsigned runs = 0, values = 0;
    for (const auto &pair : golden_pairs()) {
        for (const V1Model &model : kV1Models) {
            if (!std::filesystem::exists(data_dir() + "/" + pair + model.golden)) continue;
            const unsigned threads = runs % 2 ? 4 : 0;
            INFO(pair << " " << model.version << ", " << threads << " threads");
            unsigned on_workers = 0;
            // Every feature on the device: cambi, adm, motion and SpEED.
            const V1Run r = v1_on_gpu(pair, model, {"cambi", "adm", "motion", "speed_chroma"}, threads, &on_workers);
            CHECK(on_workers == (threads ? 1u : 0u));  // speed_chroma's fits
            runs++;
            values += r.values;
        }
    }
    if (!golden_subset()) CHECK(runs == 18);
    CHECK(runs > 0);
    std::printf("v1 models on the Vulkan backend: %u runs, %u values, all equal to libvmaf's\n", runs, values);
    check_clean(st);
}

TEST_CASE("the v1 models on the Vulkan backend: SpEED's size error where libvmaf fails", "[v1_models]")
{
    vk::State &st = shared_state();
    unsigned failed = 0;
    for (const auto &pair : golden_pairs()) {
        for (const V1Model &model : kV1Models) {
            if (std::filesystem::exists(data_dir() + "/" + pair + model.golden)) continue;
            INFO(pair << " " << model.version);
            const V1Run r = run_v1(pair, model,
                                   [&](VmafContext *v) { REQUIRE(context_import_vulkan_state(v, &st) == 0); });
            INFO(r.log);
            CHECK(r.err == -EINVAL);
            CHECK(r.log.find("speed_chroma") != std::string::npos);
            CHECK(r.log.find("at least 80x80") != std::string::npos);
            failed++;
        }
    }
    if (!golden_subset()) CHECK(failed == 22);
    check_clean(st);
}

TEST_CASE("the v1 HFR models on the Vulkan backend equal libvmaf to the bit", "[v1_models]")
{
    vk::State &st = shared_state();
    unsigned runs = 0, values = 0;
    for (const auto &pair : golden_pairs()) {
        for (const V1Model &model : kV1HfrModels) {
            if (!std::filesystem::exists(data_dir() + "/" + pair + model.golden)) continue;
            INFO(pair << " " << model.version);
            // Every feature on the device, motion3 with its five-frame window included.
            const V1Run r = v1_on_gpu(pair, model, {"motion"});
            runs++;
            values += r.values;
        }
    }
    if (!golden_subset()) CHECK(runs == 14);
    CHECK(runs > 0);
    std::printf("v1 HFR models on the Vulkan backend: %u runs, %u values, all equal to libvmaf's\n", runs, values);
    check_clean(st);
}
