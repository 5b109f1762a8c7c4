// SPDX-License-Identifier: BSD-2-Clause-Patent
// CAMBI against Netflix libvmaf's output on every golden pair large enough for
// it (the default run and the aom_ctc v7.0 / nflx_ctc v1.0 presets, which add
// cambi with its defaults), plus options, output names, full-reference mode,
// scaled encodes, heatmap files, size limits and the kernel builds agreeing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include "feature/cambi/cambi.h"
#include "feature/cambi/cambi_kernels.h"
#include "feature/cambi/cambi_pool.h"
#include "feature/cambi/cambi_tables.h"
#include "golden.h"
#include "options.h"
#include "pictures.h"
#include "sink.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// Runs a fresh instance with the given kernels over every frame pair.
MapSink run_direct(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dis, const Dict &opts,
                   cambi::Kernels which)
{
    auto ex = cambi::create_cpu(options_for(kCambiExtractor, opts), which);
    REQUIRE(ex);
    REQUIRE(ex->init(format_of(ref[0])) == 0);
    MapSink sink;
    for (unsigned i = 0; i < ref.size(); i++) REQUIRE(ex->extract(ref[i], dis[i], i, sink) == 0);
    return sink;
}

const char *const kPresetFiles[] = {".libvmaf.json", ".libvmaf.aom_ctc_v7.0.json", ".libvmaf.nflx_ctc_v1.0.json"};

bool has_cambi(const std::string &pair)
{
    const auto e = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
    return !e.frames.empty() && e.frames[0].count("cambi");
}

// Status of scoring the pair's first frame with cambi and these options.
// vmaf_read_pictures' result on the first frame; with `scored`, whether a cambi
// score was written for it (after the flush).
int first_frame_status(const std::string &pair, const Dict &opts, bool *scored = nullptr)
{
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    VmafContext *vmaf = nullptr;
    REQUIRE(open_quiet(&vmaf, "cambi", opts) == 0);
    const int err = vmaf_read_pictures(vmaf, &ref[0], &dis[0], 0);
    if (scored) {
        double v = 0;
        *scored = !err && vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0 &&
                  vmaf_feature_score_at_index(vmaf, "cambi", &v, 0) == 0;
    }
    vmaf_close(vmaf);
    unref_all(ref);
    unref_all(dis);
    return err;
}

int use_status(const Dict &opts)
{
    return use_with("cambi", opts);
}

}  // namespace

TEST_CASE("cambi matches libvmaf on every golden pair and preset", "[cambi][golden]")
{
    double worst = 0;
    int pairs = 0;
    for (const auto &pair : golden_pairs()) {
        if (!has_cambi(pair)) continue;
        pairs++;
        const auto got = run_pair(pair, {{"cambi", {}}}, {"cambi"});
        for (const char *suffix : kPresetFiles) {
            const auto expected = load_expected(data_dir() + "/" + pair + suffix);
            REQUIRE(expected.frames.size() == got.at("cambi").size());
            double max_diff = 0;
            for (size_t i = 0; i < expected.frames.size(); i++)
                max_diff = std::max(max_diff, std::fabs(got.at("cambi")[i] - expected.frames[i].at("cambi")));
            INFO(pair << suffix << " cambi max |diff| " << max_diff);
            CHECK(max_diff <= 1e-4);
            worst = std::max(worst, max_diff);
        }
    }
    CHECK(pairs == 7);
    std::printf("cambi: max |diff| vs libvmaf over %d pairs x 3 runs: %.3g\n", pairs, worst);
}

// libvmaf's own scores for non-default options (same commit as tests/data, its
// portable C path, printed with 17 digits): coffee_320x240_crf28 frames 0 and 9.
TEST_CASE("cambi options match libvmaf and tag output names", "[cambi]")
{
    struct Case {
        Dict opts;
        const char *name;
        double frame0, frame9;
    };
    const Case cases[] = {
        {{{"window_size", "33"}}, "cambi_ws_33", 0.7894394198869482, 0.7985114424983843},
        {{{"eotf", "pq"}, {"max_log_contrast", "3"}}, "cambi_eotf_pq_mlc_3", 1.4967845944125973, 1.433100433667484},
        {{{"enc_width", "240"}, {"enc_height", "180"}}, "cambi_ench_180_encw_240", 0.7685860494926167,
         0.8659234894623505},
        {{{"enc_bitdepth", "10"}}, "cambi_encbd_10", 2.7313579724066788, 2.9506788666303065},
        {{{"topk", "0.3"}}, "cambi_topk_0.3", 2.308805324371203, 2.2909354886931292},
    };
    for (const auto &c : cases) {
        std::vector<std::pair<std::string, std::string>> opts(c.opts.begin(), c.opts.end());
        const auto got = run_pair("coffee_320x240_crf28", {{"cambi", opts}}, {c.name});
        INFO(c.name);
        CHECK(got.at(c.name)[0] == c.frame0);
        CHECK(got.at(c.name)[9] == c.frame9);
    }
    // 10-bit input scored as an 8-bit encode (anti-dithering on), and a scaled encode.
    const auto bd8 = run_pair("rocket_320x240_10bit_crf30", {{"cambi", {{"enc_bitdepth", "8"}}}}, {"cambi_encbd_8"});
    CHECK(bd8.at("cambi_encbd_8")[0] == 0.47153688654083914);
    CHECK(bd8.at("cambi_encbd_8")[9] == 0.4741310897441644);
    const auto sc = run_pair("rocket_320x240_10bit_crf30", {{"cambi", {{"enc_width", "300"}, {"enc_height", "160"}}}},
                             {"cambi_ench_160_encw_300"});
    CHECK(sc.at("cambi_ench_160_encw_300")[0] == 0.5989827724166781);
    CHECK(sc.at("cambi_ench_160_encw_300")[9] == 0.5502245261663582);

    // An encode larger than the picture is scored at the picture's size.
    const auto big = run_pair("coffee_320x240_crf28", {{"cambi", {{"enc_width", "1920"}, {"enc_height", "1080"}}}},
                              {"cambi_ench_1080_encw_1920"});
    const auto def = run_pair("coffee_320x240_crf28", {{"cambi", {}}}, {"cambi"});
    CHECK(big.at("cambi_ench_1080_encw_1920") == def.at("cambi"));

    // cambi_max_val clips; topk wins over cambi_topk only when it is set.
    const auto clip = run_pair("coffee_320x240_crf28", {{"cambi", {{"cambi_max_val", "1.1"}}}}, {"cambi_cmxv_1.1"});
    for (size_t i = 0; i < def.at("cambi").size(); i++)
        CHECK(clip.at("cambi_cmxv_1.1")[i] == std::min(def.at("cambi")[i], 1.1));
    const auto ctpk = run_pair("coffee_320x240_crf28", {{"cambi", {{"cambi_topk", "0.3"}}}}, {"cambi_ctpk_0.3"});
    CHECK(ctpk.at("cambi_ctpk_0.3")[0] == 2.308805324371203);

    // With full_ref, libvmaf writes cambi_source and cambi_full_reference bare
    // (its name dictionary holds the provided name only): the suffix goes on
    // the main score alone.
    const auto fr = run_pair("coffee_320x240_crf28", {{"cambi", {{"full_ref", "true"}, {"window_size", "33"}}}},
                             {"cambi_ws_33", "cambi_source", "cambi_full_reference"});
    CHECK(fr.at("cambi_ws_33")[0] == 0.7894394198869482);
    for (size_t i = 0; i < fr.at("cambi_ws_33").size(); i++)
        CHECK(fr.at("cambi_full_reference")[i] ==
              std::max(0.0, fr.at("cambi_ws_33")[i] - fr.at("cambi_source")[i]));

    // A visibility threshold above every step's TVI limit leaves nothing to score.
    const auto none = run_pair("coffee_320x240_crf28",
                               {{"cambi", {{"cambi_vis_lum_threshold", "10"}, {"tvi_threshold", "0.05"}}}},
                               {"cambi_vlt_10_tvit_0.05"});
    for (double v : none.at("cambi_vlt_10_tvit_0.05")) CHECK(v == 0.0);
}

TEST_CASE("cambi full-reference mode scores the reference too", "[cambi]")
{
    const auto got = run_pair("coffee_320x240_crf28", {{"cambi", {{"full_ref", "true"}}}},
                              {"cambi", "cambi_source", "cambi_full_reference"});
    // libvmaf's values for frames 0 and 9.
    CHECK(got.at("cambi")[0] == 1.1544026621856014);
    CHECK(got.at("cambi_source")[0] == 0.027135148594607843);
    CHECK(got.at("cambi_full_reference")[0] == 1.1272675135909935);
    CHECK(got.at("cambi_source")[9] == 0.04369024826412231);
    CHECK(got.at("cambi_full_reference")[9] == 1.1017774960824422);
    for (size_t i = 0; i < got.at("cambi").size(); i++)
        CHECK(got.at("cambi_full_reference")[i] == std::max(0.0, got.at("cambi")[i] - got.at("cambi_source")[i]));
    // Scoring a picture against itself leaves nothing.
    auto ref = load_y4m(data_dir() + "/testsrc2_320x240_crf45_ref.y4m");
    const MapSink same = run_direct(ref, ref, {{"full_ref", "true"}}, cambi::Kernels::Best);
    for (unsigned i = 0; i < ref.size(); i++) {
        double d = -1, s = -1, f = -1;
        REQUIRE(same.get("Cambi_feature_cambi_score", i, &d) == 0);
        REQUIRE(same.get("cambi_source", i, &s) == 0);
        REQUIRE(same.get("cambi_full_reference", i, &f) == 0);
        CHECK(d == s);
        CHECK(d > 0);
        CHECK(f == 0.0);
    }
    unref_all(ref);
}

TEST_CASE("cambi writes libvmaf's heatmap files", "[cambi]")
{
    const auto dir = std::filesystem::temp_directory_path() / "cambi_heatmaps_test" / "nested";
    std::filesystem::remove_all(dir.parent_path());
    const auto got = run_pair("coffee_320x240_crf28", {{"cambi", {{"heatmaps_path", dir.string()}}}}, {"cambi"});
    CHECK(got.at("cambi")[0] == 1.1544026621856014);
    // libvmaf's files for this pair: bytes, sum of the samples, largest, non-zero count.
    struct File {
        const char *name;
        uintmax_t bytes;
        uint64_t sum;
        unsigned max, nonzero;
    };
    const File files[] = {
        {"cambi_heatmap_scale_0_320x240_16b.gray", 1536000, 1180102702, 65507, 40445},
        {"cambi_heatmap_scale_1_160x120_16b.gray", 384000, 320003052, 65507, 11158},
        {"cambi_heatmap_scale_2_80x60_16b.gray", 96000, 51302143, 47553, 2709},
        {"cambi_heatmap_scale_3_40x30_16b.gray", 24000, 4028748, 18724, 509},
        {"cambi_heatmap_scale_4_20x15_16b.gray", 6000, 116331, 5349, 44},
    };
    for (const auto &f : files) {
        const auto path = dir / f.name;
        INFO(path.string());
        REQUIRE(std::filesystem::exists(path));
        CHECK(std::filesystem::file_size(path) == f.bytes);
        std::ifstream in(path, std::ios::binary);
        std::vector<uint16_t> v(f.bytes / 2);
        in.read(reinterpret_cast<char *>(v.data()), std::streamsize(f.bytes));
        uint64_t sum = 0;
        unsigned max = 0, nonzero = 0;
        for (uint16_t x : v) sum += x, max = std::max<unsigned>(max, x), nonzero += x != 0;
        CHECK(sum == f.sum);
        CHECK(max == f.max);
        CHECK(nonzero == f.nonzero);
    }
    std::filesystem::remove_all(dir.parent_path());
}

TEST_CASE("cambi skips small pictures, refuses bad sizes and bad options", "[cambi]")
{
    // Both sides of the encode below 216: libvmaf's extractor fails and its tool
    // goes on without a cambi score; here a warning and no score, the frame read
    // succeeding (as for float_ms_ssim).
    bool scored = true;
    for (const auto &pair : golden_pairs()) {
        if (pair.find("176x144") == std::string::npos) continue;
        INFO(pair);
        CHECK(!has_cambi(pair));
        CHECK(first_frame_status(pair, {}, &scored) == 0);
        CHECK(!scored);
    }
    CHECK(first_frame_status("coffee_320x240_crf28", {}, &scored) == 0);
    CHECK(scored);
    // (Encode sizes are feature parameters: the score's name then has a suffix.)
    CHECK(first_frame_status("coffee_320x240_crf28", {{"enc_width", "200"}, {"enc_height", "150"}}) == 0);
    CHECK(first_frame_status("coffee_320x240_crf28", {{"enc_width", "200"}, {"enc_height", "230"}}) == 0);
    // A source larger in one direction and smaller in the other.
    CHECK(first_frame_status("chelsea_322x186_rescale",
                             {{"full_ref", "true"}, {"src_width", "320"}, {"src_height", "240"}}) == -EINVAL);

    CHECK(use_status({{"nonsense", "1"}}) == -EINVAL);
    CHECK(use_status({{"window_size", "200"}}) == -EINVAL);
    CHECK(use_status({{"window_size", "14"}}) == -EINVAL);
    CHECK(use_status({{"topk", "0"}}) == -EINVAL);
    CHECK(use_status({{"max_log_contrast", "6"}}) == -EINVAL);
    CHECK(use_status({{"eotf", "hlg"}}) == -EINVAL);
    CHECK(use_status({{"cambi_eotf", "srgb"}}) == -EINVAL);
    CHECK(use_status({{"enc_width", "100"}}) == -EINVAL);
    CHECK(use_status({{"cambi_max_val", "1001"}}) == -EINVAL);
    CHECK(use_status({{"full_ref", "maybe"}}) == -EINVAL);
    CHECK(use_status({{"eotf", "pq"}, {"window_size", "127"}, {"full_ref", "true"}}) == 0);
}

TEST_CASE("cambi gives the same scores on several threads", "[cambi]")
{
    const auto one = run_pair("testsrc2_320x240_crf45", {{"cambi", {{"full_ref", "true"}}}},
                              {"cambi", "cambi_source"}, 1);
    const auto two = run_pair("testsrc2_320x240_crf45", {{"cambi", {{"full_ref", "true"}}}},
                              {"cambi", "cambi_source"}, 2);
    CHECK(one == two);
}

namespace {

// A 1080p-style 8-bit picture: smooth gradients quantized into bands over most
// of the frame, a noisy textured block and a few sharp edges.
void synthetic_picture(VmafPicture *pic, unsigned w, unsigned h, unsigned bpc, uint32_t seed)
{
    REQUIRE(vmaf_picture_alloc(pic, VMAF_PIX_FMT_YUV420P, bpc, w, h) == 0);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> noise(-12, 12);
    const unsigned max = (1u << bpc) - 1, scale = 1u << (bpc - 8);
    for (unsigned p = 0; p < 3; p++) {
        for (unsigned y = 0; y < pic->h[p]; y++) {
            for (unsigned x = 0; x < pic->w[p]; x++) {
                int v = int(40 + (x * 60) / std::max(1u, pic->w[p]) + (y * 30) / std::max(1u, pic->h[p]));
                v *= int(scale);
                if (x > pic->w[p] / 2 && y < pic->h[p] / 3) v += noise(rng) * int(scale);
                if ((x / 97 + y / 61) % 7 == 0) v = int(200 * scale);
                const unsigned s = unsigned(std::clamp(v, 0, int(max)));
                uint8_t *row = static_cast<uint8_t *>(pic->data[p]) + size_t(y) * pic->stride[p];
                if (bpc == 8)
                    row[x] = uint8_t(s);
                else
                    reinterpret_cast<uint16_t *>(row)[x] = uint16_t(s);
            }
        }
    }
}

}  // namespace

// Every score of two sinks, bit for bit.
void check_same(const MapSink &a, const MapSink &b)
{
    REQUIRE(a.scores.size() == b.scores.size());
    for (const auto &[name, frames] : a.scores) {
        REQUIRE(b.scores.count(name));
        for (const auto &[i, v] : frames) {
            INFO(name << " frame " << i);
            CHECK(v == b.scores.at(name).at(i));
        }
    }
}

TEST_CASE("cambi portable and dispatched kernels agree bit for bit", "[cambi]")
{
    const cambi::Kernels builds[] = {cambi::Kernels::Best, cambi::Kernels::Avx2};
    for (const auto &pair : golden_pairs()) {
        if (!has_cambi(pair) || pair.find("_422_") != std::string::npos) continue;
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        for (const Dict &opts : {Dict{{"full_ref", "true"}}, Dict{{"max_log_contrast", "5"}, {"window_size", "127"}},
                                 Dict{{"cambi_vis_lum_threshold", "2"}, {"eotf", "pq"}}}) {
            const MapSink portable = run_direct(ref, dis, opts, cambi::Kernels::Portable);
            for (auto which : builds) {
                INFO(pair << " kernels " << int(which));
                check_same(portable, run_direct(ref, dis, opts, which));
            }
        }
        unref_all(ref);
        unref_all(dis);
    }
    // Synthetic pictures of odd sizes give the vector loops tails at every scale.
    for (unsigned bpc : {8u, 10u, 12u}) {
        for (auto [w, h] : {std::pair{333u, 217u}, std::pair{1001u, 250u}, std::pair{250u, 609u}}) {
            VmafPicture ref, dis;
            synthetic_picture(&ref, w, h, bpc, 3);
            synthetic_picture(&dis, w, h, bpc, 4);
            const std::vector<VmafPicture> r{ref}, d{dis};
            const MapSink portable = run_direct(r, d, {{"full_ref", "true"}}, cambi::Kernels::Portable);
            double v = 0;
            REQUIRE(portable.get("Cambi_feature_cambi_score", 0, &v) == 0);
            CHECK(v > 0);
            for (auto which : builds) {
                INFO(bpc << "-bit " << w << "x" << h << " kernels " << int(which));
                check_same(portable, run_direct(r, d, {{"full_ref", "true"}}, which));
            }
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
        }
    }
}

TEST_CASE("cambi fast pooling equals libvmaf's quickselect pooling", "[cambi]")
{
    // c-values as CAMBI makes them: zeros and weight * p0 * p / (p0 + p) in
    // float, with many ties; sizes and topk that put the cut inside a tie.
    const float *rcp = cambi::reciprocal_table().data();
    std::mt19937 rng(7);
    cambi::PoolScratch scratch;
    int fast = 0;
    for (int trial = 0; trial < 300; trial++) {
        const unsigned n = 1 + rng() % 5000;
        const unsigned max_count = 1 + rng() % (trial % 3 == 0 ? 4 : 2000);
        const double zeros = (rng() % 100) / 100.0;
        std::vector<float> c(n);
        for (auto &v : c) {
            const uint32_t p0 = 1 + rng() % max_count, p = rng() % (max_count + 1);
            const int weight = 1 + int(rng() % 9);
            v = (rng() % 1000) / 1000.0 < zeros || !p ? 0.0f : cambi::contrast_term(weight, p0, p, rcp);
        }
        const double topk = trial % 5 == 0 ? 1.0 : (1 + rng() % 10000) / 10000.0;
        std::vector<float> a = c, b = c;
        const double want = cambi::pool_topk_reference(a.data(), n, topk);
        const double got = cambi::pool_topk(b.data(), n, topk, scratch);
        INFO("trial " << trial << " n " << n << " topk " << topk);
        CHECK(got == want);
        fast += b == c;  // the fast path leaves the values in place
    }
    CHECK(fast > 250);
    // Totals too large for an exact double sum take libvmaf's order.
    std::vector<float> big(1 << 20, 9000.5f), big2 = big;
    big[5] = 0.5f, big2[5] = 0.5f;
    CHECK(cambi::pool_topk(big.data(), unsigned(big.size()), 1.0, scratch) ==
          cambi::pool_topk_reference(big2.data(), unsigned(big2.size()), 1.0));
}

TEST_CASE("cambi one-thread time per 1080p frame", "[.][bench]")
{
    for (unsigned bpc : {8u, 10u}) {
        VmafPicture ref, dis;
        synthetic_picture(&ref, 1920, 1080, bpc, 1);
        synthetic_picture(&dis, 1920, 1080, bpc, 2);
        const std::vector<VmafPicture> r{ref}, d{dis};
        for (auto which : {cambi::Kernels::Portable, cambi::Kernels::Avx2, cambi::Kernels::Best}) {
            auto ex = cambi::create_cpu(options_for(kCambiExtractor), which);
            REQUIRE(ex->init({ref.pix_fmt, bpc, 1920, 1080}) == 0);
            MapSink sink;
            REQUIRE(ex->extract(ref, dis, 0, sink) == 0);  // warm up
            const int n = 5;
            const auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < n; i++) REQUIRE(ex->extract(ref, dis, unsigned(i), sink) == 0);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / n;
            const char *names[] = {"best", "portable", "avx2"};
            std::printf("cambi 1080p %u-bit, %-8s kernels: %.1f ms/frame\n", bpc, names[int(which)], ms);
        }
        vmaf_picture_unref(&ref);
        vmaf_picture_unref(&dis);
    }
}
