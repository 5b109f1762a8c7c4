// Test helpers for the Vulkan backend: a validated device state and a score sink.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "feature/extractor.h"
#include "sink.h"
#include "picture/picture.h"
#include "vulkan/context.h"
#include "vulkan/engine.h"

namespace vmaf::test {

// A state on the default device with the validation layer on: check_clean()
// fails the test on any validation error or warning. VMAF_TEST_VULKAN_NO_VALIDATION=1
// runs without the layer, for machines that do not have it installed.
inline std::unique_ptr<vk::State> validated_state(unsigned frames_in_flight = vk::kDefaultFramesInFlight)
{
    vk::Config cfg;
    const char *off = std::getenv("VMAF_TEST_VULKAN_NO_VALIDATION");
    cfg.validation = !(off && *off == '1');
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

inline FrameFormat format_of(const VmafPicture &p) { return {p.pix_fmt, p.bpc, p.w[0], p.h[0]}; }

// Every frame of `ref`/`dist` through a GPU Engine running `ex` alone (REQUIREs
// that the device runs it with these options on this format).
inline MapSink run_engine(vk::State &st, const ExtractorInfo &ex, const FeatureOptions &opts,
                          const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist)
{
    const FrameFormat fmt = format_of(ref[0]);
    REQUIRE(vk::Engine::supports(st, fmt, ex, opts));
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(&st, fmt, {{&ex, opts}}, &engine) == 0);
    MapSink sink;
    for (size_t i = 0; i < ref.size(); i++) REQUIRE(engine->submit(ref[i], dist[i], unsigned(i), sink) == 0);
    REQUIRE(engine->flush(sink) == 0);
    return sink;
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

// A picture whose samples are gen(plane, x, y).
template <typename Gen>
VmafPicture make_picture(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, Gen gen)
{
    VmafPicture p;
    REQUIRE(picture_alloc(&p, fmt, bpc, w, h) == 0);
    for (unsigned pl = 0; pl < plane_count(fmt); pl++)
        for (unsigned y = 0; y < p.h[pl]; y++) {
            auto *row = static_cast<uint8_t *>(p.data[pl]) + size_t(y) * p.stride[pl];
            for (unsigned x = 0; x < p.w[pl]; x++) {
                const unsigned v = gen(pl, x, y);
                if (bpc == 8) row[x] = uint8_t(v);
                else reinterpret_cast<uint16_t *>(row)[x] = uint16_t(v);
            }
        }
    return p;
}

}  // namespace vmaf::test
