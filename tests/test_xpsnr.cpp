// SPDX-License-Identifier: BSD-2-Clause-Patent
// XPSNR against FFmpeg's xpsnr filter on every golden pair (per frame and the
// whole clip, as the filter prints them at 4 decimals), plus closed forms.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "feature/xpsnr/xpsnr.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "options.h"
#include "run.h"
#include "sink.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

const char *const kNames[3] = {"xpsnr_y", "xpsnr_cb", "xpsnr_cr"};
const char *const kAggregates[3] = {"axpsnr_y", "axpsnr_cb", "axpsnr_cr"};

// The filter's stats file: per frame "n: 1  XPSNR y: A  XPSNR u: B  XPSNR v: C",
// then "XPSNR average, N frames  y: A  u: B  v: C  (minimum: D)". Values as printed.
struct FfmpegStats {
    std::vector<std::array<std::string, 3>> frames;
    std::array<std::string, 3> average;
};

FfmpegStats load_stats(const std::string &path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    FfmpegStats s;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string tok;
        if (line.rfind("n:", 0) == 0) {
            std::array<std::string, 3> v;
            unsigned c = 0;
            while (ls >> tok)
                if (tok.size() == 2 && tok[1] == ':' && tok[0] != 'n' && c < 3) ls >> v[c++];
            REQUIRE(c == 3);
            s.frames.push_back(v);
        } else if (line.rfind("XPSNR average", 0) == 0) {
            unsigned c = 0;
            while (ls >> tok)
                if ((tok == "y:" || tok == "u:" || tok == "v:") && c < 3) ls >> s.average[c++];
            REQUIRE(c == 3);
        }
    }
    return s;
}

std::string printed(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%3.4f", v);
    return buf;
}

// Flat pictures: `a` at 100 everywhere, `b` the same but luma at 100 + delta.
void flat(VmafPicture *pic, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned luma)
{
    REQUIRE(vmaf_picture_alloc(pic, fmt, bpc, w, h) == 0);
    for (unsigned p = 0; p < (fmt == VMAF_PIX_FMT_YUV400P ? 1u : 3u); p++)
        for (unsigned y = 0; y < pic->h[p]; y++)
            for (unsigned x = 0; x < pic->w[p]; x++) {
                const unsigned v = p == 0 ? luma : 100;
                if (bpc == 8)
                    static_cast<uint8_t *>(pic->data[p])[y * pic->stride[p] + x] = uint8_t(v);
                else
                    reinterpret_cast<uint16_t *>(static_cast<uint8_t *>(pic->data[p]) + y * pic->stride[p])[x] =
                        uint16_t(v);
            }
}

// Scores of `n` frames of flat pictures: the distorted luma at 100 + delta.
MapSink flat_run(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned delta, unsigned n,
                 const Dict &opts = {})
{
    std::vector<VmafPicture> ref(n), dist(n);
    for (unsigned i = 0; i < n; i++) {
        flat(&ref[i], fmt, bpc, w, h, 100);
        flat(&dist[i], fmt, bpc, w, h, 100 + delta);
    }
    auto e = kXpsnrExtractor.create(options_for(kXpsnrExtractor, opts));
    REQUIRE(e->init({fmt, bpc, w, h}) == 0);
    MapSink sink;
    for (unsigned i = 0; i < n; i++) REQUIRE(e->extract(ref[i], dist[i], i, sink) == 0);
    REQUIRE(e->flush(sink) == 0);
    unref_all(ref);
    unref_all(dist);
    return sink;
}

}  // namespace

TEST_CASE("xpsnr matches FFmpeg's xpsnr filter on every golden pair", "[xpsnr][golden]")
{
    for (const auto &pair : golden_pairs()) {
        const FfmpegStats want = load_stats(data_dir() + "/" + pair + ".ffmpeg.xpsnr.txt");
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        REQUIRE(want.frames.size() == ref.size());
        auto e = kXpsnrExtractor.create(options_for(kXpsnrExtractor));
        REQUIRE(e->init({ref[0].pix_fmt, ref[0].bpc, ref[0].w[0], ref[0].h[0]}) == 0);
        MapSink sink;
        for (size_t i = 0; i < ref.size(); i++) REQUIRE(e->extract(ref[i], dist[i], unsigned(i), sink) == 0);
        REQUIRE(e->flush(sink) == 0);
        unsigned mismatches = 0;
        for (unsigned c = 0; c < 3; c++) {
            for (unsigned i = 0; i < ref.size(); i++) {
                INFO(pair << " " << kNames[c] << " frame " << i);
                CHECK(printed(sink.at(kNames[c], i)) == want.frames[i][c]);
                mismatches += printed(sink.at(kNames[c], i)) != want.frames[i][c];
            }
            INFO(pair << " " << kAggregates[c]);
            REQUIRE(sink.aggregates.count(kAggregates[c]));
            CHECK(printed(sink.aggregates.at(kAggregates[c])) == want.average[c]);
        }
        std::printf("%-32s frames %zu mismatches %u average y %s u %s v %s\n", pair.c_str(), ref.size(), mismatches,
                    printed(sink.aggregates.at(kAggregates[0])).c_str(),
                    printed(sink.aggregates.at(kAggregates[1])).c_str(),
                    printed(sink.aggregates.at(kAggregates[2])).c_str());

        // The public API (the registry, two threads) gives the same doubles.
        const auto api = run_pair(pair, {{"xpsnr", {}}}, {kNames[0], kNames[1], kNames[2]}, 2);
        for (unsigned c = 0; c < 3; c++)
            for (unsigned i = 0; i < ref.size(); i++) {
                INFO(pair << " " << kNames[c] << " frame " << i);
                const double cpu = sink.at(kNames[c], i), got = api.at(kNames[c])[i];
                CHECK((cpu == got || (std::isinf(cpu) && std::isinf(got))));
            }
        unref_all(ref);
        unref_all(dist);
    }
}

TEST_CASE("two xpsnr features with different options keep both clip scores, each under its own name", "[xpsnr]")
{
    // The aggregate names carry the per-frame names' option suffix. At 50 fps
    // the temporal term is the second-order difference, so the two features'
    // clip scores differ; each must be the one its options give alone.
    const std::string pair = "astronaut_176x144_crf35";
    const auto alone = [&](const Dict &opts) {
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        auto e = kXpsnrExtractor.create(options_for(kXpsnrExtractor, opts));
        REQUIRE(e->init({ref[0].pix_fmt, ref[0].bpc, ref[0].w[0], ref[0].h[0]}) == 0);
        MapSink sink;
        for (size_t i = 0; i < ref.size(); i++) REQUIRE(e->extract(ref[i], dist[i], unsigned(i), sink) == 0);
        REQUIRE(e->flush(sink) == 0);
        unref_all(ref);
        unref_all(dist);
        return sink.aggregates;
    };
    const auto plain = alone({}), fifty = alone({{"fps", "50"}});
    REQUIRE(plain.at("axpsnr_y") != fifty.at("axpsnr_y"));

    VmafContext *v = nullptr;
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    REQUIRE(vmaf_init(&v, cfg) == 0);
    REQUIRE(vmaf_use_feature(v, "xpsnr", nullptr) == 0);
    REQUIRE(vmaf_use_feature(v, "xpsnr", feature_dictionary({{"fps", "50"}})) == 0);
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    for (size_t i = 0; i < ref.size(); i++) REQUIRE(vmaf_read_pictures(v, &ref[i], &dist[i], unsigned(i)) == 0);
    REQUIRE(vmaf_read_pictures(v, nullptr, nullptr, 0) == 0);
    const std::string path = (std::filesystem::temp_directory_path() / "vmaf_test_xpsnr_aggregates.json").string();
    REQUIRE(vmaf_write_output(v, path.c_str(), VMAF_OUTPUT_FORMAT_JSON) == 0);
    vmaf_close(v);
    std::ifstream in(path);
    const nlohmann::json j = nlohmann::json::parse(in);
    std::remove(path.c_str());
    const auto &agg = j.at("aggregate_metrics");
    CHECK(agg.size() == 6);
    const auto six = [](double x) {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.6f", x);
        return std::string(buf);
    };
    for (unsigned c = 0; c < 3; c++) {
        const std::string name = kAggregates[c], suffixed = name + "_fps_50";
        INFO(name);
        REQUIRE(agg.contains(name));
        REQUIRE(agg.contains(suffixed));
        CHECK(six(agg.at(name).get<double>()) == six(plain.at(name)));
        CHECK(six(agg.at(suffixed).get<double>()) == six(fifty.at(name)));
    }
}

TEST_CASE("xpsnr closed forms: flat pictures, temporal activity and frame rate", "[xpsnr]")
{
    // 64x64 has 4x4 blocks. A flat picture has no spatial activity; its
    // temporal activity is 2 |o - o_prev| per sample (the first frame against
    // zeros, so 2 * 103 = 206), floored at 2^(bpc - 6). Every block weighs
    // 1 / activity, and the weighted SSE scales by
    // sqrt(16 * 2^(2 bpc - 9) / sqrt(64 * 64 / (3840 * 2160))).
    const double r = 64.0 * 64.0 / (3840.0 * 2160.0);
    const double avg_act = std::sqrt(16.0 * 128.0 / std::sqrt(r));
    auto expect = [&](double act) {
        const double sse = 64.0 * 64.0 * 9.0;  // delta 3
        const uint64_t wsse = uint64_t(sse / act * avg_act + 0.5);
        return 10.0 * std::log10(64.0 * 64.0 * 255.0 * 255.0 / double(wsse));
    };
    const MapSink s = flat_run(VMAF_PIX_FMT_YUV420P, 8, 64, 64, 3, 3);
    CHECK(s.at("xpsnr_y", 0) == Approx(expect(206.0)).epsilon(1e-12));
    CHECK(s.at("xpsnr_y", 1) == Approx(expect(4.0)).epsilon(1e-12));
    CHECK(s.at("xpsnr_y", 2) == Approx(expect(4.0)).epsilon(1e-12));
    // Identical chroma: infinite, and so is its whole-clip score.
    CHECK(std::isinf(s.at("xpsnr_cb", 1)));
    CHECK(std::isinf(s.aggregates.at("axpsnr_cr")));
    // The whole clip: from the mean root weighted SSE.
    const double r0 = std::sqrt(std::round(64.0 * 64.0 * 9.0 / 206.0 * avg_act));
    const double r1 = std::sqrt(std::round(64.0 * 64.0 * 9.0 / 4.0 * avg_act));
    const double mean = (r0 + 2 * r1) / 3.0;
    CHECK(s.aggregates.at("axpsnr_y") == Approx(10.0 * std::log10(64.0 * 64.0 * 255.0 * 255.0 / (mean * mean))).epsilon(1e-12));

    // From 32 fps on, the second-order difference o - 2 o_prev + o_prev2:
    // 103, then -103, then 0.
    const MapSink hfr = flat_run(VMAF_PIX_FMT_YUV420P, 8, 64, 64, 3, 3, {{"fps", "50"}});
    CHECK(hfr.at("xpsnr_y", 0) == Approx(expect(206.0)).epsilon(1e-12));
    CHECK(hfr.at("xpsnr_y", 1) == Approx(expect(206.0)).epsilon(1e-12));
    CHECK(hfr.at("xpsnr_y", 2) == Approx(expect(4.0)).epsilon(1e-12));
    // 31.9 fps counts as 31, as the filter's integer frame rate does.
    const MapSink low = flat_run(VMAF_PIX_FMT_YUV420P, 8, 64, 64, 3, 3, {{"fps", "31.9"}});
    CHECK(low.at("xpsnr_y", 1) == s.at("xpsnr_y", 1));
}

TEST_CASE("xpsnr of pictures too small to weight is plain PSNR", "[xpsnr]")
{
    // Under 2025 samples the block size rounds to 0: the filter scores the
    // unweighted SSE, 10 log10(area * peak^2 / SSE).
    for (unsigned bpc : {8u, 10u}) {
        const MapSink s = flat_run(VMAF_PIX_FMT_YUV444P, bpc, 40, 30, 5, 2);
        const double peak = double((1u << bpc) - 1);
        for (unsigned i = 0; i < 2; i++)
            CHECK(s.at("xpsnr_y", i) == Approx(10.0 * std::log10(peak * peak / 25.0)).epsilon(1e-12));
    }
    // One pixel, and a grey picture with luma only.
    const MapSink one = flat_run(VMAF_PIX_FMT_YUV420P, 8, 1, 1, 2, 1);
    CHECK(one.at("xpsnr_y", 0) == Approx(10.0 * std::log10(255.0 * 255.0 / 4.0)).epsilon(1e-12));
    const MapSink grey = flat_run(VMAF_PIX_FMT_YUV400P, 8, 200, 100, 2, 2);
    CHECK(grey.scores.count("xpsnr_y"));
    CHECK(!grey.scores.count("xpsnr_cb"));
    CHECK(!grey.aggregates.count("axpsnr_cb"));
}

TEST_CASE("xpsnr rejects bad options", "[xpsnr]")
{
    CHECK(use_with("xpsnr", {}) == 0);
    CHECK(use_with("xpsnr", {{"fps", "60"}}) == 0);
    CHECK(use_with("xpsnr", {{"fps", "-1"}}) == -EINVAL);
    CHECK(use_with("xpsnr", {{"fps", "1001"}}) == -EINVAL);
    CHECK(use_with("xpsnr", {{"fps", "fast"}}) == -EINVAL);
    CHECK(use_with("xpsnr", {{"stats_file", "x.txt"}}) == -EINVAL);
}
