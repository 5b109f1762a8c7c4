// SPDX-License-Identifier: BSD-2-Clause-Patent
// Test helpers: golden clip pairs and libvmaf's expected outputs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "libvmaf/picture.h"

namespace vmaf::test {

// Directory holding the golden pairs (meson option test_data_dir, or tests/data).
std::string data_dir();

// The names of all golden pairs ("coffee_320x240_crf28", ...), or of those that
// VMAF_TEST_GOLDEN_PAIRS lists (comma-separated; scripts/test.sh's sanitizer pass
// gives its Vulkan tests one pair of each format and depth so: tests/meson.build).
std::vector<std::string> golden_pairs();
// Whether VMAF_TEST_GOLDEN_PAIRS picks a subset.
bool golden_subset();

// Per-frame metrics of a libvmaf JSON output: frames[i][name] = value (NaN
// where libvmaf wrote null: a score that is not finite).
struct Expected {
    std::vector<std::map<std::string, double>> frames;
    std::map<std::string, std::map<std::string, double>> pooled;  // name -> method -> value
};
Expected load_expected(const std::string &json_path);

// Read every frame of a .y4m file into allocated pictures (caller unrefs).
std::vector<VmafPicture> load_y4m(const std::string &path);
void unref_all(std::vector<VmafPicture> &pics);

}  // namespace vmaf::test
