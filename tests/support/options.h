// SPDX-License-Identifier: BSD-2-Clause-Patent
// Test helper: an extractor's options parsed from a dictionary.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "feature/extractor.h"
#include "feature/options.h"

namespace vmaf::test {

// `d` parsed against `info`'s option table (a REQUIRE of the calling test).
inline FeatureOptions options_for(const ExtractorInfo &info, const Dict &d = {})
{
    FeatureOptions o;
    std::string err;
    const int rc = FeatureOptions::parse(info.options, d, &o, &err);
    INFO(info.name << ": " << err);
    REQUIRE(rc == 0);
    return o;
}

}  // namespace vmaf::test
