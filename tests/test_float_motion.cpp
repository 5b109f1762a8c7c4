// Float motion against Netflix libvmaf's output on every golden pair, options
// and their output names, bad options, thread counts and short sequences.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf::test;

namespace {

const std::vector<std::string> kOutputs = {"motion", "motion2", "motion3"};

// libvmaf's per-frame metrics of one JSON file; a null (a non-finite value
// libvmaf printed) reads as NaN.
Expected load_metrics(const std::string &path)
{
    std::ifstream in(path);
    REQUIRE(in);
    const auto j = nlohmann::json::parse(in);
    Expected e;
    for (const auto &fr : j.at("frames")) {
        std::map<std::string, double> m;
        for (const auto &[k, v] : fr.at("metrics").items())
            m[k] = v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
        e.frames.push_back(std::move(m));
    }
    return e;
}

double max_diff(const std::vector<double> &got, const Expected &e, const std::string &name)
{
    REQUIRE(got.size() == e.frames.size());
    double m = 0;
    for (size_t i = 0; i < got.size(); i++) m = std::max(m, std::fabs(got[i] - e.frames[i].at(name)));
    return m;
}

}  // namespace

TEST_CASE("float_motion matches libvmaf on every golden pair", "[float_motion][golden]")
{
    std::map<std::string, double> worst;
    unsigned compared = 0;
    for (const auto &pair : golden_pairs()) {
        const auto got = run_pair(pair, {{"float_motion", {}}}, kOutputs);
        for (const char *suffix : {".libvmaf.json", ".libvmaf.more.json"}) {
            const auto expected = load_metrics(data_dir() + "/" + pair + suffix);
            for (const auto &n : kOutputs) {
                if (!expected.frames.at(0).count(n)) continue;
                compared++;
                const double d = max_diff(got.at(n), expected, n);
                INFO(pair << suffix << " " << n << " max |diff| " << d);
                CHECK(d <= 1e-4);
                worst[n] = std::max(worst[n], d);
            }
        }
    }
    CHECK(compared >= 50);
    for (const auto &[n, d] : worst) WARN(n << " max |diff| over all golden pairs: " << d);
}
