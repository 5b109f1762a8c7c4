// SPDX-License-Identifier: BSD-2-Clause-Patent
// psnr_hvs's table: libvmaf's numbers on every golden pair (to the bit on two),
// the CPU's to the bit (NaN where the CPU has NaN, the serial float sum of each
// plane included) on odd sizes, tiny planes, 8/10/12-bit extremes, 4:2:0,
// 4:2:2 and 4:4:4, and frames of thousands of blocks; the formats it declines.
#include <algorithm>
#include <random>

#include "feature/psnr_hvs/psnr_hvs.h"
#include "gpu/engine.h"
#include "parity.h"
#include "picture/picture.h"
#include "pictures.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

namespace {

const char *const kNames[] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};

// Synthetic frames: a texture (or noise) reference and a distorted copy with
// noise of `spread`, clipped to the depth; `extreme` pins samples to 0 and max.
std::vector<VmafPicture> make_frames(std::mt19937 &rng, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                                     unsigned n, const std::vector<VmafPicture> *base, unsigned spread, bool extreme)
{
    std::vector<VmafPicture> out(n);
    const unsigned maxv = (1u << bpc) - 1;
    for (unsigned f = 0; f < n; f++) {
        REQUIRE(picture_alloc(&out[f], fmt, bpc, w, h) == 0);
        for (unsigned p = 0; p < 3; p++)
            for (unsigned y = 0; y < out[f].h[p]; y++)
                for (unsigned x = 0; x < out[f].w[p]; x++) {
                    int v;
                    if (base) {
                        const auto *b = static_cast<const uint8_t *>((*base)[f].data[p]) + y * (*base)[f].stride[p];
                        v = bpc == 8 ? b[x] : reinterpret_cast<const uint16_t *>(b)[x];
                        v += int(rng() % (2 * spread + 1)) - int(spread);
                    } else if (extreme) {
                        v = (rng() & 1) ? int(maxv) : 0;
                    } else {
                        v = int(((x * 7 + y * 13 + (x * y) % 17 + 50 * p) % 160) * maxv / 255 + rng() % 5);
                    }
                    v = std::clamp(v, 0, int(maxv));
                    auto *row = static_cast<uint8_t *>(out[f].data[p]) + y * out[f].stride[p];
                    if (bpc == 8) row[x] = uint8_t(v);
                    else reinterpret_cast<uint16_t *>(row)[x] = uint16_t(v);
                }
    }
    return out;
}

// `frames` reference frames and their distorted copies, noise spread(f) each.
template <typename Spread>
void noisy(uint32_t seed, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned frames, bool extreme,
           Spread spread, std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    std::mt19937 rng(seed);
    *ref = make_frames(rng, fmt, bpc, w, h, frames, nullptr, 0, extreme);
    for (unsigned f = 0; f < frames; f++) {
        std::vector<VmafPicture> one = {(*ref)[f]};
        dist->push_back(make_frames(rng, fmt, bpc, w, h, 1, &one, spread(f), false)[0]);
    }
}

const Table &psnr_hvs_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kPsnrHvsExtractor;
        const std::vector<const char *> names(std::begin(kNames), std::end(kNames));
        t.outputs = names;
        t.golden = {{".libvmaf.more.json", names, 1e-4, true},
                    {".libvmaf.aom_ctc_v7.0.json", names, 1e-4, true},
                    // libvmaf's JSON carries these to the bit
                    {".libvmaf.more.json", names, 0, true, {"coffee_320x240_crf28", "rocket_320x240_10bit_crf30"}}};
        // Odd sizes, a plane of one block (8) and of none (chroma of 9 wide
        // 4:2:x), one block row (15x8), a width of many workgroups; noise from
        // none (frame 0: +inf) to the full range.
        for (VmafPixelFormat fmt : {VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV444P})
            for (unsigned bpc : {8u, 10u, 12u})
                for (auto [w, h] : {std::pair{67u, 35u}, std::pair{8u, 8u}, std::pair{9u, 15u}, std::pair{15u, 8u},
                                    std::pair{905u, 16u}})
                    for (bool extreme : {false, true}) {
                        Synthetic c{fmt, bpc, w, h, 4};
                        c.what = extreme ? "samples at 0 and the maximum" : "texture";
                        c.make = [=](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
                            const unsigned maxv = (1u << bpc) - 1;
                            noisy(w * 31 + h + bpc * 7 + fmt + extreme, fmt, bpc, w, h, 4, extreme,
                                  [maxv](unsigned f) { return f == 0 ? 0 : f == 3 ? maxv : (2u << (2 * f)); }, ref,
                                  dist);
                        };
                        t.synthetic.push_back(c);
                    }
        // More blocks than one round of the walk covers (64 threads x 64
        // blocks), noise of every size so the sum passes through many binades.
        for (auto [fmt, bpc] : {std::pair{VMAF_PIX_FMT_YUV420P, 8u}, std::pair{VMAF_PIX_FMT_YUV444P, 12u}}) {
            Synthetic c{fmt, bpc, 641, 361, 3};
            c.what = "thousands of blocks";
            c.make = [fmt = fmt, bpc = bpc](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
                const unsigned maxv = (1u << bpc) - 1;
                noisy(5 + bpc, fmt, bpc, 641, 361, 3, false,
                      [maxv](unsigned f) { return f == 2 ? maxv : (1u << (3 * f)); }, ref, dist);
            };
            t.synthetic.push_back(c);
        }
        t.frames_in_flight = {1, 3};
        t.declines = {
            {{VMAF_PIX_FMT_YUV420P, 16, 64, 64}, {}, "16-bit"},
            {{VMAF_PIX_FMT_YUV400P, 8, 64, 64}, {}, "no chroma"},
            {{VMAF_PIX_FMT_YUV420P, 12, 64, 64}, {}, "12-bit needs doubles", true},
            // 3 * 2399^2 blocks of 64 float errors, over 4 GiB: more than any
            // storage binding (a 32-bit range) holds.
            {{VMAF_PIX_FMT_YUV444P, 8, 16800, 16800}, {}, "over 4 GiB of block errors"},
        };
        t.api_pairs = {"coffee_320x240_crf28", "rocket_320x240_10bit_crf30"};
        t.nan_equal = true;
        t.one_submission_per_frame = false;  // the walk is carried into the next frame
        t.needs_float64 = true;  // its GPU path needs doubles (lavapipe has them)
        return t;
    }();
    return t;
}

}  // namespace

PARITY_TABLE(psnr_hvs, psnr_hvs_table, "[psnr_hvs]")

TEST_CASE("psnr_hvs's walk, carried into the next frame, delivers every frame's scores", "[psnr_hvs][vulkan]")
{
    // The walk of frame k runs in frame k+1's submission (feature/twin.h,
    // carried work): frame k's scores arrive when frame k+1 is collected, and
    // wait_idle() and flush() submit the last frame's walk alone. Frames after
    // a wait_idle() start afresh, alternating the two copies of the errors.
    vk::State &st = shared_state(2);
    REQUIRE(st.float64());
    const unsigned kFrames = 7;
    std::vector<VmafPicture> ref, dist;
    noisy(5, VMAF_PIX_FMT_YUV420P, 8, 67, 35, kFrames, false, [](unsigned f) { return 4u << f; }, &ref, &dist);
    const MapSink cpu = run_extractor(kPsnrHvsExtractor, FeatureOptions{}, ref, dist);
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(&st, format_of(ref[0]), {{&kPsnrHvsExtractor, FeatureOptions{}}}, &engine) == 0);
    MapSink gpu;
    auto have = [&](unsigned frames) {
        for (const char *n : kNames) {
            INFO(n << " after " << frames << " frames");
            const auto it = gpu.scores.find(n);
            CHECK((frames ? it != gpu.scores.end() && it->second.size() == frames : it == gpu.scores.end()));
        }
    };
    // One frame waited for: its walk is submitted alone.
    REQUIRE(engine->submit(ref[0], dist[0], 0, gpu) == 0);
    REQUIRE(engine->wait_idle(gpu) == 0);
    have(1);
    REQUIRE(engine->wait_idle(gpu) == 0);  // nothing held: nothing more
    have(1);
    for (unsigned i = 1; i < 4; i++) REQUIRE(engine->submit(ref[i], dist[i], i, gpu) == 0);
    REQUIRE(engine->wait_idle(gpu) == 0);
    have(4);
    for (unsigned i = 4; i < kFrames; i++) REQUIRE(engine->submit(ref[i], dist[i], i, gpu) == 0);
    REQUIRE(engine->flush(gpu) == 0);
    have(kFrames);
    compare_scores(gpu, cpu, Agreement{0, true});
    engine.reset();
    check_clean(st);
    unref_all(ref);
    unref_all(dist);
}
