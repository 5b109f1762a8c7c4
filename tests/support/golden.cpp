// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "golden.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "io/video_reader.h"
#include "picture/picture.h"

#ifndef VMAF_TEST_DATA_DIR
#error "VMAF_TEST_DATA_DIR must be defined by the build"
#endif

namespace vmaf::test {

std::string data_dir()
{
    // The environment wins, so built tests can run from another checkout.
    const char *env = std::getenv("VMAF_TEST_DATA_DIR");
    return env && *env ? env : VMAF_TEST_DATA_DIR;
}

bool golden_subset()
{
    const char *subset = std::getenv("VMAF_TEST_GOLDEN_PAIRS");
    return subset && *subset;
}

std::vector<std::string> golden_pairs()
{
    std::vector<std::string> names;
    if (golden_subset()) {
        // A named subset, each checked to be there: a misspelt name fails the
        // run instead of shrinking it.
        const std::string list = std::getenv("VMAF_TEST_GOLDEN_PAIRS");
        for (size_t at = 0; at <= list.size();) {
            const size_t end = std::min(list.find(',', at), list.size());
            const std::string name = list.substr(at, end - at);
            at = end + 1;
            if (name.empty()) continue;
            if (!std::filesystem::exists(data_dir() + "/" + name + ".libvmaf.json"))
                throw std::runtime_error("VMAF_TEST_GOLDEN_PAIRS: no golden pair " + name);
            names.push_back(name);
        }
        if (names.empty()) throw std::runtime_error("VMAF_TEST_GOLDEN_PAIRS names no pair");
        return names;
    }
    const std::string suffix = ".libvmaf.json";
    for (const auto &e : std::filesystem::directory_iterator(data_dir())) {
        const std::string f = e.path().filename().string();
        if (f.size() > suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0)
            names.push_back(f.substr(0, f.size() - suffix.size()));
    }
    std::sort(names.begin(), names.end());
    return names;
}

namespace {

// libvmaf writes null for a score that is not finite.
double number(const nlohmann::json &v)
{
    return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

}  // namespace

Expected load_expected(const std::string &json_path)
{
    std::ifstream in(json_path);
    if (!in) throw std::runtime_error("cannot open " + json_path);
    const auto j = nlohmann::json::parse(in);
    Expected e;
    for (const auto &fr : j.at("frames")) {
        std::map<std::string, double> m;
        for (const auto &[k, v] : fr.at("metrics").items()) m[k] = number(v);
        e.frames.push_back(std::move(m));
    }
    if (j.contains("pooled_metrics"))
        for (const auto &[name, methods] : j.at("pooled_metrics").items())
            for (const auto &[method, v] : methods.items()) e.pooled[name][method] = number(v);
    return e;
}

std::vector<VmafPicture> load_y4m(const std::string &path)
{
    std::unique_ptr<io::VideoReader> r;
    std::string err;
    if (io::VideoReader::open_y4m(path, &r, &err)) throw std::runtime_error(err);
    std::vector<VmafPicture> pics;
    for (;;) {
        VmafPicture pic;
        const auto &f = r->format();
        if (picture_alloc(&pic, f.pix_fmt, f.bpc, f.w, f.h)) throw std::runtime_error("alloc");
        const int ret = r->read(&pic, &err);
        if (ret <= 0) {
            vmaf_picture_unref(&pic);
            if (ret < 0) throw std::runtime_error(err);
            break;
        }
        pics.push_back(pic);
    }
    return pics;
}

void unref_all(std::vector<VmafPicture> &pics)
{
    for (auto &p : pics) vmaf_picture_unref(&p);
    pics.clear();
}

}  // namespace vmaf::test
