// SPDX-License-Identifier: BSD-2-Clause-Patent
// Replays fuzz inputs through one target's LLVMFuzzerTestOneInput, for builds
// without libFuzzer: every file named, and every file in each directory named
// (sorted, not recursive). The corpus is thereby a regression suite in every
// build; a crash or a sanitizer report fails the test.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_common.h"

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; i++) {
        const fs::path p(argv[i]);
        if (fs::is_directory(p)) {
            std::vector<fs::path> dir;
            for (const auto &e : fs::directory_iterator(p))
                if (e.is_regular_file()) dir.push_back(e.path());
            std::sort(dir.begin(), dir.end());
            inputs.insert(inputs.end(), dir.begin(), dir.end());
        } else {
            inputs.push_back(p);
        }
    }
    if (inputs.empty()) {
        std::fprintf(stderr, "%s: no inputs (give corpus files or directories)\n", argv[0]);
        return 1;
    }
    for (const fs::path &p : inputs) {
        std::ifstream in(p, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "%s: cannot read %s\n", argv[0], p.c_str());
            return 1;
        }
        const std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.data()), data.size());
    }
    std::printf("%s: %zu inputs replayed\n", argv[0], inputs.size());
    return 0;
}
