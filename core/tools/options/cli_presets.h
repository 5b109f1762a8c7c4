// SPDX-License-Identifier: BSD-2-Clause-Patent
// The --aom_ctc and --nflx_ctc presets: the models and features of the AOM and
// Netflix common test conditions, expanded as libvmaf's tools/cli_parse.c does.
#pragma once

#include <string>
#include <string_view>

#include "cli_options.h"

namespace vmaf::cli {

// Append preset `family` ("aom_ctc" or "nflx_ctc") at `version` ("v7.0") to
// *opt. Returns 0, or kExitUsage with the known versions in *err.
int apply_preset(std::string_view family, std::string_view version, Options *opt,
                 std::string *err);

// "v1.0, v2.0, ..." for --help and messages.
std::string preset_versions(std::string_view family);

}  // namespace vmaf::cli
