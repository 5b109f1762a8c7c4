// End-to-end parity through the public C API: every golden pair, every model
// libvmaf was run with, features computed here from the pictures (not taken
// from libvmaf's output), compared with Netflix libvmaf's JSON: every per-frame
// feature it printed that this library computes, the VMAF score, the bootstrap
// statistics, and the pooled VMAF.
#include <cmath>
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

// libvmaf's floating-point and other extractors the golden runs also printed;
// this library computes the integer ones.
const std::set<std::string> kNotComputedHere = {
    "float_ssim", "float_ms_ssim", "cambi", "vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3",
    "adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3",
    "motion", "motion2", "motion3",
};

constexpr double kTolerance = 1e-4;  // the bound; integer features are in fact exact

struct Run {
    std::string json;     // expected output, relative to the data directory
    std::string version;  // model version
    bool collection;
    bool psnr;            // libvmaf ran --feature psnr
};

const Run kRuns[] = {
    {".libvmaf.json", "vmaf_v0.6.1", false, true},
    {".libvmaf.vmaf_v0.6.1neg.json", "vmaf_v0.6.1neg", false, false},
    {".libvmaf.vmaf_4k_v0.6.1.json", "vmaf_4k_v0.6.1", false, false},
    {".libvmaf.vmaf_b_v0.6.3.json", "vmaf_b_v0.6.3", true, false},
};

// name -> max |diff| over the frames of one run.
using Diffs = std::map<std::string, double>;

void check_run(const std::string &pair, const Run &run, unsigned n_threads, Diffs &diffs)
{
    const std::string json = data_dir() + "/" + pair + run.json;
    if (!std::filesystem::exists(json)) return;  // e.g. no bootstrap run for 4:2:2 pairs
    const Expected exp = load_expected(json);
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    REQUIRE(ref.size() == exp.frames.size());
    REQUIRE(dis.size() == ref.size());

    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    cfg.n_threads = n_threads;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    VmafModelConfig mcfg{};
    mcfg.name = "vmaf";
    VmafModel *model = nullptr;
    VmafModelCollection *collection = nullptr;
    if (run.collection) {
        REQUIRE(vmaf_model_collection_load(&model, &collection, &mcfg, run.version.c_str()) == 0);
        REQUIRE(vmaf_use_features_from_model_collection(vmaf, collection) == 0);
    }
    else {
        REQUIRE(vmaf_model_load(&model, &mcfg, run.version.c_str()) == 0);
    }
    REQUIRE(vmaf_use_features_from_model(vmaf, model) == 0);
    if (run.psnr) REQUIRE(vmaf_use_feature(vmaf, "psnr", nullptr) == 0);

    for (unsigned i = 0; i < ref.size(); i++) REQUIRE(vmaf_read_pictures(vmaf, &ref[i], &dis[i], i) == 0);
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    const unsigned last = unsigned(ref.size()) - 1;

    double pooled = 0;
    REQUIRE(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &pooled, 0, last) == 0);
    if (collection) {
        VmafModelCollectionScore s{};
        REQUIRE(vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_MEAN, &s, 0, last) == 0);
        REQUIRE(s.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
        const double want = exp.pooled.at("vmaf_bagging").at("mean");
        CHECK(std::abs(s.bootstrap.bagging_score - want) <= kTolerance);
    }

    for (unsigned i = 0; i < ref.size(); i++) {
        for (const auto &[name, want] : exp.frames[i]) {
            if (kNotComputedHere.count(name)) continue;
            double got = 0;
            INFO(pair << run.json << " " << name << " frame " << i << " threads " << n_threads);
            REQUIRE(vmaf_feature_score_at_index(vmaf, name.c_str(), &got, i) == 0);
            const double d = std::abs(got - want);
            CHECK(d <= kTolerance);
            double &m = diffs[name];
            if (d > m) m = d;
        }
    }
    const char *methods[] = {"min", "max", "mean", "harmonic_mean"};
    const VmafPoolingMethod ids[] = {VMAF_POOL_METHOD_MIN, VMAF_POOL_METHOD_MAX, VMAF_POOL_METHOD_MEAN,
                                     VMAF_POOL_METHOD_HARMONIC_MEAN};
    for (int k = 0; k < 4; k++) {
        double got = 0;
        REQUIRE(vmaf_score_pooled(vmaf, model, ids[k], &got, 0, last) == 0);
        const double want = exp.pooled.at("vmaf").at(methods[k]);
        INFO(pair << run.json << " pooled " << methods[k]);
        CHECK(std::abs(got - want) <= kTolerance);
        double &m = diffs[std::string("pooled vmaf ") + methods[k]];
        m = std::max(m, std::abs(got - want));
    }

    vmaf_close(vmaf);
    vmaf_model_destroy(model);
    if (collection) vmaf_model_collection_destroy(collection);
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
    REQUIRE(pairs.size() >= 10);
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
