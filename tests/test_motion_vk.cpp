// SPDX-License-Identifier: BSD-2-Clause-Patent
// The integer motion GPU twin: libvmaf's numbers on every golden pair, through
// the Engine and through the public API, and bit-identical to the CPU extractor
// for every option, pixel format, bit depth, odd sizes, subsampling and the
// 32-bit row sum's wrap.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <tuple>

#include "context/context.h"
#include "feature/motion/motion.h"
#include "feature/motion/motion_score.h"
#include "feature/registry.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "picture/picture.h"
#include "vulkan.h"
#include "gpu/engine.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// The provided names libvmaf's JSON carries (integer_motion only with debug).
const char *const kGoldenNames[] = {motion::kSadName, motion::kMotion2Name, motion::kMotion3Name};

// Scores of `ref` through a GPU Engine running motion alone.
MapSink run_gpu(vk::State &st, const std::vector<VmafPicture> &ref, const FeatureOptions &opts)
{
    // Motion reads only the reference; the distorted picture is the reference too.
    return run_engine(st, kMotionExtractor, opts, ref, ref, /*check_second_flush=*/true);
}

// The same through the CPU extractor, the oracle, given the previous reference
// pictures as the context gives them.
MapSink run_cpu(const std::vector<VmafPicture> &ref, const FeatureOptions &opts)
{
    auto ex = kMotionExtractor.create(opts);
    REQUIRE(ex->init(format_of(ref[0])) == 0);
    MapSink sink;
    for (size_t i = 0; i < ref.size(); i++) {
        ex->set_history({i >= 1 ? &ref[i - 1] : nullptr, i >= 2 ? &ref[i - 2] : nullptr});
        REQUIRE(ex->extract(ref[i], ref[i], unsigned(i), sink) == 0);
    }
    REQUIRE(ex->flush(sink) == 0);
    return sink;
}

double max_abs_diff(const std::map<unsigned, double> &a, const std::map<unsigned, double> &b)
{
    double m = 0;
    for (const auto &[i, v] : a) m = std::max(m, std::fabs(v - b.at(i)));
    return m;
}

struct Pair {
    std::vector<VmafPicture> ref, dist;
    Expected expected;
    explicit Pair(const std::string &name)
        : ref(load_y4m(data_dir() + "/" + name + "_ref.y4m")), dist(load_y4m(data_dir() + "/" + name + "_dis.y4m")),
          expected(load_expected(data_dir() + "/" + name + ".libvmaf.json"))
    {
        REQUIRE(ref.size() == dist.size());
        REQUIRE(ref.size() == expected.frames.size());
    }
    ~Pair()
    {
        unref_all(ref);
        unref_all(dist);
    }
};

using Series = std::map<std::string, std::vector<std::optional<double>>>;

// `names` (output names) of `pair` through the C API: on the CPU, or on the GPU
// of `st` imported into the context.
Series run_api(const std::string &pair, const Dict &opts, const std::vector<std::string> &names, vk::State *st,
               unsigned n_subsample = 0)
{
    Pair p(pair);
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    cfg.n_subsample = n_subsample;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    if (st) REQUIRE(context_import_vulkan_state(vmaf, st) == 0);
    VmafFeatureDictionary *d = nullptr;
    for (const auto &[k, v] : opts) REQUIRE(vmaf_feature_dictionary_set(&d, k.c_str(), v.c_str()) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "motion", d) == 0);
    const uint64_t before = st ? st->submissions() : 0;
    const size_t n = p.ref.size();
    for (size_t i = 0; i < n; i++) REQUIRE(vmaf_read_pictures(vmaf, &p.ref[i], &p.dist[i], unsigned(i)) == 0);
    p.ref.clear();  // the context took our references
    p.dist.clear();
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    if (st) CHECK(st->submissions() - before == n);  // every frame went to the GPU
    Series out;
    for (const auto &name : names) {
        for (unsigned i = 0; i < n; i++) {
            double v;
            out[name].push_back(vmaf_feature_score_at_index(vmaf, name.c_str(), &v, i) == 0 ? std::optional(v)
                                                                                          : std::nullopt);
        }
    }
    REQUIRE(vmaf_close(vmaf) == 0);
    return out;
}

// Synthetic reference frames: a smooth ramp that moves by `step` samples per
// frame plus noise of `noise` (0 to the full range), clipped to the depth.
std::vector<VmafPicture> synthetic(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned frames,
                                   unsigned noise, std::mt19937 &rng)
{
    const int maxv = (1 << bpc) - 1;
    std::vector<VmafPicture> pics(frames);
    for (unsigned f = 0; f < frames; f++) {
        REQUIRE(picture_alloc(&pics[f], fmt, bpc, w, h) == 0);
        for (unsigned p = 0; p < plane_count(fmt); p++) {
            for (unsigned y = 0; y < pics[f].h[p]; y++) {
                auto *row = static_cast<uint8_t *>(pics[f].data[p]) + y * pics[f].stride[p];
                for (unsigned x = 0; x < pics[f].w[p]; x++) {
                    const int ramp = int(((x + 3 * f) * 7 + y * 5) % 97) * maxv / 96;
                    const int n = noise ? int(rng() % (2 * noise + 1)) - int(noise) : 0;
                    const int v = std::clamp(ramp + n, 0, maxv);
                    if (bpc == 8) row[x] = uint8_t(v);
                    else reinterpret_cast<uint16_t *>(row)[x] = uint16_t(v);
                }
            }
        }
    }
    return pics;
}

}  // namespace

TEST_CASE("motion on the GPU matches libvmaf and the CPU on every golden pair", "[motion][vulkan][golden]")
{
    auto st = validated_state();
    for (const auto &name : golden_pairs()) {
        Pair p(name);
        // debug adds integer_motion, so every output is compared with the CPU.
        const auto opts = options_for(kMotionExtractor, {{"debug", "true"}});
        const MapSink gpu = run_gpu(*st, p.ref, opts);
        const MapSink cpu = run_cpu(p.ref, opts);
        for (const char *n : kGoldenNames) {
            const std::string json(feature_alias(n));
            INFO(name << " " << json);
            REQUIRE(gpu.scores.count(n));
            REQUIRE(gpu.scores.at(n).size() == p.expected.frames.size());
            double vs_libvmaf = 0;
            for (size_t i = 0; i < p.expected.frames.size(); i++)
                vs_libvmaf = std::max(vs_libvmaf,
                                      std::fabs(gpu.scores.at(n).at(unsigned(i)) - p.expected.frames[i].at(json)));
            std::printf("%-32s %-38s max|diff| vs libvmaf %.3g, vs CPU %.3g\n", name.c_str(), json.c_str(),
                        vs_libvmaf, max_abs_diff(gpu.scores.at(n), cpu.scores.at(n)));
            CHECK(vs_libvmaf <= 1e-4);
        }
        require_identical(gpu, cpu);
        CHECK(gpu.scores.at(motion::kMotionName) == gpu.scores.at(motion::kSadName));
    }
    check_clean(*st);
}

TEST_CASE("motion on the GPU through the C API equals the CPU context", "[motion][vulkan][golden]")
{
    auto st = validated_state();
    const std::vector<std::string> names = {"integer_motion2", "integer_motion3",
                                            "VMAF_integer_feature_motion_sad_score"};
    for (const auto &name : golden_pairs()) {
        INFO(name);
        const Series gpu = run_api(name, {}, names, st.get());
        const Series cpu = run_api(name, {}, names, nullptr);
        const auto expected = load_expected(data_dir() + "/" + name + ".libvmaf.json");
        for (const auto &n : names) {
            INFO(n);
            REQUIRE(gpu.at(n).size() == expected.frames.size());
            for (size_t i = 0; i < expected.frames.size(); i++) {
                REQUIRE(gpu.at(n)[i]);
                CHECK(*gpu.at(n)[i] == cpu.at(n)[i]);
                CHECK(std::fabs(*gpu.at(n)[i] - expected.frames[i].at(n)) <= 1e-4);
            }
        }
    }
    check_clean(*st);
}

TEST_CASE("motion through the public Vulkan API", "[motion][vulkan][golden]")
{
    VmafVulkanState *vk = validated_api_state();
    for (const auto &name : golden_pairs()) {
        INFO(name);
        Pair p(name);
        VmafConfiguration cfg{};
        VmafContext *vmaf = nullptr;
        REQUIRE(vmaf_init(&vmaf, cfg) == 0);
        REQUIRE(vmaf_vulkan_import_state(vmaf, vk) == 0);
        REQUIRE(vmaf_use_feature(vmaf, "motion", nullptr) == 0);
        const size_t n = p.ref.size();
        for (size_t i = 0; i < n; i++) REQUIRE(vmaf_read_pictures(vmaf, &p.ref[i], &p.dist[i], unsigned(i)) == 0);
        p.ref.clear();
        p.dist.clear();
        REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
        for (const char *out : {"integer_motion2", "integer_motion3", "VMAF_integer_feature_motion_sad_score"}) {
            for (size_t i = 0; i < n; i++) {
                double v = -1;
                REQUIRE(vmaf_feature_score_at_index(vmaf, out, &v, unsigned(i)) == 0);
                CHECK(std::fabs(v - p.expected.frames[i].at(out)) <= 1e-4);
            }
        }
        REQUIRE(vmaf_close(vmaf) == 0);
    }
    REQUIRE(vmaf_vulkan_state_free(&vk) == 0);
}

TEST_CASE("motion options on the GPU are the CPU's to the bit", "[motion][vulkan]")
{
    auto st = validated_state();
    const std::vector<Dict> option_sets = {
        {{"motion_five_frame_window", "true"}},
        {{"motion_moving_average", "true"}},
        {{"motion_five_frame_window", "true"}, {"motion_moving_average", "true"}, {"debug", "true"}},
        {{"motion_blend_factor", "0.25"}, {"motion_blend_offset", "2"}},
        {{"motion_fps_weight", "2.5"}, {"motion_max_val", "3"}},
        {{"motion_force_zero", "true"}, {"debug", "true"}},
    };
    for (const char *pair : {"coffee_320x240_crf28", "astronaut_320x240_422_crf33", "coffee_320x240_444_crf30",
                             "rocket_320x240_10bit_crf30", "chelsea_176x144_identical", "chelsea_322x186_rescale"}) {
        Pair p(pair);
        for (const Dict &d : option_sets) {
            INFO(pair << " option set " << (&d - option_sets.data()));
            const auto opts = options_for(kMotionExtractor, d);
            require_identical(run_gpu(*st, p.ref, opts), run_cpu(p.ref, opts));
        }
    }
    check_clean(*st);
}

TEST_CASE("motion on the GPU: every pixel format and depth, odd sizes, one frame", "[motion][vulkan]")
{
    std::mt19937 rng(4321);
    const std::vector<Dict> option_sets = {{}, {{"motion_five_frame_window", "true"}}};
    for (unsigned frames_in_flight : {1u, 3u}) {
        auto st = validated_state(frames_in_flight);
        for (VmafPixelFormat fmt : {VMAF_PIX_FMT_YUV400P, VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P,
                                    VMAF_PIX_FMT_YUV444P}) {
            for (unsigned bpc : {8u, 10u, 12u, 16u}) {
                for (auto [w, h, frames] : {std::tuple{33u, 17u, 6u}, std::tuple{3u, 3u, 4u},
                                            std::tuple{1921u, 5u, 3u}, std::tuple{300u, 7u, 1u}}) {
                    // Noise from none to the full range: the widest differences
                    // test the accumulators' bounds.
                    for (unsigned noise : {0u, 5u, (1u << bpc) - 1}) {
                        INFO("fmt " << fmt << " bpc " << bpc << " " << w << "x" << h << " frames " << frames
                                    << " noise " << noise << " in flight " << frames_in_flight);
                        auto ref = synthetic(fmt, bpc, w, h, frames, noise, rng);
                        for (const Dict &d : option_sets) {
                            const auto opts = options_for(kMotionExtractor, d);
                            require_identical(run_gpu(*st, ref, opts), run_cpu(ref, opts));
                        }
                        unref_all(ref);
                    }
                }
            }
        }
        check_clean(*st);
    }
}

TEST_CASE("motion of a single frame on the GPU is zero", "[motion][vulkan]")
{
    auto st = validated_state();
    std::mt19937 rng(5);
    auto ref = synthetic(VMAF_PIX_FMT_YUV420P, 10, 64, 36, 1, 50, rng);
    const MapSink gpu = run_gpu(*st, ref, options_for(kMotionExtractor));
    for (const char *n : kGoldenNames) {
        INFO(n);
        REQUIRE(gpu.scores.count(n));
        CHECK(gpu.scores.at(n) == std::map<unsigned, double>{{0u, 0.0}});
    }
    unref_all(ref);
    check_clean(*st);
}

TEST_CASE("motion on the GPU: the row sums' bounds and 32-bit wrap", "[motion][vulkan]")
{
    // A white frame after a black one: every blurred difference is
    // 255 * 2^16 / 2^8 = 65280 exactly (and 65535 at 16 bits), so a row of w
    // samples sums to 65280 w. Pictures of the API are at most 65536 wide, where
    // that is just below 2^32; libvmaf's 32-bit row sum would wrap past 65793
    // samples, and the kernel must wrap as it does: such a picture is made by
    // hand here, for the Engine and the CPU extractor, which take any width.
    auto st = validated_state();
    const auto opts = options_for(kMotionExtractor);
    struct Case {
        unsigned bpc, w;
        uint64_t value;  // every blurred difference
    };
    for (const Case c : {Case{8, 65536, 65280}, Case{16, 65536, 65535}, Case{8, 65794, 65280}}) {
        INFO(c.bpc << "-bit, " << c.w << " wide");
        constexpr unsigned h = 3;
        const unsigned bytes = c.bpc > 8 ? 2 : 1;
        std::vector<std::vector<uint8_t>> storage(2);
        std::vector<VmafPicture> ref(2);
        for (unsigned f = 0; f < 2; f++) {
            storage[f].assign(size_t(c.w) * bytes * h, f ? 0 : 0xff);  // all ones: the depth's maximum at 8 and 16 bits
            VmafPicture &pic = ref[f];
            pic = {};
            pic.pix_fmt = VMAF_PIX_FMT_YUV400P;
            pic.bpc = c.bpc;
            pic.w[0] = c.w;
            pic.h[0] = h;
            pic.stride[0] = ptrdiff_t(c.w) * bytes;
            pic.data[0] = storage[f].data();
        }
        const uint64_t row = c.value * c.w % (uint64_t(1) << 32);
        if (c.w > 65536) CHECK(row == c.value * c.w - (uint64_t(1) << 32));  // it does wrap
        const MapSink gpu = run_gpu(*st, ref, opts);
        CHECK(gpu.scores.at(motion::kSadName).at(1) == double(row * h) / 256.0 / (double(c.w) * h));
        require_identical(gpu, run_cpu(ref, opts));
    }
    check_clean(*st);
}

TEST_CASE("motion on the GPU with subsampling equals the CPU context", "[motion][vulkan]")
{
    // Motion compares every frame with the one before it, subsampled or not; the
    // subsampled-out frames' scores are computed and stored as on the CPU.
    auto st = validated_state();
    const std::vector<std::string> names = {"integer_motion2", "integer_motion3",
                                            "VMAF_integer_feature_motion_sad_score"};
    for (unsigned n_subsample : {2u, 3u}) {
        for (const char *pair : {"coffee_320x240_crf28", "rocket_320x240_10bit_crf30"}) {
            INFO(pair << " n_subsample " << n_subsample);
            const Series gpu = run_api(pair, {}, names, st.get(), n_subsample);
            const Series cpu = run_api(pair, {}, names, nullptr, n_subsample);
            CHECK(gpu == cpu);
            for (const auto &n : names)
                for (const auto &v : gpu.at(n)) CHECK(v.has_value());
        }
    }
    check_clean(*st);
}

TEST_CASE("motion twice in one context: both configurations on the GPU", "[motion][vulkan]")
{
    // Each configuration runs on the GPU with its own state and writes its own
    // series, equal to its CPU extractor's.
    auto st = validated_state();
    Pair p("mandel_176x144_noise");
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    REQUIRE(context_import_vulkan_state(vmaf, st.get()) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "motion", nullptr) == 0);
    VmafFeatureDictionary *d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "motion_five_frame_window", "true") == 0);
    REQUIRE(vmaf_use_feature(vmaf, "motion", d) == 0);
    const size_t n = p.ref.size();
    for (size_t i = 0; i < n; i++) REQUIRE(vmaf_read_pictures(vmaf, &p.ref[i], &p.dist[i], unsigned(i)) == 0);
    p.ref.clear();
    p.dist.clear();
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    const Pair again("mandel_176x144_noise");
    const MapSink three = run_cpu(again.ref, options_for(kMotionExtractor));
    const MapSink five = run_cpu(again.ref, options_for(kMotionExtractor, {{"motion_five_frame_window", "true"}}));
    for (unsigned i = 0; i < n; i++) {
        double v = -1;
        REQUIRE(vmaf_feature_score_at_index(vmaf, "integer_motion2", &v, i) == 0);
        CHECK(v == three.scores.at(motion::kMotion2Name).at(i));
        REQUIRE(vmaf_feature_score_at_index(vmaf, "integer_motion3_mffw", &v, i) == 0);
        CHECK(v == five.scores.at(motion::kMotion3Name).at(i));
    }
    REQUIRE(vmaf_close(vmaf) == 0);
    check_clean(*st);
}

TEST_CASE("motion on the GPU needs the frames in order", "[motion][vulkan]")
{
    // Frame 1 first: there is no previous picture to compare with, as on the CPU.
    auto st = validated_state();
    std::mt19937 rng(9);
    auto ref = synthetic(VMAF_PIX_FMT_YUV420P, 8, 32, 16, 1, 10, rng);
    const auto opts = options_for(kMotionExtractor);
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(st.get(), format_of(ref[0]), {{&kMotionExtractor, opts}}, &engine) == 0);
    MapSink sink;
    CHECK(engine->submit(ref[0], ref[0], 1, sink) == -EINVAL);
    engine.reset();
    auto cpu = kMotionExtractor.create(opts);
    REQUIRE(cpu->init(format_of(ref[0])) == 0);
    CHECK(cpu->extract(ref[0], ref[0], 1, sink) == -EINVAL);
    // Too small for the 5-tap mirror: refused by both.
    std::unique_ptr<vk::Engine> tiny;
    CHECK(vk::Engine::create(st.get(), {VMAF_PIX_FMT_YUV420P, 8, 2, 8}, {{&kMotionExtractor, opts}}, &tiny) ==
          -EINVAL);
    CHECK(cpu->init({VMAF_PIX_FMT_YUV420P, 8, 2, 8}) == -EINVAL);
    unref_all(ref);
    check_clean(*st);
}
