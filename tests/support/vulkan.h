// SPDX-License-Identifier: BSD-2-Clause-Patent
// Test helpers for the Vulkan backend: a validated device state, the GPU and
// CPU runners and their comparison, and scores through the C API.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "context/context.h"
#include "feature/extractor.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "libvmaf/model.h"
#include "options.h"
#include "pictures.h"
#include "sink.h"
#include "vulkan/state.h"
#include "gpu/engine.h"

namespace vmaf::test {

// Whether tests run with the validation layer: VMAF_TEST_VULKAN_NO_VALIDATION=1
// runs without it, for machines that do not have it installed.
inline bool validation_wanted()
{
    const char *off = std::getenv("VMAF_TEST_VULKAN_NO_VALIDATION");
    return !(off && *off == '1');
}

// A state on the default device with the validation layer on (see
// validation_wanted()): check_clean() fails the test on any validation error
// or warning.
inline std::unique_ptr<vk::State> validated_state(unsigned frames_in_flight = vk::kDefaultFramesInFlight)
{
    vk::Config cfg;
    cfg.validation = validation_wanted();
    cfg.frames_in_flight = frames_in_flight;
    std::unique_ptr<vk::State> st;
    REQUIRE(vk::State::create(cfg, &st) == 0);
    REQUIRE(st->validation_enabled() == cfg.validation);
    return st;
}

inline void check_clean(const vk::State &st)
{
    INFO("validation messages on " << st.info().name);
    CHECK(st.validation_errors() == 0);
    CHECK(st.validation_warnings() == 0);
}

// Every frame of `ref`/`dist` through a GPU Engine running `ex` alone (REQUIREs
// that the device runs it with these options on this format); with
// `check_second_flush`, also checks that flushing again succeeds.
inline MapSink run_engine(vk::State &st, const ExtractorInfo &ex, const FeatureOptions &opts,
                          const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist,
                          bool check_second_flush = false)
{
    const FrameFormat fmt = format_of(ref[0]);
    REQUIRE(vk::Engine::supports(st, fmt, ex, opts));
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(&st, fmt, {{&ex, opts}}, &engine) == 0);
    MapSink sink;
    for (size_t i = 0; i < ref.size(); i++) REQUIRE(engine->submit(ref[i], dist[i], unsigned(i), sink) == 0);
    REQUIRE(engine->flush(sink) == 0);
    if (check_second_flush) CHECK(engine->flush(sink) == 0);  // a second flush does nothing
    return sink;
}

// Every frame through one Engine running several configurations, each into
// its own sink (in `list` order); *names gets the engine's feature instances
// (Engine::feature_names()).
inline std::vector<MapSink> run_engine_configs(vk::State &st, const std::vector<vk::Engine::FeatureConfig> &configs,
                                               const std::vector<VmafPicture> &ref,
                                               const std::vector<VmafPicture> &dist, std::vector<std::string> *names)
{
    std::vector<MapSink> sinks(configs.size());
    vk::Engine::FeatureList list = configs;
    for (size_t k = 0; k < list.size(); k++) list[k].sink = &sinks[k];
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(&st, format_of(ref[0]), list, &engine) == 0);
    names->clear();
    for (const char *n : engine->feature_names()) names->push_back(n);
    MapSink rest;  // every configuration has its own sink: nothing comes here
    for (size_t i = 0; i < ref.size(); i++) REQUIRE(engine->submit(ref[i], dist[i], unsigned(i), rest) == 0);
    REQUIRE(engine->flush(rest) == 0);
    CHECK(rest.scores.empty());
    return sinks;
}

// A second state on `own`'s device, adopted as if shaderFloat64 were not
// enabled: features then take their paths for devices without doubles.
inline std::unique_ptr<vk::State> adopt_without_float64(const vk::State &own, vk::FeatureChain *features)
{
    features->require();
    vk::ExternalDevice ext;
    ext.instance = own.instance();
    ext.physical = own.physical_device();
    ext.device = own.device();
    ext.queue_family = own.queue_family();
    ext.enabled_features = &features->core;
    ext.api_version = VK_API_VERSION_1_2;
    std::unique_ptr<vk::State> st;
    REQUIRE(vk::State::adopt(ext, &st) == 0);
    REQUIRE(!st->float64());
    return st;
}

// The same through the CPU extractor, the oracle.
inline MapSink run_extractor(const ExtractorInfo &ex, const FeatureOptions &opts,
                             const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist)
{
    auto e = ex.create(opts);
    REQUIRE(e->init(format_of(ref[0])) == 0);
    MapSink sink;
    for (size_t i = 0; i < ref.size(); i++) REQUIRE(e->extract(ref[i], dist[i], unsigned(i), sink) == 0);
    REQUIRE(e->flush(sink) == 0);
    return sink;
}

// A state of the public API on the default device, validated as validated_state() is.
inline VmafVulkanState *validated_api_state()
{
    VmafVulkanConfiguration vcfg{};
    vcfg.device_index = VMAF_VULKAN_DEVICE_AUTO;
    vcfg.enable_validation = validation_wanted();
    VmafVulkanState *vk = nullptr;
    REQUIRE(vmaf_vulkan_state_init(&vk, vcfg) == 0);
    return vk;
}

// How far a GPU score may be from the CPU's in compare_scores().
struct Agreement {
    double tol = 0;             // largest |GPU - CPU| (equal values, infinities included, are 0 apart)
    bool nan_equal = false;     // NaN on both sides agrees (and is left out of the differences)
    long *differing = nullptr;  // when set, counts the values that differ at all
};

// Every output of `cpu` is in `gpu`, and nothing else, with the same frames,
// each value within `a.tol`; returns max |diff| per output.
inline std::map<std::string, double> compare_scores(const MapSink &gpu, const MapSink &cpu, const Agreement &a = {})
{
    std::map<std::string, double> diffs;
    REQUIRE(gpu.scores.size() == cpu.scores.size());
    for (const auto &[name, series] : cpu.scores) {
        INFO(name);
        REQUIRE(gpu.scores.count(name));
        REQUIRE(gpu.scores.at(name).size() == series.size());
        double &m = diffs[name];
        for (const auto &[i, v] : series) {
            const double g = gpu.scores.at(name).at(i);
            if (a.nan_equal && std::isnan(g) && std::isnan(v)) continue;
            const double d = g == v ? 0.0 : std::fabs(g - v);
            INFO("frame " << i << ": GPU " << g << ", CPU " << v);
            CHECK(d <= a.tol);
            if (a.differing && d != 0.0) ++*a.differing;
            m = std::max(m, d);
        }
    }
    return diffs;
}

// Every score and aggregate of `cpu`, and nothing else, in `gpu` to the bit.
inline void require_identical(const MapSink &gpu, const MapSink &cpu)
{
    compare_scores(gpu, cpu);
    CHECK(gpu.aggregates == cpu.aggregates);
}

// The largest of per-output differences.
inline double max_of(const std::map<std::string, double> &m)
{
    double r = 0;
    for (const auto &[n, v] : m) r = std::max(r, v);
    return r;
}

// A golden pair scored through a context running `feature` alone, with its
// defaults, and `st` imported unless `on_cpu` (the internal import the C shim
// uses, to see the submissions): the values of `output` per frame, and the
// submissions `st` made meanwhile.
struct ContextScores {
    std::vector<double> values;
    uint64_t submissions = 0;
};
inline ContextScores score_in_context(vk::State &st, const char *feature, const std::string &pair, const char *output,
                                      bool on_cpu = false)
{
    VmafConfiguration cfg{};
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    if (!on_cpu) REQUIRE(context_import_vulkan_state(vmaf, &st) == 0);
    REQUIRE(vmaf_use_feature(vmaf, feature, nullptr) == 0);
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    const size_t n = ref.size();
    const uint64_t before = st.submissions();
    for (size_t i = 0; i < n; i++) REQUIRE(vmaf_read_pictures(vmaf, &ref[i], &dist[i], unsigned(i)) == 0);
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    ContextScores r{std::vector<double>(n), st.submissions() - before};
    for (size_t i = 0; i < n; i++) REQUIRE(vmaf_feature_score_at_index(vmaf, output, &r.values[i], unsigned(i)) == 0);
    REQUIRE(vmaf_close(vmaf) == 0);
    return r;
}

// libvmaf's JSON for a golden pair scored with model `version`.
inline Expected expected_for_model(const std::string &pair, const std::string &version)
{
    return load_expected(data_dir() + "/" + pair + ".libvmaf." + (version == "vmaf_v0.6.1" ? "" : version + ".") +
                         "json");
}

// One golden pair through the C API with model `version`: VMAF and each output
// of libvmaf's JSON whose name holds one of `families`, per frame. With `st`,
// the context runs on it.
struct ModelScores {
    std::map<std::string, std::vector<double>> values;
    size_t frames = 0;
    uint64_t submissions = 0;  // by `st`, for the frames
    bool gpu_engine = false;   // whether the context ran a GPU engine
};
inline ModelScores score_model_through_api(const std::string &pair, const char *version, vk::State *st,
                                           std::initializer_list<const char *> families)
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    if (st) REQUIRE(context_import_vulkan_state(vmaf, st) == 0);
    VmafModelConfig mcfg{};
    mcfg.name = "vmaf";
    VmafModel *model = nullptr;
    REQUIRE(vmaf_model_load(&model, &mcfg, version) == 0);
    REQUIRE(vmaf_use_features_from_model(vmaf, model) == 0);
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    const auto expected = expected_for_model(pair, version);
    ModelScores r;
    r.frames = ref.size();
    const uint64_t before = st ? st->submissions() : 0;
    for (size_t i = 0; i < ref.size(); i++) REQUIRE(vmaf_read_pictures(vmaf, &ref[i], &dist[i], unsigned(i)) == 0);
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    r.submissions = st ? st->submissions() - before : 0;
    r.gpu_engine = vmaf->ctx.vulkan_engine() != nullptr;
    auto wanted = [&](const std::string &name) {
        for (const char *f : families)
            if (name.find(f) != std::string::npos) return true;
        return false;
    };
    for (size_t i = 0; i < r.frames; i++) {
        double v = 0;
        REQUIRE(vmaf_score_at_index(vmaf, model, &v, unsigned(i)) == 0);
        r.values["vmaf"].push_back(v);
        for (const auto &[name, want] : expected.frames[i]) {
            if (name == "vmaf" || !wanted(name)) continue;
            if (vmaf_feature_score_at_index(vmaf, name.c_str(), &v, unsigned(i)) == 0) r.values[name].push_back(v);
        }
    }
    REQUIRE(vmaf_close(vmaf) == 0);
    vmaf_model_destroy(model);
    return r;
}

}  // namespace vmaf::test
