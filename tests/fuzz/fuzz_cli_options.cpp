// SPDX-License-Identifier: BSD-2-Clause-Patent
// The vmaf command line (core/tools/options/cli_options.cpp, cli_presets.cpp):
// parse_options on a fuzzed argv, which takes in --feature, -m/--model,
// --aom_ctc/--nflx_ctc and every numeric option. The parser is called twice per
// input with different argument vectors, as a program that parses more than
// once would (getopt keeps state between calls).
//
// Input: one argument per line (argv[0] is "vmaf"); at most 64 arguments.
#include <string>
#include <vector>

#include "options/cli_options.h"
#include "fuzz_common.h"

namespace {

void parse(const std::vector<std::string> &args)
{
    // getopt may permute argv: give it copies it owns for this call only.
    std::vector<std::vector<char>> storage;
    std::vector<char *> argv;
    for (const std::string &a : args) {
        storage.emplace_back(a.begin(), a.end());
        storage.back().push_back('\0');
    }
    for (auto &s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);

    vmaf::cli::Options opt;
    std::string err;
    const int e = vmaf::cli::parse_options(int(args.size()), argv.data(), &opt, &err);
    if (e != 0 && err.empty()) fuzz::fail("parse_options failed without a message");
    if (e == 0 && !opt.show_help && !opt.show_version) {
        if (opt.ref_path.empty() || opt.dist_path.empty()) fuzz::fail("parse_options accepted no inputs");
        for (const auto &m : opt.models)
            if (m.path.empty() == m.version.empty() || m.name.empty()) fuzz::fail("parse_options accepted a bad model");
        for (const auto &f : opt.features)
            if (f.name.empty()) fuzz::fail("parse_options accepted an unnamed feature");
    }
    // Every parsed --feature argument, written out again, parses to the same.
    for (const auto &f : opt.features) {
        std::string text = f.name;
        for (size_t i = 0; i < f.opts.size(); i++)
            text += (i ? ":" : "=") + f.opts[i].first + "=" + f.opts[i].second;
        vmaf::cli::FeatureSpec again;
        if (vmaf::cli::parse_feature(text.c_str(), &again, &err) != 0 || again.name != f.name ||
            again.opts != f.opts)
            fuzz::fail("a parsed --feature does not parse again to the same");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    std::vector<std::string> args{"vmaf"};
    while (!in.empty() && args.size() < 65) args.emplace_back(in.line());
    parse(args);
    // The same arguments again, in reverse order: a second parse in one process.
    std::vector<std::string> rev{"vmaf"};
    rev.insert(rev.end(), args.rbegin(), args.rend() - 1);
    parse(rev);
    return 0;
}
