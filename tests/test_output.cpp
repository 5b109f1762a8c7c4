// SPDX-License-Identifier: BSD-2-Clause-Patent
// The output writers: the exact text of each format for a hand-filled collector
// (layouts as libvmaf 3.x writes them), number formatting, subsampling, missing
// and non-finite values, empty collectors; every JSON document must parse.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "context/collector.h"
#include "output/score_table.h"
#include "output/writer.h"

namespace {

using vmaf::FeatureCollector;
using vmaf::OutputInfo;

// A stand-in for pooling with known results (min = x+1, max = x+2, mean = x+3,
// harmonic_mean = x+4 for a feature listed with x), so that the text can be
// checked independently of how pooling is computed.
OutputInfo make_info(std::map<std::string, double> pooled = {})
{
    OutputInfo info;
    info.version = "3.0.0-test";
    info.fps = 25.0;
    info.width = 176;
    info.height = 144;
    info.pool = [pooled](const std::string &name, VmafPoolingMethod m, double *v) {
        const auto it = pooled.find(name);
        if (it == pooled.end()) return -ENOENT;
        *v = it->second + int(m);
        return 0;
    };
    return info;
}

// Two features on two frames and one aggregate; the second vmaf value is small
// enough to take libvmaf's sixteen-decimal form.
void fill_two_frames(FeatureCollector &fc)
{
    REQUIRE(fc.set("integer_adm2", 0, 0.95) == 0);
    REQUIRE(fc.set("vmaf", 0, 76.5) == 0);
    REQUIRE(fc.set("integer_adm2", 1, 1.0) == 0);
    REQUIRE(fc.set("vmaf", 1, 0.00000012) == 0);
    REQUIRE(fc.set_aggregate("float_ms_ssim", 0.5) == 0);
}

const std::map<std::string, double> kPooled = {{"integer_adm2", 0.0}, {"vmaf", 10.0}};

std::string render(VmafOutputFormat fmt, const FeatureCollector &fc, const OutputInfo &info)
{
    return vmaf::render_output(fmt, fc, info);
}

nlohmann::json parse(const std::string &doc)
{
    nlohmann::json j;
    REQUIRE_NOTHROW(j = nlohmann::json::parse(doc));
    return j;
}

}  // namespace

TEST_CASE("scores print with six decimals, or sixteen after six leading zeros", "[output]")
{
    using vmaf::output::format_score;
    CHECK(format_score(0.0) == "0.000000");
    CHECK(format_score(76.5) == "76.500000");
    CHECK(format_score(-3.25) == "-3.250000");
    CHECK(format_score(0.0000012) == "0.000001");             // six zeros: still six decimals
    CHECK(format_score(0.00000012) == "0.0000001200000000");  // seven zeros
    CHECK(format_score(-0.00000012) == "-0.0000001200000000");
    CHECK(format_score(12.00000001) == "12.0000000100000008");  // the fractional part decides
    CHECK(format_score(5e-7) == "0.0000005000000000");
    CHECK(format_score(std::numeric_limits<double>::infinity()) == "inf");
}

TEST_CASE("JSON has libvmaf's layout", "[output]")
{
    FeatureCollector fc;
    fill_two_frames(fc);
    const std::string expected =
        "{\n"
        "  \"version\": \"3.0.0-test\",\n"
        "  \"fps\": 25.00,\n"
        "  \"frames\": [\n"
        "    {\n"
        "      \"frameNum\": 0,\n"
        "      \"metrics\": {\n"
        "        \"integer_adm2\": 0.950000,\n"
        "        \"vmaf\": 76.500000\n"
        "      }\n"
        "    },\n"
        "    {\n"
        "      \"frameNum\": 1,\n"
        "      \"metrics\": {\n"
        "        \"integer_adm2\": 1.000000,\n"
        "        \"vmaf\": 0.0000001200000000\n"
        "      }\n"
        "    }\n"
        "  ],\n"
        "  \"pooled_metrics\": {\n"
        "    \"integer_adm2\": {\n"
        "      \"min\": 1.000000,\n"
        "      \"max\": 2.000000,\n"
        "      \"mean\": 3.000000,\n"
        "      \"harmonic_mean\": 4.000000\n"
        "    },\n"
        "    \"vmaf\": {\n"
        "      \"min\": 11.000000,\n"
        "      \"max\": 12.000000,\n"
        "      \"mean\": 13.000000,\n"
        "      \"harmonic_mean\": 14.000000\n"
        "    }\n"
        "  },\n"
        "  \"aggregate_metrics\": {\n"
        "    \"float_ms_ssim\": 0.500000\n"
        "  }\n"
        "}\n";
    const std::string doc = render(VMAF_OUTPUT_FORMAT_JSON, fc, make_info(kPooled));
    CHECK(doc == expected);

    const auto j = parse(doc);
    CHECK(j["frames"].size() == 2);
    CHECK(j["frames"][1]["frameNum"] == 1);
    CHECK(j["frames"][0]["metrics"]["vmaf"].get<double>() == 76.5);
    CHECK(j["frames"][1]["metrics"]["vmaf"].get<double>() == 0.00000012);
    CHECK(j["pooled_metrics"]["vmaf"]["harmonic_mean"].get<double>() == 14.0);
    CHECK(j["aggregate_metrics"]["float_ms_ssim"].get<double>() == 0.5);
}

TEST_CASE("XML has libvmaf's layout", "[output]")
{
    FeatureCollector fc;
    fill_two_frames(fc);
    const std::string expected =
        "<VMAF version=\"3.0.0-test\">\n"
        "  <params qualityWidth=\"176\" qualityHeight=\"144\" />\n"
        "  <fyi fps=\"25.00\" />\n"
        "  <frames>\n"
        "    <frame frameNum=\"0\" integer_adm2=\"0.950000\" vmaf=\"76.500000\" />\n"
        "    <frame frameNum=\"1\" integer_adm2=\"1.000000\" vmaf=\"0.0000001200000000\" />\n"
        "  </frames>\n"
        "  <pooled_metrics>\n"
        "    <metric name=\"integer_adm2\" min=\"1.000000\" max=\"2.000000\" mean=\"3.000000\" "
        "harmonic_mean=\"4.000000\" />\n"
        "    <metric name=\"vmaf\" min=\"11.000000\" max=\"12.000000\" mean=\"13.000000\" "
        "harmonic_mean=\"14.000000\" />\n"
        "  </pooled_metrics>\n"
        "  <aggregate_metrics float_ms_ssim=\"0.500000\" />\n"
        "</VMAF>\n";
    CHECK(render(VMAF_OUTPUT_FORMAT_XML, fc, make_info(kPooled)) == expected);
}

TEST_CASE("CSV and subtitles have libvmaf's layout", "[output]")
{
    FeatureCollector fc;
    fill_two_frames(fc);
    CHECK(render(VMAF_OUTPUT_FORMAT_CSV, fc, make_info(kPooled)) ==
          "Frame,integer_adm2,vmaf,\n"
          "0,0.950000,76.500000,\n"
          "1,1.000000,0.0000001200000000,\n");
    CHECK(render(VMAF_OUTPUT_FORMAT_SUB, fc, make_info(kPooled)) ==
          "{0}{1}frame: 0|integer_adm2: 0.950000|vmaf: 76.500000|\n"
          "{1}{2}frame: 1|integer_adm2: 1.000000|vmaf: 0.0000001200000000|\n");
}

TEST_CASE("empty collectors give valid empty documents", "[output]")
{
    FeatureCollector fc;
    OutputInfo info = make_info();
    info.fps = std::nan("");  // nothing was timed
    const std::string json = render(VMAF_OUTPUT_FORMAT_JSON, fc, info);
    CHECK(json ==
          "{\n"
          "  \"version\": \"3.0.0-test\",\n"
          "  \"fps\": null,\n"
          "  \"frames\": [\n"
          "  ],\n"
          "  \"pooled_metrics\": {\n"
          "  },\n"
          "  \"aggregate_metrics\": {\n"
          "  }\n"
          "}\n");
    const auto j = parse(json);
    CHECK(j["frames"].empty());
    CHECK(j["fps"].is_null());

    info.fps = 0.0;
    CHECK(render(VMAF_OUTPUT_FORMAT_XML, fc, info) ==
          "<VMAF version=\"3.0.0-test\">\n"
          "  <params qualityWidth=\"176\" qualityHeight=\"144\" />\n"
          "  <fyi fps=\"0.00\" />\n"
          "  <frames>\n"
          "  </frames>\n"
          "  <pooled_metrics>\n"
          "  </pooled_metrics>\n"
          "  <aggregate_metrics />\n"
          "</VMAF>\n");
    CHECK(render(VMAF_OUTPUT_FORMAT_CSV, fc, info) == "Frame,\n");
    CHECK(render(VMAF_OUTPUT_FORMAT_SUB, fc, info) == "");
}

TEST_CASE("subsampled-out frames are not listed", "[output]")
{
    // As with motion under --subsample: a temporal feature has every frame, the
    // others only the computed ones.
    FeatureCollector fc;
    for (unsigned i = 0; i < 5; i++) {
        REQUIRE(fc.set("integer_motion2", i, double(i)) == 0);
        if (i % 2 == 0) REQUIRE(fc.set("vmaf", i, 50.0 + i) == 0);
    }
    OutputInfo info = make_info();
    info.subsample = 2;
    CHECK(render(VMAF_OUTPUT_FORMAT_CSV, fc, info) ==
          "Frame,integer_motion2,vmaf,\n"
          "0,0.000000,50.000000,\n"
          "2,2.000000,52.000000,\n"
          "4,4.000000,54.000000,\n");
    const auto j = parse(render(VMAF_OUTPUT_FORMAT_JSON, fc, info));
    REQUIRE(j["frames"].size() == 3);
    CHECK(j["frames"][2]["frameNum"] == 4);
}

TEST_CASE("names are listed as a run on one thread writes them, whatever the order of the writes",
          "[output]")
{
    // Three features as a context ranks them (CollectorSink): T first on each
    // frame (a temporal one, which also writes t_late of the previous frame one
    // call late), then A, then B; writes made in no call (a model score, an
    // imported score) come last. Here the writes come in another order: later
    // frames and the flush first, frame 0 on another thread.
    FeatureCollector fc;
    vmaf::CollectorSink t(fc, {}, "", 0), a(fc, {}, "", 1), b(fc, {}, "", 2);
    REQUIRE(fc.set("vmaf", 0, 70.0) == 0);
    REQUIRE(fc.set_aggregate("imported", 3.0) == 0);
    {
        const vmaf::CallScope call(vmaf::OrderKey::kFlush);
        REQUIRE(b.set_aggregate("agg_b", 2.0) == 0);
        REQUIRE(a.append("a_flush", 0, 1.0) == 0);
        REQUIRE(a.set_aggregate("agg_a", 1.0) == 0);
    }
    {
        const vmaf::CallScope call(1);
        REQUIRE(b.append("b", 1, 1.0) == 0);
        REQUIRE(a.append("a1", 1, 1.0) == 0);
        REQUIRE(a.append("a2", 1, 1.0) == 0);
        REQUIRE(t.append("t", 1, 1.0) == 0);
        REQUIRE(t.append("t_late", 0, 1.0) == 0);
    }
    std::thread([&] {
        const vmaf::CallScope call(0);
        REQUIRE(b.append("b", 0, 0.0) == 0);
        REQUIRE(a.append("a1", 0, 0.0) == 0);
        REQUIRE(a.append("a2", 0, 0.0) == 0);
        REQUIRE(t.append("t", 0, 0.0) == 0);
    }).join();
    REQUIRE(fc.set("vmaf", 1, 71.0) == 0);

    const std::vector<std::string> expected = {"t", "a1", "a2", "b", "t_late", "a_flush", "vmaf"};
    CHECK(fc.names() == expected);
    CHECK(render(VMAF_OUTPUT_FORMAT_CSV, fc, make_info()).substr(0, 35) == "Frame,t,a1,a2,b,t_late,a_flush,vmaf");
    const auto aggregates = fc.aggregates();
    REQUIRE(aggregates.size() == 3);
    CHECK(aggregates[0].first == "agg_a");
    CHECK(aggregates[1].first == "agg_b");
    CHECK(aggregates[2].first == "imported");
}

TEST_CASE("missing scores: omitted, or an empty CSV cell; unpoolable features have no values",
          "[output]")
{
    // Frames 0 and 1 have nothing (scores imported from index 2 on); frame 3
    // misses one feature.
    FeatureCollector fc;
    REQUIRE(fc.set("a", 2, 1.0) == 0);
    REQUIRE(fc.set("b", 2, 2.0) == 0);
    REQUIRE(fc.set("a", 3, 3.0) == 0);
    const OutputInfo info = make_info({{"a", 0.0}});  // b cannot be pooled

    CHECK(render(VMAF_OUTPUT_FORMAT_CSV, fc, info) ==
          "Frame,a,b,\n"
          "2,1.000000,2.000000,\n"
          "3,3.000000,,\n");
    CHECK(render(VMAF_OUTPUT_FORMAT_SUB, fc, info) ==
          "{2}{3}frame: 2|a: 1.000000|b: 2.000000|\n"
          "{3}{4}frame: 3|a: 3.000000|\n");

    const std::string xml = render(VMAF_OUTPUT_FORMAT_XML, fc, info);
    CHECK(xml.find("    <frame frameNum=\"3\" a=\"3.000000\" />\n") != std::string::npos);
    CHECK(xml.find("    <metric name=\"b\" />\n") != std::string::npos);

    // The first listed frame is not frame 0: the document must still parse.
    const std::string json = render(VMAF_OUTPUT_FORMAT_JSON, fc, info);
    CHECK(json.find("  \"frames\": [\n    {\n      \"frameNum\": 2,\n") != std::string::npos);
    CHECK(json.find("    \"b\": {\n    }") != std::string::npos);
    const auto j = parse(json);
    REQUIRE(j["frames"].size() == 2);
    CHECK(j["frames"][1]["metrics"].size() == 1);
    CHECK(j["pooled_metrics"]["b"].empty());
    CHECK(j["pooled_metrics"]["a"]["mean"].get<double>() == 3.0);
}

TEST_CASE("non-finite scores are null in JSON", "[output]")
{
    FeatureCollector fc;
    REQUIRE(fc.set("psnr_y", 0, std::numeric_limits<double>::infinity()) == 0);
    REQUIRE(fc.set("x", 0, std::nan("")) == 0);
    REQUIRE(fc.set("y", 0, 1.5) == 0);
    REQUIRE(fc.set_aggregate("agg", std::nan("")) == 0);
    OutputInfo info = make_info();
    info.pool = [](const std::string &, VmafPoolingMethod, double *v) {
        *v = std::numeric_limits<double>::infinity();
        return 0;
    };
    const std::string json = render(VMAF_OUTPUT_FORMAT_JSON, fc, info);
    CHECK(json.find("        \"psnr_y\": null,\n        \"x\": null,\n        \"y\": 1.500000\n") !=
          std::string::npos);
    CHECK(json.find("      \"harmonic_mean\": null\n") != std::string::npos);
    const auto j = parse(json);
    CHECK(j["frames"][0]["metrics"]["x"].is_null());
    CHECK(j["aggregate_metrics"]["agg"].is_null());
    CHECK(j["frames"][0]["metrics"]["y"].get<double>() == 1.5);
}

TEST_CASE("names are escaped where they are string values", "[output]")
{
    FeatureCollector fc;
    REQUIRE(fc.set("odd\"name\\", 0, 1.0) == 0);
    OutputInfo info = make_info();
    info.version = "v\"1";
    const auto j = parse(render(VMAF_OUTPUT_FORMAT_JSON, fc, info));
    CHECK(j["version"] == "v\"1");
    CHECK(j["frames"][0]["metrics"]["odd\"name\\"].get<double>() == 1.0);
    const std::string xml = render(VMAF_OUTPUT_FORMAT_XML, fc, info);
    CHECK(xml.rfind("<VMAF version=\"v&quot;1\">\n", 0) == 0);
}

TEST_CASE("write_output writes the rendered document and checks its arguments", "[output]")
{
    FeatureCollector fc;
    fill_two_frames(fc);
    const OutputInfo info = make_info(kPooled);
    std::FILE *f = std::tmpfile();
    REQUIRE(f);
    CHECK(vmaf::write_output(f, VMAF_OUTPUT_FORMAT_SUB, fc, info) == 0);
    std::rewind(f);
    std::string back;
    for (int c; (c = std::fgetc(f)) != EOF;) back.push_back(char(c));
    CHECK(back == render(VMAF_OUTPUT_FORMAT_SUB, fc, info));
    CHECK(vmaf::write_output(f, VMAF_OUTPUT_FORMAT_NONE, fc, info) == -EINVAL);
    CHECK(vmaf::write_output(f, VmafOutputFormat(99), fc, info) == -EINVAL);
    std::fclose(f);
    CHECK(vmaf::write_output(nullptr, VMAF_OUTPUT_FORMAT_JSON, fc, info) == -EINVAL);

    // A write that fails (read-only stream) is reported.
    std::FILE *ro = std::fopen("/dev/null", "r");
    REQUIRE(ro);
    CHECK(vmaf::write_output(ro, VMAF_OUTPUT_FORMAT_JSON, fc, info) == -EIO);
    std::fclose(ro);
}

TEST_CASE("vmaf_write_output writes a context's scores", "[output]")
{
    VmafContext *v = nullptr;
    VmafConfiguration cfg{};
    REQUIRE(vmaf_init(&v, cfg) == 0);
    REQUIRE(vmaf_import_feature_score(v, "imported", 1.25, 0) == 0);
    const std::string out = (std::filesystem::temp_directory_path() / "vmaf_test_output.csv").string();
    const char *path = out.c_str();
    CHECK(vmaf_write_output(v, path, VMAF_OUTPUT_FORMAT_CSV) == 0);
    std::FILE *f = std::fopen(path, "r");
    REQUIRE(f);
    char buf[256] = {};
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    CHECK(std::string(buf, n) == "Frame,imported,\n0,1.250000,\n");
    CHECK(vmaf_write_output(v, path, VMAF_OUTPUT_FORMAT_NONE) == -EINVAL);
    CHECK(vmaf_write_output(v, "/nonexistent-dir/out.json", VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);  // as libvmaf
    CHECK(vmaf_write_output(nullptr, path, VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);
    std::remove(path);
    vmaf_close(v);
}
