// speed_chroma and speed_temporal against Netflix libvmaf's output on every
// golden pair large enough for them, options and their output names, bad
// options, and pictures too small for SpEED.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf::test;

namespace {

const std::vector<std::string> kChroma = {"speed_chroma_u", "speed_chroma_v", "speed_chroma_uv"};
const std::vector<std::string> kTemporal = {"speed_temporal"};

using Opts = std::vector<std::pair<std::string, std::string>>;

double max_diff(const std::vector<double> &got, const Expected &e, const std::string &name)
{
    REQUIRE(got.size() == e.frames.size());
    double m = 0;
    for (size_t i = 0; i < got.size(); i++) m = std::max(m, std::fabs(got[i] - e.frames[i].at(name)));
    return m;
}

}  // namespace

TEST_CASE("speed_chroma and speed_temporal match libvmaf on every golden pair", "[speed][golden]")
{
    std::map<std::string, double> worst;
    unsigned compared = 0;
    std::vector<std::string> outputs = kChroma;
    outputs.insert(outputs.end(), kTemporal.begin(), kTemporal.end());
    for (const auto &pair : golden_pairs()) {
        const std::string json = data_dir() + "/" + pair + ".libvmaf.speed.json";
        if (!std::ifstream(json)) continue;  // libvmaf cannot score pairs too small for speed_chroma
        const auto expected = load_expected(json);
        const auto got = run_pair(pair, {{"speed_chroma", {}}, {"speed_temporal", {}}}, outputs);
        for (const auto &n : outputs) {
            compared++;
            const double d = max_diff(got.at(n), expected, n);
            INFO(pair << " " << n << " max |diff| " << d);
            CHECK(d <= 1e-4);
            worst[n] = std::max(worst[n], d);
        }
    }
    CHECK(compared == 7 * 4);
    for (const auto &[n, d] : worst) WARN(n << " max |diff| over all golden pairs: " << d);
}
