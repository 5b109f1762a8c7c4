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
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

class MapSink final : public ScoreSink {
public:
    int append(const char *name, unsigned index, double value) override
    {
        scores[name][index] = value;
        return 0;
    }
    int get(const char *name, unsigned index, double *value) const override
    {
        auto n = scores.find(name);
        if (n == scores.end()) return -ENOENT;
        auto v = n->second.find(index);
        if (v == n->second.end()) return -ENOENT;
        *value = v->second;
        return 0;
    }
    int set_aggregate(const char *, double) override { return 0; }

    std::map<std::string, std::map<unsigned, double>> scores;
};

FeatureOptions parse_options(const Dict &d)
{
    FeatureOptions o;
    std::string err;
    REQUIRE(FeatureOptions::parse(kCambiExtractor.options, d, &o, &err) == 0);
    return o;
}

// Runs a fresh instance with the given kernels over every frame pair.
MapSink run_direct(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dis, const Dict &opts,
                   cambi::Kernels which)
{
    auto ex = cambi::create_cpu(parse_options(opts), which);
    REQUIRE(ex);
    REQUIRE(ex->init({ref[0].pix_fmt, ref[0].bpc, ref[0].w[0], ref[0].h[0]}) == 0);
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
int first_frame_status(const std::string &pair, const Dict &opts)
{
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    VmafFeatureDictionary *d = nullptr;
    for (const auto &[k, v] : opts) REQUIRE(vmaf_feature_dictionary_set(&d, k.c_str(), v.c_str()) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "cambi", d) == 0);
    const int err = vmaf_read_pictures(vmaf, &ref[0], &dis[0], 0);
    vmaf_close(vmaf);
    unref_all(ref);
    unref_all(dis);
    return err;
}

int use_status(const Dict &opts)
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    VmafFeatureDictionary *d = nullptr;
    for (const auto &[k, v] : opts) REQUIRE(vmaf_feature_dictionary_set(&d, k.c_str(), v.c_str()) == 0);
    const int err = vmaf_use_feature(vmaf, "cambi", d);
    vmaf_close(vmaf);
    return err;
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
