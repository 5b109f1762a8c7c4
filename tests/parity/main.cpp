// SPDX-License-Identifier: BSD-2-Clause-Patent
// The parity harness's main: Catch2's runner, or with --bench the throughput of
// each feature per path (parity.h), printed, not asserted:
//   test_parity --bench [FEATURE...] [--pair NAME] [--frames N] [--throughput]
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "parity.h"

namespace {

struct BenchArgs {
    std::vector<std::string> features;  // empty: every table
    std::string pair = "coffee_320x240_crf28";
    unsigned frames = 60;
    bool throughput = false;  // bench.h's run at 1080p and 2160p instead
} bench_args;

}  // namespace

// Hidden: run by --bench (its REQUIREs need a running test case).
TEST_CASE("parity bench: frames per second per feature and path", "[.][bench]")
{
    if (bench_args.throughput) CHECK(vmaf::test::parity::throughput(bench_args.features) == 0);
    else CHECK(vmaf::test::parity::bench(bench_args.features, bench_args.pair, bench_args.frames) == 0);
}

int main(int argc, char **argv)
{
    bool bench = false;
    for (int i = 1; i < argc; i++) bench |= std::strcmp(argv[i], "--bench") == 0;
    int rc;
    if (bench) {
        for (int i = 1; i < argc; i++) {
            if (std::strcmp(argv[i], "--bench") == 0) continue;
            if (std::strcmp(argv[i], "--pair") == 0 && i + 1 < argc) bench_args.pair = argv[++i];
            else if (std::strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
                bench_args.frames = unsigned(std::max(1, std::atoi(argv[++i])));
            else if (std::strcmp(argv[i], "--throughput") == 0) bench_args.throughput = true;
            else bench_args.features.push_back(argv[i]);
        }
        char bench_tag[] = "[bench]";
        char *run_args[] = {argv[0], bench_tag};
        rc = Catch::Session().run(2, run_args);
    } else {
        rc = Catch::Session().run(argc, argv);
    }
    vmaf::test::parity::release_shared();
    return rc;
}
