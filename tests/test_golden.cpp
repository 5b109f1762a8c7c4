// SPDX-License-Identifier: BSD-2-Clause-Patent
// End-to-end parity through the public C API: every golden pair, every model
// libvmaf was run with, features computed here from the pictures (not taken
// from libvmaf's output), compared with Netflix libvmaf's JSON: every per-frame
// feature it printed that this library computes, the VMAF score, the bootstrap
// statistics, and the pooled VMAF.
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/model.h"

using namespace vmaf::test;

namespace {

// Extractors libvmaf ran that are not here yet, with the names they (and the
// models needing them) print; an entry goes when its extractor lands, and the
// map is empty once every libvmaf feature is here.
const std::map<std::string, std::set<std::string>> kPending = {};

constexpr double kTolerance = 1e-4;  // the bound; integer features are in fact exact

struct ModelUse {
    const char *version;  // built-in version, or a file in the model directory ("x.json")
    const char *name;
    bool collection = false;
};

struct FeatureUse {
    const char *name;
    const char *opts = "";  // "key=value:key=value"
};

// One libvmaf command line of the golden data (MANIFEST.md), as C API calls.
struct Run {
    std::string json;  // expected output, relative to the data directory
    std::vector<ModelUse> models;
    std::vector<FeatureUse> features;
    bool ms_ssim_if_large = false;  // libvmaf ran float_ms_ssim on frames of at least 320x240
    // Printed by a libvmaf build running its AVX2 code, whose integer ADM
    // differs from its AVX-512 code at the right edge of some odd sizes
    // (adr/0023): reproduced with VMAF_ADM_EDGE_AS=avx2.
    bool avx2_build = false;
};

constexpr const char *kAomPsnr = "reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5";
constexpr const char *kDb = "enable_db=true:clip_db=true";

const Run kRuns[] = {
    {".libvmaf.json", {{"vmaf_v0.6.1", "vmaf"}},
     {{"psnr"}, {"float_ssim"}, {"cambi"}, {"float_vif"}, {"float_adm"}, {"float_motion"}}, true},
    {".libvmaf.vmaf_v0.6.1neg.json", {{"vmaf_v0.6.1neg", "vmaf"}}, {}},
    {".libvmaf.vmaf_4k_v0.6.1.json", {{"vmaf_4k_v0.6.1", "vmaf"}}, {}},
    {".libvmaf.vmaf_b_v0.6.3.json", {{"vmaf_b_v0.6.3", "vmaf", true}}, {}},
    {".libvmaf.more.json", {{"vmaf_v0.6.1", "vmaf"}, {"vmaf_float_v0.6.1.json", "vmaf_float"}},
     {{"float_psnr"}, {"float_ansnr"}, {"float_moment"}, {"ciede"}, {"psnr_hvs"}}, false, true},
    {".libvmaf.speed.json", {{"vmaf_v0.6.1", "vmaf"}}, {{"speed_chroma"}, {"speed_temporal"}}, false, true},
    // --aom_ctc v7.0 and --nflx_ctc v1.0, spelled out (libvmaf's tools/cli_parse.c).
    {".libvmaf.aom_ctc_v7.0.json", {{"vmaf_v0.6.1", "vmaf"}, {"vmaf_v0.6.1neg", "vmaf_neg"}},
     {{"psnr", kAomPsnr}, {"ciede"}, {"float_ssim", "scale=1:enable_db=true:clip_db=true"},
      {"float_ms_ssim", kDb}, {"psnr_hvs"}, {"cambi"}}, false, true},
    {".libvmaf.nflx_ctc_v1.0.json", {{"vmaf_4k_v0.6.1", "vmaf"}, {"vmaf_4k_v0.6.1neg", "vmaf_neg"}},
     {{"psnr", "enable_chroma=true:enable_apsnr=true"}, {"float_ssim", kDb}, {"cambi"}}, false, true},
};

// name -> max |diff| over the frames of one run.
using Diffs = std::map<std::string, double>;

VmafFeatureDictionary *make_dict(const std::string &opts)
{
    VmafFeatureDictionary *d = nullptr;
    size_t start = 0;
    while (start < opts.size()) {
        size_t end = opts.find(':', start);
        if (end == std::string::npos) end = opts.size();
        const std::string kv = opts.substr(start, end - start);
        const size_t eq = kv.find('=');
        REQUIRE(eq != std::string::npos);
        REQUIRE(vmaf_feature_dictionary_set(&d, kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str()) == 0);
        start = end + 1;
    }
    return d;
}

bool computed_here(const std::string &name)
{
    for (const auto &[extractor, names] : kPending)
        if (names.count(name)) return false;
    return true;
}

struct Loaded {
    VmafModel *model = nullptr;
    VmafModelCollection *collection = nullptr;
    std::string name;
};

void check_run(const std::string &pair, const Run &run, unsigned n_threads, Diffs &diffs)
{
    const std::string json = data_dir() + "/" + pair + run.json;
    if (!std::filesystem::exists(json)) return;  // e.g. no bootstrap run for 4:2:2 pairs
    const Expected exp = load_expected(json);
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    REQUIRE(ref.size() == exp.frames.size());
    REQUIRE(dis.size() == ref.size());

    if (run.avx2_build) setenv("VMAF_ADM_EDGE_AS", "avx2", 1);
    else unsetenv("VMAF_ADM_EDGE_AS");
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    cfg.n_threads = n_threads;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);

    std::vector<Loaded> models;
    for (const ModelUse &mu : run.models) {
        Loaded l;
        l.name = mu.name;
        VmafModelConfig mcfg{};
        mcfg.name = mu.name;
        const std::string v = mu.version;
        const bool file = v.size() > 5 && v.compare(v.size() - 5, 5, ".json") == 0;
        if (file) {
            const char *dir = std::getenv("VMAF_MODEL_DIR");
            REQUIRE(dir);
            const std::string path = std::string(dir) + "/" + v;
            if (!std::filesystem::exists(path)) continue;
            // A model of features not computed here yet is left out.
            if (vmaf_model_load_from_path(&l.model, &mcfg, path.c_str()) != 0) {
                REQUIRE(!computed_here(mu.name));
                continue;
            }
        }
        else if (mu.collection) {
            REQUIRE(vmaf_model_collection_load(&l.model, &l.collection, &mcfg, mu.version) == 0);
            REQUIRE(vmaf_use_features_from_model_collection(vmaf, l.collection) == 0);
        }
        else {
            REQUIRE(vmaf_model_load(&l.model, &mcfg, mu.version) == 0);
        }
        if (vmaf_use_features_from_model(vmaf, l.model) != 0) {
            REQUIRE(!computed_here(mu.name));
            vmaf_model_destroy(l.model);
            continue;
        }
        models.push_back(l);
    }
    std::vector<FeatureUse> features = run.features;
    if (run.ms_ssim_if_large && ref[0].w[0] >= 320 && ref[0].h[0] >= 240)
        features.push_back({"float_ms_ssim"});
    for (const FeatureUse &f : features) {
        const int err = vmaf_use_feature(vmaf, f.name, make_dict(f.opts));
        // Not yet computed here: every name it would give is listed above.
        INFO(pair << run.json << " feature " << f.name);
        REQUIRE((err == 0) == !kPending.count(f.name));
    }

    for (unsigned i = 0; i < ref.size(); i++) REQUIRE(vmaf_read_pictures(vmaf, &ref[i], &dis[i], i) == 0);
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    const unsigned last = unsigned(ref.size()) - 1;

    const char *methods[] = {"min", "max", "mean", "harmonic_mean"};
    const VmafPoolingMethod ids[] = {VMAF_POOL_METHOD_MIN, VMAF_POOL_METHOD_MAX, VMAF_POOL_METHOD_MEAN,
                                     VMAF_POOL_METHOD_HARMONIC_MEAN};
    for (const Loaded &l : models) {
        // Pooling the model first also stores its per-frame scores.
        for (int k = 0; k < 4; k++) {
            double got = 0;
            REQUIRE(vmaf_score_pooled(vmaf, l.model, ids[k], &got, 0, last) == 0);
            const double want = exp.pooled.at(l.name).at(methods[k]);
            INFO(pair << run.json << " pooled " << l.name << " " << methods[k]);
            REQUIRE(std::isfinite(want));
            CHECK(std::abs(got - want) <= kTolerance);
            double &m = diffs["pooled " + l.name + " " + methods[k]];
            m = std::max(m, std::abs(got - want));
        }
        if (!l.collection) continue;
        VmafModelCollectionScore s{};
        REQUIRE(vmaf_score_pooled_model_collection(vmaf, l.collection, VMAF_POOL_METHOD_MEAN, &s, 0, last) == 0);
        REQUIRE(s.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
        const double want = exp.pooled.at(l.name + "_bagging").at("mean");
        CHECK(std::abs(s.bootstrap.bagging_score - want) <= kTolerance);
    }

    for (unsigned i = 0; i < ref.size(); i++) {
        for (const auto &[name, want] : exp.frames[i]) {
            if (!computed_here(name)) continue;
            double got = 0;
            INFO(pair << run.json << " " << name << " frame " << i << " threads " << n_threads);
            REQUIRE(vmaf_feature_score_at_index(vmaf, name.c_str(), &got, i) == 0);
            if (std::isnan(want)) {  // libvmaf's null: not finite here either
                CHECK(!std::isfinite(got));
                continue;
            }
            const double d = std::abs(got - want);
            CHECK(d <= kTolerance);
            double &m = diffs[name];
            if (d > m) m = d;
        }
        // Pooled values of every feature libvmaf pooled are checked through the CLI
        // (tests/cli/cli_golden.py), which writes them.
    }

    vmaf_close(vmaf);
    unsetenv("VMAF_ADM_EDGE_AS");
    for (Loaded &l : models) {
        vmaf_model_destroy(l.model);
        if (l.collection) vmaf_model_collection_destroy(l.collection);
    }
    unref_all(ref);
    unref_all(dis);
}

void print(const std::string &what, const Diffs &diffs)
{
    std::printf("%s:", what.c_str());
    for (const auto &[name, d] : diffs) std::printf(" %s %.2g", name.c_str(), d);
    std::printf("\n");
}

}  // namespace

TEST_CASE("every golden pair and model through the C API matches libvmaf", "[golden]")
{
    const auto pairs = golden_pairs();
    REQUIRE(pairs.size() >= (golden_subset() ? 1u : 10u));
    for (const auto &pair : pairs) {
        for (const Run &run : kRuns) {
            Diffs diffs;
            check_run(pair, run, 1, diffs);
            if (!diffs.empty()) print(pair + run.json, diffs);
        }
    }
}

TEST_CASE("two threads give the same scores as libvmaf", "[golden][threads]")
{
    for (const auto &pair : {std::string("coffee_320x240_crf28"), std::string("rocket_320x240_10bit_crf30")}) {
        Diffs diffs;
        check_run(pair, kRuns[0], 2, diffs);
        REQUIRE(!diffs.empty());
    }
}
