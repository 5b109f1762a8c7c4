// SPDX-License-Identifier: BSD-2-Clause-Patent
// Integer motion's table: libvmaf's numbers on every golden pair, the CPU's to
// the bit on every option, pixel format, depth, odd size and one frame, and
// through the C API with subsampling, twice in one context, the 32-bit row
// sum's wrap and frames out of order.
#include <algorithm>
#include <random>

#include "context/context.h"
#include "feature/motion/motion.h"
#include "feature/motion/motion_score.h"
#include "gpu/engine.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "parity.h"
#include "picture/picture.h"
#include "pictures.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;
using namespace vmaf::test::parity;

namespace {

// The CPU extractor given the previous reference pictures as a context gives them.
MapSink run_cpu(const FeatureOptions &opts, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &)
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

// Reference frames: a smooth ramp that moves by 3 samples per frame plus noise
// of `noise` (0 to the full range), clipped to the depth.
std::vector<VmafPicture> ramp(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned frames,
                              unsigned noise, uint32_t seed)
{
    std::mt19937 rng(seed);
    const int maxv = (1 << bpc) - 1;
    std::vector<VmafPicture> pics(frames);
    for (unsigned f = 0; f < frames; f++) {
        REQUIRE(picture_alloc(&pics[f], fmt, bpc, w, h) == 0);
        for (unsigned p = 0; p < plane_count(fmt); p++)
            for (unsigned y = 0; y < pics[f].h[p]; y++) {
                auto *row = static_cast<uint8_t *>(pics[f].data[p]) + y * pics[f].stride[p];
                for (unsigned x = 0; x < pics[f].w[p]; x++) {
                    const int r = int(((x + 3 * f) * 7 + y * 5) % 97) * maxv / 96;
                    const int n = noise ? int(rng() % (2 * noise + 1)) - int(noise) : 0;
                    const int v = std::clamp(r + n, 0, maxv);
                    if (bpc == 8) row[x] = uint8_t(v);
                    else reinterpret_cast<uint16_t *>(row)[x] = uint16_t(v);
                }
            }
    }
    return pics;
}

const Table &motion_table()
{
    static const Table t = [] {
        Table t;
        t.extractor = &kMotionExtractor;
        // debug adds integer_motion, so every output is compared with the CPU.
        t.golden_options = {{"debug", "true"}};
        t.golden = {{".libvmaf.json", {motion::kSadName, motion::kMotion2Name, motion::kMotion3Name}, 1e-4}};
        t.outputs = {motion::kSadName, motion::kMotion2Name, motion::kMotion3Name, motion::kMotionName};
        t.golden_extra = [](const std::string &, const MapSink &gpu) {
            CHECK(gpu.scores.at(motion::kMotionName) == gpu.scores.at(motion::kSadName));
        };
        t.option_sets = {
            {{"motion_five_frame_window", "true"}},
            {{"motion_moving_average", "true"}},
            {{"motion_five_frame_window", "true"}, {"motion_moving_average", "true"}, {"debug", "true"}},
            {{"motion_blend_factor", "0.25"}, {"motion_blend_offset", "2"}},
            {{"motion_fps_weight", "2.5"}, {"motion_max_val", "3"}},
            {{"motion_force_zero", "true"}, {"debug", "true"}},
        };
        t.option_pairs = {"coffee_320x240_crf28",       "astronaut_320x240_422_crf33", "coffee_320x240_444_crf30",
                          "rocket_320x240_10bit_crf30", "chelsea_176x144_identical",   "chelsea_322x186_rescale"};
        // Noise from none to the full range: the widest differences test the
        // accumulators' bounds. One frame, and more than the ring holds.
        for (VmafPixelFormat fmt : {VMAF_PIX_FMT_YUV400P, VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P,
                                    VMAF_PIX_FMT_YUV444P})
            for (unsigned bpc : {8u, 10u, 12u, 16u})
                for (auto [w, h, frames] : {std::tuple{33u, 17u, 6u}, std::tuple{3u, 3u, 4u},
                                            std::tuple{1921u, 5u, 3u}, std::tuple{300u, 7u, 1u}})
                    for (unsigned noise : {0u, 5u, (1u << bpc) - 1})
                        for (const Dict &d : {Dict{}, Dict{{"motion_five_frame_window", "true"}}}) {
                            Synthetic c{fmt, bpc, w, h, frames, d};
                            c.make = [=](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
                                *ref = ramp(fmt, bpc, w, h, frames, noise, w * 7 + h + bpc + noise);
                                *dist = ramp(fmt, bpc, w, h, frames, 0, 0);
                            };
                            t.synthetic.push_back(c);
                        }
        t.frames_in_flight = {1, 3};
        t.reference_only = true;
        t.cpu = run_cpu;
        return t;
    }();
    return t;
}

// `outputs` of `pair` through the C API with `n_subsample`: on the CPU, or on
// `st` imported into the context (every frame submitted to it).
std::map<std::string, std::vector<std::optional<double>>> run_api(const std::string &pair,
                                                                   const std::vector<std::string> &outputs,
                                                                   vk::State *st, unsigned n_subsample)
{
    const Frames &f = golden(pair);
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    cfg.n_subsample = n_subsample;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    if (st) REQUIRE(context_import_vulkan_state(vmaf, st) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "motion", nullptr) == 0);
    const uint64_t before = st ? st->submissions() : 0;
    const size_t n = f.ref.size();
    for (size_t i = 0; i < n; i++) {
        VmafPicture r, d;
        picture_ref(&r, &f.ref[i]);
        picture_ref(&d, &f.dist[i]);
        REQUIRE(vmaf_read_pictures(vmaf, &r, &d, unsigned(i)) == 0);
    }
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    if (st) CHECK(st->submissions() - before == n);  // every frame went to the GPU
    std::map<std::string, std::vector<std::optional<double>>> out;
    for (const auto &name : outputs)
        for (unsigned i = 0; i < n; i++) {
            double v;
            out[name].push_back(vmaf_feature_score_at_index(vmaf, name.c_str(), &v, i) == 0 ? std::optional(v)
                                                                                          : std::nullopt);
        }
    REQUIRE(vmaf_close(vmaf) == 0);
    return out;
}

}  // namespace

PARITY_TABLE(motion, motion_table, "[motion]")

TEST_CASE("motion of a single frame on the GPU is zero", "[motion][vulkan]")
{
    vk::State &st = shared_state();
    auto ref = ramp(VMAF_PIX_FMT_YUV420P, 10, 64, 36, 1, 50, 5);
    const MapSink gpu = run_engine(st, kMotionExtractor, options_for(kMotionExtractor), ref, ref);
    for (const char *n : {motion::kSadName, motion::kMotion2Name, motion::kMotion3Name}) {
        INFO(n);
        REQUIRE(gpu.scores.count(n));
        CHECK(gpu.scores.at(n) == std::map<unsigned, double>{{0u, 0.0}});
    }
    unref_all(ref);
    check_clean(st);
}

TEST_CASE("motion on the GPU: the row sums' bounds and 32-bit wrap", "[motion][vulkan]")
{
    // A white frame after a black one: every blurred difference is
    // 255 * 2^16 / 2^8 = 65280 exactly (and 65535 at 16 bits), so a row of w
    // samples sums to 65280 w. Pictures of the API are at most 65536 wide, where
    // that is just below 2^32; libvmaf's 32-bit row sum would wrap past 65793
    // samples, and the kernel must wrap as it does: such a picture is made by
    // hand here, for the Engine and the CPU extractor, which take any width.
    vk::State &st = shared_state();
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
        const MapSink gpu = run_engine(st, kMotionExtractor, opts, ref, ref, true);
        CHECK(gpu.scores.at(motion::kSadName).at(1) == double(row * h) / 256.0 / (double(c.w) * h));
        require_identical(gpu, run_cpu(opts, ref, ref));
    }
    check_clean(st);
}

TEST_CASE("motion on the GPU with subsampling equals the CPU context", "[motion][vulkan]")
{
    // Motion compares every frame with the one before it, subsampled or not; the
    // subsampled-out frames' scores are computed and stored as on the CPU.
    vk::State &st = shared_state();
    const std::vector<std::string> names = {"integer_motion2", "integer_motion3",
                                            "VMAF_integer_feature_motion_sad_score"};
    for (unsigned n_subsample : {2u, 3u}) {
        for (const char *pair : {"coffee_320x240_crf28", "rocket_320x240_10bit_crf30"}) {
            INFO(pair << " n_subsample " << n_subsample);
            const auto gpu = run_api(pair, names, &st, n_subsample);
            const auto cpu = run_api(pair, names, nullptr, n_subsample);
            CHECK(gpu == cpu);
            for (const auto &n : names)
                for (const auto &v : gpu.at(n)) CHECK(v.has_value());
        }
    }
    check_clean(st);
}

TEST_CASE("motion twice in one context: both configurations on the GPU", "[motion][vulkan]")
{
    // Each configuration runs on the GPU with its own state and writes its own
    // series, equal to its CPU extractor's.
    vk::State &st = shared_state();
    const Frames &f = golden("mandel_176x144_noise");
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    REQUIRE(context_import_vulkan_state(vmaf, &st) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "motion", nullptr) == 0);
    VmafFeatureDictionary *d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "motion_five_frame_window", "true") == 0);
    REQUIRE(vmaf_use_feature(vmaf, "motion", d) == 0);
    const size_t n = f.ref.size();
    const uint64_t before = st.submissions();
    for (size_t i = 0; i < n; i++) {
        VmafPicture r, dd;
        picture_ref(&r, &f.ref[i]);
        picture_ref(&dd, &f.dist[i]);
        REQUIRE(vmaf_read_pictures(vmaf, &r, &dd, unsigned(i)) == 0);
    }
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    CHECK(st.submissions() - before == n);  // both on the GPU, in one submission per frame
    const MapSink three = run_cpu(options_for(kMotionExtractor), f.ref, f.ref);
    const MapSink five = run_cpu(options_for(kMotionExtractor, {{"motion_five_frame_window", "true"}}), f.ref, f.ref);
    for (unsigned i = 0; i < n; i++) {
        double v = -1;
        REQUIRE(vmaf_feature_score_at_index(vmaf, "integer_motion2", &v, i) == 0);
        CHECK(v == three.scores.at(motion::kMotion2Name).at(i));
        REQUIRE(vmaf_feature_score_at_index(vmaf, "integer_motion3_mffw", &v, i) == 0);
        CHECK(v == five.scores.at(motion::kMotion3Name).at(i));
    }
    REQUIRE(vmaf_close(vmaf) == 0);
    check_clean(st);
}

TEST_CASE("motion on the GPU needs the frames in order", "[motion][vulkan]")
{
    // Frame 1 first: there is no previous picture to compare with, as on the CPU.
    vk::State &st = shared_state();
    auto ref = ramp(VMAF_PIX_FMT_YUV420P, 8, 32, 16, 1, 10, 9);
    const auto opts = options_for(kMotionExtractor);
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(&st, format_of(ref[0]), {{&kMotionExtractor, opts}}, &engine) == 0);
    MapSink sink;
    CHECK(engine->submit(ref[0], ref[0], 1, sink) == -EINVAL);
    engine.reset();
    auto cpu = kMotionExtractor.create(opts);
    REQUIRE(cpu->init(format_of(ref[0])) == 0);
    CHECK(cpu->extract(ref[0], ref[0], 1, sink) == -EINVAL);
    // Too small for the 5-tap mirror: refused by both.
    std::unique_ptr<vk::Engine> tiny;
    CHECK(vk::Engine::create(&st, {VMAF_PIX_FMT_YUV420P, 8, 2, 8}, {{&kMotionExtractor, opts}}, &tiny) == -EINVAL);
    CHECK(cpu->init({VMAF_PIX_FMT_YUV420P, 8, 2, 8}) == -EINVAL);
    unref_all(ref);
    check_clean(st);
}
