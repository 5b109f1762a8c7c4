// SPDX-License-Identifier: BSD-2-Clause-Patent
// Test helper: the VMAF v1 models (vmaf_v1.0.16_*) on a golden pair through the
// public C API, compared with Netflix libvmaf's JSON for the same pair and model
// (NAME.libvmaf.v1_MODEL.json) to the bit; or, where libvmaf fails, what this
// library reports instead.
#pragma once

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "context/context.h"
#include "golden.h"
#include "stderr_capture.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/model.h"

namespace vmaf::test {

// The four models, as upstream names them, and the suffix of their golden files.
struct V1Model {
    const char *version;
    const char *golden;  // NAME + golden = libvmaf's output
};
inline const V1Model kV1Models[] = {
    {"vmaf_v1.0.16_3d0h", ".libvmaf.v1_3d0h.json"},
    {"vmaf_v1.0.16_5d0h", ".libvmaf.v1_5d0h.json"},
    {"vmaf_v1.0.16_3d0h_2160", ".libvmaf.v1_3d0h_2160.json"},
    {"vmaf_v1.0.16_1d5h_2160", ".libvmaf.v1_1d5h_2160.json"},
};
// Their high-frame-rate variants (motion3 over a five-frame window, averaged).
inline const V1Model kV1HfrModels[] = {
    {"vmaf_v1.0.16_hfr_3d0h", ".libvmaf.v1_hfr_3d0h.json"},
    {"vmaf_v1.0.16_hfr_5d0h", ".libvmaf.v1_hfr_5d0h.json"},
    {"vmaf_v1.0.16_hfr_3d0h_2160", ".libvmaf.v1_hfr_3d0h_2160.json"},
    {"vmaf_v1.0.16_hfr_1d5h_2160", ".libvmaf.v1_hfr_1d5h_2160.json"},
};


struct V1Run {
    int err = 0;           // the first error of the run (0: every frame scored)
    std::string log;       // what the library logged
    unsigned outputs = 0;  // per-frame outputs compared
    unsigned values = 0;   // values compared (per frame and pooled)
    double max_diff = 0;   // largest |ours - libvmaf| over them
    bool gpu_engine = false;
};

// Scores `pair` with `version` (features from the pictures, model by name). With
// `setup`, the context is given to it first (to import a Vulkan state), and to
// `inspect` once the frames are scored. When
// `golden` exists, every per-frame value libvmaf printed and the pooled model
// score (min, max, mean, harmonic mean) are compared with it, each CHECKed equal.
// `n_threads`: the context's (VmafConfiguration::n_threads).
inline V1Run run_v1(const std::string &pair, const V1Model &model,
                    const std::function<void(VmafContext *)> &setup = {},
                    const std::function<void(VmafContext *)> &inspect = {}, unsigned n_threads = 0)
{
    V1Run r;
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    REQUIRE(ref.size() == dis.size());
    const std::string golden = data_dir() + "/" + pair + model.golden;
    const bool have_golden = std::filesystem::exists(golden);

    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    cfg.n_threads = n_threads;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    if (setup) setup(vmaf);
    VmafModelConfig mcfg{};
    mcfg.name = "vmaf";
    VmafModel *m = nullptr;
    REQUIRE(vmaf_model_load(&m, &mcfg, model.version) == 0);
    REQUIRE(vmaf_use_features_from_model(vmaf, m) == 0);

    const unsigned last = unsigned(ref.size()) - 1;
    {
        StderrCapture cap;
        for (unsigned i = 0; i < ref.size() && !r.err; i++) r.err = vmaf_read_pictures(vmaf, &ref[i], &dis[i], i);
        if (!r.err) r.err = vmaf_read_pictures(vmaf, nullptr, nullptr, 0);
        double s = 0;
        if (!r.err) r.err = vmaf_score_pooled(vmaf, m, VMAF_POOL_METHOD_MEAN, &s, 0, last);
        r.log = cap.text();
    }
    r.gpu_engine = vmaf->ctx.vulkan_engine() != nullptr;
    if (inspect) inspect(vmaf);

    if (!r.err && have_golden) {
        const Expected exp = load_expected(golden);
        REQUIRE(exp.frames.size() == ref.size());
        const char *methods[] = {"min", "max", "mean", "harmonic_mean"};
        const VmafPoolingMethod ids[] = {VMAF_POOL_METHOD_MIN, VMAF_POOL_METHOD_MAX, VMAF_POOL_METHOD_MEAN,
                                         VMAF_POOL_METHOD_HARMONIC_MEAN};
        for (int k = 0; k < 4; k++) {
            double got = 0;
            REQUIRE(vmaf_score_pooled(vmaf, m, ids[k], &got, 0, last) == 0);
            const double want = exp.pooled.at("vmaf").at(methods[k]);
            INFO(pair << " " << model.version << " pooled vmaf " << methods[k]);
            CHECK(got == want);
            r.max_diff = std::max(r.max_diff, std::fabs(got - want));
            r.values++;
        }
        r.outputs = unsigned(exp.frames[0].size());
        for (unsigned i = 0; i < ref.size(); i++) {
            REQUIRE(exp.frames[i].size() == r.outputs);
            for (const auto &[name, want] : exp.frames[i]) {
                double got = 0;
                INFO(pair << " " << model.version << " " << name << " frame " << i);
                REQUIRE(vmaf_feature_score_at_index(vmaf, name.c_str(), &got, i) == 0);
                REQUIRE(std::isfinite(want));
                CHECK(got == want);
                r.max_diff = std::max(r.max_diff, std::fabs(got - want));
                r.values++;
            }
        }
    }
    vmaf_close(vmaf);
    vmaf_model_destroy(m);
    unref_all(ref);
    unref_all(dis);
    return r;
}

// Whether libvmaf has output for `pair` with any v1 model (it has none for
// pairs whose frames are too small for cambi).
inline bool libvmaf_scores_v1(const std::string &pair)
{
    for (const V1Model &m : kV1Models)
        if (std::filesystem::exists(data_dir() + "/" + pair + m.golden)) return true;
    return false;
}

}  // namespace vmaf::test
