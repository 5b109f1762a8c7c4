// SPDX-License-Identifier: BSD-2-Clause-Patent
// Several contexts used from several threads at once, each with its own frame
// threads: every context's scores equal a lone single-threaded context's,
// bit for bit. Also built under ThreadSanitizer (scripts/tsan.sh).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <thread>
#include <vector>

#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/model.h"
#include "picture/picture.h"

using namespace vmaf::test;

namespace {

using Scores = std::map<std::string, std::vector<double>>;

const char *const kNames[] = {"vmaf", "psnr_y", "psnr_cb", "integer_vif_scale0", "integer_adm2",
                              "integer_motion2"};

// One context over the pair's pictures (shared, read-only, referenced per
// call) into *out. No Catch assertions: it runs on worker threads too.
int score(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dis, unsigned threads, Scores *out)
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    cfg.n_threads = threads;
    VmafContext *vmaf = nullptr;
    if (int err = vmaf_init(&vmaf, cfg)) return err;
    VmafModelConfig mcfg{};
    mcfg.name = "vmaf";
    VmafModel *model = nullptr;
    int err = vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1");
    if (!err) err = vmaf_use_features_from_model(vmaf, model);
    if (!err) err = vmaf_use_feature(vmaf, "psnr", nullptr);
    for (unsigned i = 0; !err && i < ref.size(); i++) {
        VmafPicture a, b;
        vmaf::picture_ref(&a, &ref[i]);
        vmaf::picture_ref(&b, &dis[i]);
        err = vmaf_read_pictures(vmaf, &a, &b, i);
    }
    if (!err) err = vmaf_read_pictures(vmaf, nullptr, nullptr, 0);
    for (unsigned i = 0; !err && i < ref.size(); i++) {
        double v = 0;
        err = vmaf_score_at_index(vmaf, model, &v, i);
        (*out)["vmaf"].push_back(v);
        for (const char *n : kNames) {
            if (err || std::string(n) == "vmaf") continue;
            err = vmaf_feature_score_at_index(vmaf, n, &v, i);
            (*out)[n].push_back(v);
        }
    }
    vmaf_close(vmaf);
    if (model) vmaf_model_destroy(model);
    return err;
}

}  // namespace

TEST_CASE("contexts on several threads at once score as one context alone", "[threads]")
{
    auto ref = load_y4m(data_dir() + "/coffee_320x240_crf28_ref.y4m");
    auto dis = load_y4m(data_dir() + "/coffee_320x240_crf28_dis.y4m");
    Scores want;
    REQUIRE(score(ref, dis, 0, &want) == 0);
    REQUIRE(want.at("vmaf").size() == ref.size());

    constexpr unsigned kContexts = 4;
    std::vector<Scores> got(kContexts);
    std::vector<int> err(kContexts, -1);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < kContexts; t++)  // with and without frame threads
        threads.emplace_back([&, t] { err[t] = score(ref, dis, t % 2 ? 2 : 0, &got[t]); });
    for (auto &th : threads) th.join();
    for (unsigned t = 0; t < kContexts; t++) {
        INFO("context " << t);
        REQUIRE(err[t] == 0);
        CHECK(got[t] == want);
    }
    unref_all(ref);
    unref_all(dis);
}
