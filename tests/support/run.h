// SPDX-License-Identifier: BSD-2-Clause-Patent
// Test helper: score a golden pair through the public C API.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "golden.h"
#include "libvmaf/libvmaf.h"

namespace vmaf::test {

// A feature's options, by name, for the public API.
using ApiOptions = std::vector<std::pair<std::string, std::string>>;

struct FeatureRequest {
    std::string name;  // "psnr", "motion", ...
    ApiOptions opts;
};

// A feature dictionary of `opts` (REQUIREs that each is set); null when empty.
VmafFeatureDictionary *feature_dictionary(const ApiOptions &opts);

// Opens *vmaf, a context that logs nothing, and requests `feature` with `opts`;
// returns vmaf_use_feature's result. The context is open either way: the
// caller closes it.
int open_quiet(VmafContext **vmaf, const char *feature, const ApiOptions &opts);

// vmaf_use_feature's result for `feature` with `opts`, on a fresh quiet context.
int use_with(const char *feature, const ApiOptions &opts);

// Runs `features` over every frame of NAME_ref/NAME_dis with `n_threads`, flushes,
// and returns each requested output name's per-frame scores. Fails the current
// test (REQUIRE) on any API error.
std::map<std::string, std::vector<double>> run_pair(const std::string &pair,
                                                    const std::vector<FeatureRequest> &features,
                                                    const std::vector<std::string> &outputs,
                                                    unsigned n_threads = 1);

// Max |got[i] - e.frames[i][name]| over the frames of one pair (REQUIREs that
// the frame counts agree).
double max_frame_diff(const std::vector<double> &got, const Expected &e, const std::string &name);

}  // namespace vmaf::test
