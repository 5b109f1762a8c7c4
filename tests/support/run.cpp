// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "run.h"

#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "golden.h"
#include "libvmaf/libvmaf.h"

namespace vmaf::test {

VmafFeatureDictionary *feature_dictionary(const ApiOptions &opts)
{
    VmafFeatureDictionary *d = nullptr;
    for (const auto &[k, v] : opts) REQUIRE(vmaf_feature_dictionary_set(&d, k.c_str(), v.c_str()) == 0);
    return d;
}

int open_quiet(VmafContext **vmaf, const char *feature, const ApiOptions &opts)
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    REQUIRE(vmaf_init(vmaf, cfg) == 0);
    return vmaf_use_feature(*vmaf, feature, feature_dictionary(opts));
}

int use_with(const char *feature, const ApiOptions &opts)
{
    VmafContext *vmaf = nullptr;
    const int err = open_quiet(&vmaf, feature, opts);
    vmaf_close(vmaf);
    return err;
}

std::map<std::string, std::vector<double>> run_pair(const std::string &pair,
                                                    const std::vector<FeatureRequest> &features,
                                                    const std::vector<std::string> &outputs,
                                                    unsigned n_threads)
{
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    REQUIRE(ref.size() == dis.size());
    REQUIRE(!ref.empty());

    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    cfg.n_threads = n_threads;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    for (const auto &f : features) REQUIRE(vmaf_use_feature(vmaf, f.name.c_str(), feature_dictionary(f.opts)) == 0);
    for (unsigned i = 0; i < ref.size(); i++) REQUIRE(vmaf_read_pictures(vmaf, &ref[i], &dis[i], i) == 0);
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);

    std::map<std::string, std::vector<double>> out;
    for (const auto &name : outputs) {
        for (unsigned i = 0; i < ref.size(); i++) {
            double v = 0;
            INFO(pair << " " << name << " frame " << i);
            REQUIRE(vmaf_feature_score_at_index(vmaf, name.c_str(), &v, i) == 0);
            out[name].push_back(v);
        }
    }
    vmaf_close(vmaf);
    return out;
}

double max_frame_diff(const std::vector<double> &got, const Expected &e, const std::string &name)
{
    REQUIRE(got.size() == e.frames.size());
    double m = 0;
    for (size_t i = 0; i < got.size(); i++) m = std::max(m, std::fabs(got[i] - e.frames[i].at(name)));
    return m;
}

}  // namespace vmaf::test
