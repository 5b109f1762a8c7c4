// SPDX-License-Identifier: BSD-2-Clause-Patent
// The engine's profile mode (State::set_profiling, Engine::profile()): one
// interval per part of a frame in command-buffer order (the upload, the host
// copy when the CPU features get one, every stage of every feature, the
// readback), none negative, tiling the frame's own GPU time; the same scores as
// without it; nothing recorded without it, and no intervals on a queue without
// timestamps. Validation layer on. The same through the public API
// (vmaf_vulkan_profile_enable, vmaf_vulkan_profile, vmaf_vulkan_context_stats,
// vmaf_vulkan_feature_on_gpu) on a context.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "context/context.h"
#include "env.h"
#include "feature/registry.h"
#include "libvmaf/libvmaf_introspect.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "picture/picture.h"
#include "stderr_capture.h"
#include "vulkan.h"
#include "gpu/engine.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

constexpr unsigned kW = 96, kH = 64, kFrames = 3;
// GPU twins of the vmaf_v0.6.1 + psnr set and psnr_hvs (whose walk is
// carried into the next frame), in the order they are handed in.
const char *const kFeatures[] = {"psnr", "motion", "vif", "adm", "psnr_hvs"};

struct Frames {
    std::vector<VmafPicture> ref, dist;
    Frames()
    {
        std::mt19937 rng(7);
        for (unsigned f = 0; f < kFrames; f++) {
            for (auto *list : {&ref, &dist}) {
                VmafPicture p;
                REQUIRE(picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, kW, kH) == 0);
                for (unsigned pl = 0; pl < 3; pl++)
                    for (unsigned y = 0; y < p.h[pl]; y++) {
                        auto *row = static_cast<uint8_t *>(p.data[pl]) + size_t(y) * p.stride[pl];
                        for (unsigned x = 0; x < p.w[pl]; x++) row[x] = uint8_t(64 + (x * 3 + y * 5 + f * 7) % 96 + rng() % 32);
                    }
                list->push_back(p);
            }
        }
    }
    ~Frames()
    {
        for (auto *list : {&ref, &dist})
            for (VmafPicture &p : *list) vmaf_picture_unref(&p);
    }
};

const FrameFormat kFormat{VMAF_PIX_FMT_YUV420P, 8, kW, kH};

vk::Engine::FeatureList feature_list()
{
    vk::Engine::FeatureList list;
    for (const char *name : kFeatures) {
        const ExtractorInfo *info = find_extractor(name);
        REQUIRE(info);
        list.emplace_back(info, options_for(*info));
    }
    return list;
}

struct Part {
    std::string name;
    int stage;
    bool carried = false;
};

// The intervals profile mode must report, from each feature's own stage
// counts: stage by stage, the work carried from the frame before first, then
// the features of each stage, each in the order they were handed in. The
// carries on offer (VIF's and ADM's) are taken when the frame then has fewer
// stages (feature/twin.h).
std::vector<Part> expected_parts(vk::State &st, bool host_copy)
{
    std::vector<std::unique_ptr<vk::Feature>> features;
    unsigned plain = 0, carrying = 0;
    for (const auto &[info, opts, sink] : feature_list()) {
        const vk::FeatureInfo *fi = gpu_twin(*info);
        REQUIRE(fi);
        auto f = fi->create(opts);
        size_t bytes = 0;
        REQUIRE(f->init(st, kFormat, &bytes) == 0);
        const unsigned offer = f->carry_offer();
        plain = std::max({plain, f->stages(), f->carried_stages()});
        carrying = std::max({carrying, f->stages() - offer, f->carried_stages(), offer});
        features.push_back(std::move(f));
    }
    const bool take = carrying < plain;
    std::vector<unsigned> stages, carried;
    unsigned most = 0;
    for (auto &f : features) {
        if (take && f->carry_offer()) f->carry();
        stages.push_back(f->stages());
        carried.push_back(f->carried_stages());
        most = std::max({most, f->stages(), f->carried_stages()});
    }
    CHECK(carried.back() == 1);  // psnr_hvs's walk
    std::vector<Part> parts{{"upload", -1}};
    if (host_copy) parts.push_back({"host copy", -1});
    for (unsigned s = 0; s < most; s++) {
        for (size_t i = 0; i < stages.size(); i++)
            if (s < carried[i]) parts.push_back({kFeatures[i], int(s), true});
        for (size_t i = 0; i < stages.size(); i++)
            if (s < stages[i]) parts.push_back({kFeatures[i], int(s)});
    }
    parts.push_back({"readback", -1});
    return parts;
}

struct Run {
    MapSink sink;
    vk::GpuTiming timing;
    vk::GpuProfile profile;
    unsigned host_frames = 0;
    bool host_frames_equal = true;
};

Run run(vk::State &st, const Frames &frames, bool host_frames)
{
    Run r;
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(&st, kFormat, feature_list(), &engine) == 0);
    if (host_frames) {
        // The host copies are the frames handed in.
        REQUIRE(engine->enable_host_frames([&](const VmafPicture &ref, const VmafPicture &dist, unsigned index) {
                    const VmafPicture *want[2] = {&frames.ref[index], &frames.dist[index]};
                    const VmafPicture *got[2] = {&ref, &dist};
                    for (unsigned k = 0; k < 2; k++)
                        for (unsigned pl = 0; pl < 3; pl++)
                            for (unsigned y = 0; y < want[k]->h[pl]; y++)
                                r.host_frames_equal &=
                                    !std::memcmp(static_cast<const uint8_t *>(got[k]->data[pl]) + y * got[k]->stride[pl],
                                                 static_cast<const uint8_t *>(want[k]->data[pl]) + y * want[k]->stride[pl],
                                                 want[k]->w[pl]);
                    r.host_frames++;
                    return 0;
                }) == 0);
    }
    for (unsigned i = 0; i < kFrames; i++) REQUIRE(engine->submit(frames.ref[i], frames.dist[i], i, r.sink) == 0);
    REQUIRE(engine->flush(r.sink) == 0);
    r.timing = engine->gpu_timing();
    r.profile = engine->profile();
    return r;
}

void check_same_scores(const MapSink &a, const MapSink &b)
{
    REQUIRE(a.scores.size() == b.scores.size());
    REQUIRE(!a.scores.empty());
    for (const auto &[name, series] : a.scores) {
        INFO(name);
        REQUIRE(b.scores.count(name));
        CHECK(b.scores.at(name) == series);
    }
}

}  // namespace

TEST_CASE("profile mode: every part of a frame, its own time, tiling the frame", "[profile]")
{
    const Frames frames;
    auto st = validated_state();
    const Run plain = run(*st, frames, false);
    // Off by default: nothing recorded.
    CHECK(plain.profile.frames == 0);
    CHECK(plain.profile.intervals.empty());

    st->set_profiling(true);
    if (!st->timestamps()) {
        WARN("no timestamps on " << st->info().name << "'s queue: profile mode has nothing to report");
        const Run p = run(*st, frames, false);
        CHECK(p.profile.intervals.empty());
        check_same_scores(plain.sink, p.sink);
        return;
    }
    for (const bool host_copy : {false, true}) {
        INFO("host copies: " << host_copy);
        const Run p = run(*st, frames, host_copy);
        // Serializing the features changes no score.
        check_same_scores(plain.sink, p.sink);
        if (host_copy) {
            CHECK(p.host_frames == kFrames);
            CHECK(p.host_frames_equal);
        }
        const auto want = expected_parts(*st, host_copy);
        REQUIRE(p.profile.intervals.size() == want.size());
        for (size_t i = 0; i < want.size(); i++) {
            INFO("part " << i);
            CHECK(p.profile.intervals[i].part == want[i].name);
            CHECK(p.profile.intervals[i].stage == want[i].stage);
            CHECK(p.profile.intervals[i].carried == want[i].carried);
        }
        // Every frame counted, the same frame times as the engine's timing.
        CHECK(p.profile.frames == kFrames);
        CHECK(p.timing.frames == kFrames);
        CHECK(p.profile.total_ms == p.timing.total_ms);
        CHECK(p.profile.total_ms > 0);
        double sum = 0;
        for (const vk::GpuProfile::Interval &i : p.profile.intervals) {
            INFO(i.part << " stage " << i.stage);
            CHECK(i.total_ms >= 0);
            sum += i.total_ms;
        }
        // The intervals run from the frame's first timestamp to its last.
        CHECK(sum <= p.profile.total_ms * (1 + 1e-9));
        CHECK(sum >= p.profile.total_ms * (1 - 1e-9));
    }
    check_clean(*st);
}

TEST_CASE("profile mode: configurations sharing one instance are one part per stage", "[profile]")
{
    // VIF with gain limits 100 and 1 (vmaf_v0.6.1 and its neg model): one
    // instance (feature/twin.h's variants), so one interval per stage, and
    // each configuration's scores in its own sink.
    const Frames frames;
    auto st = validated_state();
    st->set_profiling(true);
    if (!st->timestamps()) {
        WARN("no timestamps on " << st->info().name << "'s queue: profile mode has nothing to report");
        return;
    }
    const ExtractorInfo *vif = find_extractor("vif");
    REQUIRE(vif);
    MapSink sinks[2], rest;
    const vk::Engine::FeatureList list = {{vif, options_for(*vif), &sinks[0]},
                                          {vif, options_for(*vif, {{"vif_enhn_gain_limit", "1"}}), &sinks[1]}};
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(st.get(), kFormat, list, &engine) == 0);
    for (unsigned i = 0; i < kFrames; i++) REQUIRE(engine->submit(frames.ref[i], frames.dist[i], i, rest) == 0);
    REQUIRE(engine->flush(rest) == 0);
    CHECK(rest.scores.empty());
    for (const MapSink &s : sinks) CHECK(s.scores.at("VMAF_integer_feature_vif_scale0_score").size() == kFrames);
    const vk::GpuProfile &p = engine->profile();
    // VIF alone carries its scales 2 and 3 into the next frame (ADR 0050):
    // two stages, each with the carried scale first.
    std::vector<std::tuple<std::string, int, bool>> got, want{{"upload", -1, false}};
    for (int stage = 0; stage < 2; stage++) {
        want.emplace_back("vif", stage, true);
        want.emplace_back("vif", stage, false);
    }
    want.emplace_back("readback", -1, false);
    for (const vk::GpuProfile::Interval &i : p.intervals) got.emplace_back(i.part, i.stage, i.carried);
    CHECK(got == want);
    double sum = 0;
    for (const vk::GpuProfile::Interval &i : p.intervals) sum += i.total_ms;
    CHECK(sum <= p.total_ms * (1 + 1e-9));
    CHECK(sum >= p.total_ms * (1 - 1e-9));
    check_clean(*st);
}

TEST_CASE("profile mode: a feature's steps, each an interval of its own", "[profile]")
{
    // ssimulacra2 names its kernels (Feature::steps()): rgb (every scale's
    // linear RGB, averages and XYB), then the row blurs and the column blurs
    // (which also add the maps' terms), each a stage (ADR 0089) in which
    // profile mode times each scale alone. At 96x64 libjxl scores five scales
    // (96x64 down to 6x4: it goes on while the scale before is at least 8x8).
    // The engine takes its offer to carry the column blurs into the next
    // frame's first stage (ADR 0050), where they are one interval, carried
    // work, before the frame's own; VMAF_VULKAN_CARRY=0 declines it.
    const Frames frames;
    auto st = validated_state();
    if (!st->timestamps() || !st->float64()) {
        WARN(st->info().name << " has no timestamps or no doubles: ssimulacra2's steps are not timed here");
        return;
    }
    const ExtractorInfo *s2 = find_extractor("ssimulacra2");
    REQUIRE(s2);
    const vk::Engine::FeatureList list = {{s2, options_for(*s2)}};
    const auto score = [&](bool profile, vk::GpuProfile *out) {
        st->set_profiling(profile);
        MapSink sink;
        std::unique_ptr<vk::Engine> engine;
        REQUIRE(vk::Engine::create(st.get(), kFormat, list, &engine) == 0);
        for (unsigned i = 0; i < kFrames; i++) REQUIRE(engine->submit(frames.ref[i], frames.dist[i], i, sink) == 0);
        REQUIRE(engine->flush(sink) == 0);
        *out = engine->profile();
        return sink;
    };
    const std::vector<std::string> hblur = {"hblur0", "hblur1", "hblur2", "hblur3", "hblur4"};
    const std::vector<std::string> vblur = {"vblur0", "vblur1", "vblur2", "vblur3", "vblur4"};
    for (const bool carry : {true, false}) {
        INFO((carry ? "carrying" : "VMAF_VULKAN_CARRY=0"));
        const EnvOverride env("VMAF_VULKAN_CARRY", carry ? nullptr : "0");
        vk::GpuProfile plain_profile, p;
        const MapSink plain = score(false, &plain_profile);
        const MapSink timed = score(true, &p);
        CHECK(plain_profile.intervals.empty());
        check_same_scores(plain, timed);
        REQUIRE(timed.scores.at("ssimulacra2").size() == kFrames);

        std::vector<std::pair<std::string, int>> want = {{"upload", -1}};
        if (carry) want.push_back({"ssimulacra2", 0});
        want.push_back({"ssimulacra2:rgb", 0});
        for (const std::string &step : hblur) want.push_back({"ssimulacra2:" + step, 1});
        if (!carry)
            for (const std::string &step : vblur) want.push_back({"ssimulacra2:" + step, 2});
        want.push_back({"readback", -1});
        std::vector<std::pair<std::string, int>> got;
        double sum = 0;
        for (const vk::GpuProfile::Interval &i : p.intervals) {
            got.push_back({i.part, i.stage});
            CHECK(i.carried == (i.part == "ssimulacra2"));
            CHECK(i.total_ms >= 0);
            sum += i.total_ms;
        }
        CHECK(got == want);
        CHECK(p.frames == kFrames);
        CHECK(sum <= p.total_ms * (1 + 1e-9));
        CHECK(sum >= p.total_ms * (1 - 1e-9));
    }
    st->set_profiling(false);
    check_clean(*st);
}

TEST_CASE("profile mode on a queue without timestamps: no intervals, the same scores", "[profile]")
{
    const Frames frames;
    auto st = validated_state();
    const Run plain = run(*st, frames, false);
    // The switch the state reads when it is created.
    REQUIRE(setenv("VMAF_VULKAN_TIMESTAMPS", "0", 1) == 0);
    auto bare = validated_state();
    unsetenv("VMAF_VULKAN_TIMESTAMPS");
    REQUIRE(!bare->timestamps());
    bare->set_profiling(true);
    const Run p = run(*bare, frames, true);
    CHECK(p.profile.frames == 0);
    CHECK(p.profile.intervals.empty());
    CHECK(p.timing.frames == 0);
    check_same_scores(plain.sink, p.sink);
    check_clean(*st);
    check_clean(*bare);
}

TEST_CASE("VMAF_VULKAN_KERNEL_STATS: each kernel's statistics, or why there are none; the same scores", "[profile]")
{
    const Frames frames;
    auto st = validated_state();
    const Run plain = run(*st, frames, false);
    // The switch the state reads when it makes its device; the kernels are
    // built (and their statistics logged) by the engine.
    REQUIRE(setenv("VMAF_VULKAN_KERNEL_STATS", "1", 1) == 0);
    std::unique_ptr<vk::State> stats;
    std::string text;
    {
        StderrCapture cap;
        stats = validated_state();
        const Run r = run(*stats, frames, false);
        text = cap.text();
        check_same_scores(plain.sink, r.sink);
    }
    unsetenv("VMAF_VULKAN_KERNEL_STATS");
    INFO(text);
    if (stats->kernel_stats()) {
        // A line per kernel built: its name, spec constants and statistics.
        CHECK(text.find("Vulkan: kernel ") != std::string::npos);
        CHECK(text.find("lacks VK_KHR_pipeline_executable_properties") == std::string::npos);
    } else {
        CHECK(text.find("VMAF_VULKAN_KERNEL_STATS: " + stats->info().name +
                        " lacks VK_KHR_pipeline_executable_properties; no statistics") != std::string::npos);
        CHECK(text.find("Vulkan: kernel ") == std::string::npos);
    }
    CHECK(!st->kernel_stats());
    check_clean(*st);
    check_clean(*stats);
}

TEST_CASE("the public API: a context's profile, GPU figures and where its features ran", "[profile][api]")
{
    const Frames frames;
    VmafVulkanConfiguration cfg{};
    cfg.device_index = VMAF_VULKAN_DEVICE_AUTO;
    cfg.enable_validation = 1;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init(&state, cfg) == 0);
    VmafConfiguration vcfg{};
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, vcfg) == 0);

    // Without a state: no figures, no profile mode.
    VmafVulkanContextStats stats{};
    stats.size = sizeof stats;
    REQUIRE(vmaf_vulkan_context_stats(vmaf, &stats) == 0);
    CHECK(stats.has_state == 0);
    CHECK(stats.allocated_bytes == 0);
    CHECK(vmaf_vulkan_profile_enable(vmaf) == -ENODEV);
    stats.size = sizeof(size_t);
    CHECK(vmaf_vulkan_context_stats(vmaf, &stats) == -EINVAL);
    CHECK(vmaf_vulkan_context_stats(nullptr, &stats) == -EINVAL);

    REQUIRE(vmaf_vulkan_import_state(vmaf, state) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "vif", nullptr) == 0);
    REQUIRE(vmaf_vulkan_profile_enable(vmaf) == 0);
    unsigned count = 99;
    REQUIRE(vmaf_vulkan_profile(vmaf, nullptr, nullptr, nullptr, 0, &count) == 0);
    CHECK(count == 0);  // no engine yet
    for (unsigned i = 0; i < kFrames; i++) {
        VmafPicture ref{}, dist{};
        REQUIRE(vmaf_picture_ref(&ref, &frames.ref[i]) == 0);
        REQUIRE(vmaf_picture_ref(&dist, &frames.dist[i]) == 0);
        REQUIRE(vmaf_read_pictures(vmaf, &ref, &dist, i) == 0);
    }
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    CHECK(vmaf_vulkan_profile_enable(vmaf) == -EBUSY);

    const vk::State *st = vmaf->ctx.vulkan_state();
    REQUIRE(st);
    stats = {};
    stats.size = sizeof stats;
    REQUIRE(vmaf_vulkan_context_stats(vmaf, &stats) == 0);
    CHECK(stats.size == sizeof stats);
    CHECK(stats.has_state == 1);
    CHECK(stats.engine_started == 1);
    CHECK(stats.host_copies == 0);  // host pictures, no imports
    CHECK(stats.allocated_bytes > 0);
    CHECK(stats.validation_messages == 0);
    CHECK(stats.gpu_frames == (st->timestamps() ? kFrames : 0));
    if (st->timestamps()) CHECK(stats.gpu_max_ms >= stats.gpu_min_ms);
    // The caller's side: every frame, the calls one after another within the
    // span; time spent copying exactly when pictures were copied into staging
    // (not read in place: VMAF_VULKAN_HOST_IMPORT decides).
    CHECK(stats.host_frames == kFrames);
    CHECK(stats.host_call_ms > 0);
    CHECK(stats.host_wait_ms >= 0);
    const vk::HostUploadStats uploads = vmaf->ctx.vulkan_engine()->host_uploads();
    CHECK(uploads.copied + uploads.imported == 2 * kFrames);
    if (uploads.copied)
        CHECK(stats.host_copy_ms > 0);
    else
        CHECK(stats.host_copy_ms == 0);
    CHECK(stats.host_wait_ms + stats.host_copy_ms <= stats.host_call_ms);
    CHECK(stats.host_call_ms <= stats.host_span_ms);

    // The header before the host figures: they are left alone.
    VmafVulkanContextStats before_host{};
    before_host.size = offsetof(VmafVulkanContextStats, host_frames);
    before_host.host_frames = 777;
    REQUIRE(vmaf_vulkan_context_stats(vmaf, &before_host) == 0);
    CHECK(before_host.gpu_frames == stats.gpu_frames);
    CHECK(before_host.host_frames == 777);

    // A caller's struct as an older header had it: only what fits is written.
    VmafVulkanContextStats older{};
    older.size = offsetof(VmafVulkanContextStats, gpu_frames);
    older.gpu_frames = 12345;
    older.allocated_bytes = 12345;
    REQUIRE(vmaf_vulkan_context_stats(vmaf, &older) == 0);
    CHECK(older.size == offsetof(VmafVulkanContextStats, gpu_frames));
    CHECK(older.engine_started == 1);
    CHECK(older.gpu_frames == 12345);
    CHECK(older.allocated_bytes == 12345);

    // VIF alone carries its scales 2 and 3 into the next frame (ADR 0050).
    uint64_t frames_profiled = 0;
    double total_ms = 0;
    REQUIRE(vmaf_vulkan_profile(vmaf, &frames_profiled, &total_ms, nullptr, 0, &count) == 0);
    if (!st->timestamps()) {
        WARN("no timestamps on " << st->info().name << "'s queue: profile mode has nothing to report");
        CHECK(count == 0);
    } else {
        std::vector<VmafVulkanProfileInterval> got(count);
        REQUIRE(vmaf_vulkan_profile(vmaf, &frames_profiled, &total_ms, got.data(), count, &count) == 0);
        CHECK(frames_profiled == kFrames);
        CHECK(total_ms == stats.gpu_total_ms);
        std::vector<std::tuple<std::string, int, bool>> parts, want{{"upload", -1, false}};
        for (int stage = 0; stage < 2; stage++) {
            want.emplace_back("vif", stage, true);
            want.emplace_back("vif", stage, false);
        }
        want.emplace_back("readback", -1, false);
        double sum = 0;
        for (const VmafVulkanProfileInterval &i : got) {
            parts.emplace_back(i.name, i.stage, i.carried != 0);
            sum += i.total_ms;
        }
        CHECK(parts == want);
        CHECK(sum <= total_ms * (1 + 1e-9));
        CHECK(sum >= total_ms * (1 - 1e-9));
        // A smaller array: the count of all, the first ones filled.
        VmafVulkanProfileInterval one{};
        REQUIRE(vmaf_vulkan_profile(vmaf, nullptr, nullptr, &one, 1, &count) == 0);
        CHECK(count == want.size());
        CHECK(std::string(one.name) == "upload");
    }
    CHECK(vmaf_vulkan_profile(vmaf, nullptr, nullptr, nullptr, 1, &count) == -EINVAL);

    CHECK(vmaf_vulkan_feature_on_gpu(vmaf, "vif") == 1);
    CHECK(vmaf_vulkan_feature_on_gpu(vmaf, "adm") == 0);  // not asked for
    CHECK(vmaf_vulkan_feature_on_gpu(vmaf, nullptr) == -EINVAL);
    REQUIRE(vmaf_close(vmaf) == 0);
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
}
