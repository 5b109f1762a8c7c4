// SPDX-License-Identifier: BSD-2-Clause-Patent
// The "[.][bench]" throughput case of a GPU twin: frames per second of the GPU
// engine and of the CPU extractor (one thread) on cycled frames of 1080p 8-bit
// and 2160p 10-bit 4:2:0, the twin's scores checked equal to the extractor's on
// the frames both scored, and where the GPU time goes.
//   VMAF_BENCH_FRAMES=n   GPU frames per size (e.g. a few on a CPU driver)
//   VMAF_BENCH_SIZE=WxH   one size instead of the two (8-bit)
//   VMAF_BENCH_PROFILE=1  each kernel's GPU time per frame, from a profiled run
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "feature/extractor.h"
#include "gpu/engine.h"
#include "pictures.h"
#include "sink.h"
#include "vulkan.h"

namespace vmaf::test {

struct ThroughputBench {
    // `ref` and `dist` for one size: the frames cycled through.
    using Frames = std::function<void(unsigned bpc, unsigned w, unsigned h, std::vector<VmafPicture> *ref,
                                      std::vector<VmafPicture> *dist)>;
    // `scores`: compared, GPU engine with CPU extractor.
    ThroughputBench(const ExtractorInfo &extractor, FeatureOptions options, std::vector<std::string> scores,
                    Frames frames)
        : extractor(&extractor), options(std::move(options)), scores(std::move(scores)), frames(std::move(frames))
    {
    }

    const ExtractorInfo *extractor;
    FeatureOptions options;
    std::vector<std::string> scores;
    Frames frames;
    // The CPU extractor scores max(1, frames / cpu_share) frames, at most
    // cpu_max (0: no bound) of them.
    unsigned cpu_share = 40;
    unsigned cpu_max = 0;
    // The profiled run (64 frames) even without VMAF_BENCH_PROFILE.
    bool profile = false;
};

inline void run_throughput_bench(const ThroughputBench &b)
{
    auto st = validated_state();
    struct Size {
        unsigned w, h, bpc, frames;
    };
    std::vector<Size> sizes{{1920, 1080, 8, 600}, {3840, 2160, 10, 200}};
    if (const char *env = std::getenv("VMAF_BENCH_SIZE")) {
        unsigned w = 0, h = 0;
        REQUIRE(std::sscanf(env, "%ux%u", &w, &h) == 2);
        sizes = {{w, h, 8, 600}};
    }
    const char *frames_env = std::getenv("VMAF_BENCH_FRAMES");
    const bool profile = b.profile || std::getenv("VMAF_BENCH_PROFILE");
    const char *name = b.extractor->name;
    for (Size s : sizes) {
        if (frames_env) s.frames = unsigned(std::max(1, std::atoi(frames_env)));
        std::vector<VmafPicture> ref, dist;  // cycled
        b.frames(s.bpc, s.w, s.h, &ref, &dist);
        REQUIRE(!ref.empty());
        const FrameFormat fmt = format_of(ref[0]);
        const size_t n = ref.size();
        std::unique_ptr<vk::Engine> engine;
        REQUIRE(vk::Engine::create(st.get(), fmt, {{b.extractor, b.options}}, &engine) == 0);
        MapSink gpu_sink;
        const auto t0 = std::chrono::steady_clock::now();
        for (unsigned i = 0; i < s.frames; i++) REQUIRE(engine->submit(ref[i % n], dist[i % n], i, gpu_sink) == 0);
        REQUIRE(engine->flush(gpu_sink) == 0);
        const double gpu_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const vk::GpuTiming t = engine->gpu_timing();
        engine.reset();

        auto cpu = b.extractor->create(b.options);
        REQUIRE(cpu->init(fmt) == 0);
        MapSink cpu_sink;
        unsigned cpu_frames = std::max(1u, s.frames / b.cpu_share);
        if (b.cpu_max) cpu_frames = std::min(cpu_frames, b.cpu_max);
        cpu_frames = std::min(cpu_frames, s.frames);
        const auto t1 = std::chrono::steady_clock::now();
        for (unsigned i = 0; i < cpu_frames; i++) REQUIRE(cpu->extract(ref[i % n], dist[i % n], i, cpu_sink) == 0);
        const double cpu_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        for (unsigned i = 0; i < cpu_frames; i++) {
            for (const std::string &score : b.scores) {
                INFO(score << " frame " << i);
                CHECK(gpu_sink.scores.at(score).at(i) == cpu_sink.scores.at(score).at(i));
            }
        }
        std::printf("%s %ux%u %u-bit 4:2:0 on %s: GPU engine %.1f fps (%u frames; GPU time per frame %.3f ms mean, "
                    "%.3f min), CPU extractor %.2f fps (one thread)\n",
                    name, s.w, s.h, s.bpc, st->info().name.c_str(), s.frames / gpu_s, s.frames,
                    t.frames ? t.total_ms / double(t.frames) : 0.0, t.min_ms, cpu_frames / cpu_s);

        if (profile) {  // each kernel alone, per frame
            st->set_profiling(true);
            REQUIRE(vk::Engine::create(st.get(), fmt, {{b.extractor, b.options}}, &engine) == 0);
            MapSink profile_sink;
            for (unsigned i = 0; i < 64; i++) REQUIRE(engine->submit(ref[i % n], dist[i % n], i, profile_sink) == 0);
            REQUIRE(engine->flush(profile_sink) == 0);
            const vk::GpuProfile &prof = engine->profile();
            for (const auto &in : prof.intervals)
                std::printf("  %-10s stage %2d %8.4f ms/frame\n", in.part.c_str(), in.stage,
                            prof.frames ? in.total_ms / double(prof.frames) : 0.0);
            engine.reset();
            st->set_profiling(false);
        }
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(*st);
}

}  // namespace vmaf::test
