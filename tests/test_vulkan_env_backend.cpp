// SPDX-License-Identifier: BSD-2-Clause-Patent
// VMAF_BACKEND and VMAF_VULKAN_DEVICE read by vmaf_init, and vmaf_init_backend, the
// caller's choice by the same rule (context/backend_select.h, ADR 0080),
// the process's shared device (vulkan/shared_device.h) and the pipeline cache's
// file (vulkan/pipeline_cache.h). tests/c_api/env_backend.sh runs the same from a
// client of the public header alone, and without a driver.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "env.h"
#include "stderr_capture.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "vulkan.h"
#include "vulkan/pipeline.h"
#include "vulkan/pipeline_cache.h"
#include "vulkan/shared_device.h"

using namespace vmaf;
using vmaf::test::EnvOverride;
using vmaf::test::StderrCapture;

namespace {

// The environment of these tests: VMAF_BACKEND=vulkan, validation as the other
// Vulkan tests have it, a cache directory of their own.
struct VulkanEnv {
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("vmaf_env_backend_" + std::to_string(getpid()));
    EnvOverride backend{"VMAF_BACKEND", "vulkan"};
    EnvOverride device{"VMAF_VULKAN_DEVICE", nullptr};
    EnvOverride validation{"VMAF_VULKAN_VALIDATION", test::validation_wanted() ? "1" : "0"};
    EnvOverride cache{"XDG_CACHE_HOME", dir.c_str()};
    EnvOverride cache_on{"VMAF_VULKAN_PIPELINE_CACHE", nullptr};
    // The shared device outlives its contexts (ADR 0073): each test starts and
    // ends without one.
    VulkanEnv() { vk::shared_state_trim(); }
    ~VulkanEnv()
    {
        vk::shared_state_trim();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

VmafConfiguration quiet_config()
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    return cfg;
}

// psnr of two flat frames on `ctx`, from vmaf_picture_alloc pictures.
void score_flat_frames(VmafContext *ctx, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        VmafPicture r, d;
        REQUIRE(vmaf_picture_alloc(&r, VMAF_PIX_FMT_YUV420P, 8, 320, 240) == 0);
        REQUIRE(vmaf_picture_alloc(&d, VMAF_PIX_FMT_YUV420P, 8, 320, 240) == 0);
        for (unsigned p = 0; p < 3; p++) {
            std::memset(r.data[p], 100, size_t(r.stride[p]) * r.h[p]);
            std::memset(d.data[p], 100 + int(i) + 1, size_t(d.stride[p]) * d.h[p]);
        }
        REQUIRE(vmaf_read_pictures(ctx, &r, &d, i) == 0);
    }
    REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
    for (unsigned i = 0; i < n; i++) {
        double s;
        REQUIRE(vmaf_feature_score_at_index(ctx, "psnr_y", &s, i) == 0);
        const double e = i + 1.0;
        CHECK(s == Approx(10.0 * std::log10(255.0 * 255.0 / (e * e))).epsilon(1e-12));
    }
}

}  // namespace

TEST_CASE("VMAF_BACKEND=vulkan: contexts share one device, kept after the last", "[vulkan][env]")
{
    VulkanEnv env;
    const vk::SharedStateStats before = vk::shared_state_stats();
    REQUIRE(before.live == 0);

    VmafContext *a = nullptr, *b = nullptr;
    REQUIRE(vmaf_init(&a, quiet_config()) == 0);
    REQUIRE(vmaf_init(&b, quiet_config()) == 0);
    vk::State *st = a->ctx.vulkan_state();
    REQUIRE(st);
    CHECK(b->ctx.vulkan_state() == st);
    CHECK(a->ctx.vulkan_from_environment());
    vk::SharedStateStats now = vk::shared_state_stats();
    CHECK(now.created == before.created + 1);
    CHECK(now.live == 1);
    CHECK(now.references == 2);
    CHECK(st->attached() == 2);

    // Both score on it; pictures from vmaf_picture_alloc are read where they are;
    // the second context's pipelines are the first's.
    const uint64_t hits = st->pipelines().reused();
    for (VmafContext *c : {a, b}) {
        REQUIRE(vmaf_use_feature(c, "psnr", nullptr) == 0);
        score_flat_frames(c, 3);
        REQUIRE(c->ctx.vulkan_engine());
        const vk::HostUploadStats up = c->ctx.vulkan_engine()->host_uploads();
        if (st->host_import_alignment()) {
            CHECK(up.imported == 6);
            CHECK(up.copied == 0);
        } else {
            CHECK(up.copied == 6);
        }
    }
    CHECK(st->pipelines().reused() == hits + 1);  // psnr's one kernel
    test::check_clean(*st);

    REQUIRE(vmaf_close(a) == 0);
    now = vk::shared_state_stats();
    CHECK(now.live == 1);
    CHECK(now.references == 1);
    REQUIRE(vmaf_close(b) == 0);
    now = vk::shared_state_stats();
    CHECK(now.live == 1);
    CHECK(now.idle == 1);
    CHECK(now.references == 0);

    // The next context uses it (ADR 0073), with its pipelines.
    VmafContext *c = nullptr;
    REQUIRE(vmaf_init(&c, quiet_config()) == 0);
    CHECK(c->ctx.vulkan_state() == st);
    CHECK(vk::shared_state_stats().created == before.created + 1);
    REQUIRE(vmaf_use_feature(c, "psnr", nullptr) == 0);
    score_flat_frames(c, 1);
    CHECK(st->pipelines().reused() == hits + 2);
    REQUIRE(vmaf_close(c) == 0);
    CHECK(vk::shared_state_trim() == 1);
    CHECK(vk::shared_state_stats().live == 0);

    // After a trim the next context makes a new one.
    REQUIRE(vmaf_init(&c, quiet_config()) == 0);
    CHECK(vk::shared_state_stats().created == before.created + 2);
    REQUIRE(vmaf_close(c) == 0);
}

TEST_CASE("VMAF_BACKEND: cpu and unset stay on the CPU; vulkan wins over a nonzero gpumask", "[vulkan][env]")
{
    VulkanEnv env;
    const uint64_t created = vk::shared_state_stats().created;
    for (const char *v : {"cpu", "", static_cast<const char *>(nullptr)}) {
        EnvOverride backend("VMAF_BACKEND", v);
        VmafContext *ctx = nullptr;
        REQUIRE(vmaf_init(&ctx, quiet_config()) == 0);
        CHECK(!ctx->ctx.vulkan_state());
        vmaf_close(ctx);
    }
    CHECK(vk::shared_state_stats().created == created);
    // aomenc leaves gpumask uninitialised: VMAF_BACKEND=vulkan is the user's word (ADR 0072).
    VmafConfiguration cfg = quiet_config();
    cfg.gpumask = 0x20;
    VmafContext *ctx = nullptr;
    REQUIRE(vmaf_init(&ctx, cfg) == 0);
    CHECK(ctx->ctx.vulkan_state());
    CHECK(ctx->ctx.vulkan_from_environment());
    REQUIRE(vmaf_use_feature(ctx, "psnr", nullptr) == 0);
    score_flat_frames(ctx, 2);
    vmaf_close(ctx);
    // With VMAF_BACKEND=cpu the mask changes nothing.
    EnvOverride backend("VMAF_BACKEND", "cpu");
    REQUIRE(vmaf_init(&ctx, cfg) == 0);
    CHECK(!ctx->ctx.vulkan_state());
    vmaf_close(ctx);
}

TEST_CASE("VMAF_BACKEND: an unknown value fails vmaf_init naming the variable and its values", "[vulkan][env]")
{
    VulkanEnv env;
    EnvOverride backend("VMAF_BACKEND", "Vulkan ");
    VmafContext *ctx = reinterpret_cast<VmafContext *>(1);
    StderrCapture err;
    CHECK(vmaf_init(&ctx, quiet_config()) == -EINVAL);
    CHECK(ctx == nullptr);
    const std::string text = err.text();
    CHECK_THAT(text, Catch::Contains("VMAF_BACKEND=Vulkan  is not a backend; the values are cpu, vulkan and auto"));
}

TEST_CASE("VMAF_VULKAN_DEVICE out of range fails vmaf_init naming the index and the device count", "[vulkan][env]")
{
    VulkanEnv env;
    std::vector<vk::DeviceInfo> devices;
    REQUIRE(vk::State::list_devices(&devices) == 0);
    const std::string index = std::to_string(devices.size());
    EnvOverride device("VMAF_VULKAN_DEVICE", index.c_str());
    for (const char *mode : {"vulkan", "auto"}) {
        EnvOverride backend("VMAF_BACKEND", mode);
        VmafContext *ctx = nullptr;
        VmafConfiguration cfg = quiet_config();
        cfg.log_level = VMAF_LOG_LEVEL_WARNING;  // the notice
        StderrCapture err;
        const int rc = vmaf_init(&ctx, cfg);
        const std::string text = err.text();
        const std::string what = "device " + index + " asked for (VMAF_VULKAN_DEVICE); there are " +
                                 std::to_string(devices.size());
        if (std::string(mode) == "vulkan") {
            CHECK(rc == -ENODEV);
            CHECK(ctx == nullptr);
            CHECK_THAT(text, Catch::Contains(what));
            CHECK_THAT(text, Catch::Contains("vmaf_init: VMAF_BACKEND=vulkan: no usable Vulkan device"));
        } else {
            // auto: the CPU, and one notice that says why.
            REQUIRE(rc == 0);
            CHECK(!ctx->ctx.vulkan_state());
            CHECK_THAT(text, Catch::Contains("VMAF_BACKEND=auto: no usable Vulkan device (Vulkan: " + what));
            CHECK(text.find("ERROR") == std::string::npos);
            vmaf_close(ctx);
        }
    }
    CHECK(vk::shared_state_stats().live == 0);
}

TEST_CASE("VMAF_BACKEND: a state the caller imports replaces the environment's device", "[vulkan][env]")
{
    VulkanEnv env;
    VmafContext *ctx = nullptr;
    REQUIRE(vmaf_init(&ctx, quiet_config()) == 0);
    REQUIRE(ctx->ctx.vulkan_from_environment());
    VmafVulkanState *own = nullptr;
    VmafVulkanConfiguration vcfg{};
    vcfg.device_index = VMAF_VULKAN_DEVICE_AUTO;
    vcfg.enable_validation = test::validation_wanted();
    REQUIRE(vmaf_vulkan_state_init(&own, vcfg) == 0);
    REQUIRE(vmaf_vulkan_import_state(ctx, own) == 0);
    CHECK(!ctx->ctx.vulkan_from_environment());
    CHECK(vk::shared_state_stats().references == 0);  // the shared device is idle (ADR 0073)
    REQUIRE(vmaf_use_feature(ctx, "psnr", nullptr) == 0);
    score_flat_frames(ctx, 2);
    CHECK(vmaf_vulkan_state_free(&own) == -EBUSY);  // still used
    vmaf_close(ctx);
    CHECK(vmaf_vulkan_state_free(&own) == 0);
}

TEST_CASE("the pipeline cache file: written by the first device, loaded by the next", "[vulkan][env]")
{
    VulkanEnv env;
    std::string path;
    {
        VmafContext *ctx = nullptr;
        REQUIRE(vmaf_init(&ctx, quiet_config()) == 0);
        vk::PipelineCache *cache = ctx->ctx.vulkan_state()->pipeline_cache_file();
        REQUIRE(cache);
        CHECK(cache->handle() != VK_NULL_HANDLE);
        path = cache->path();
        CHECK(path.rfind((env.dir / "libvmaf-vk" / "pipelines-").string(), 0) == 0);
        CHECK(cache->loaded_bytes() == 0);
        REQUIRE(vmaf_use_feature(ctx, "psnr", nullptr) == 0);
        score_flat_frames(ctx, 1);
        // Written once the engine built its pipelines, before the device goes.
        REQUIRE(std::filesystem::exists(path));
        const auto written = std::filesystem::last_write_time(path);
        CHECK(cache->save() == 0);  // nothing new since
        vmaf_close(ctx);  // the last context: the device stays
        CHECK(vk::shared_state_trim() == 1);  // and goes here (as at exit): the cache is not written again
        CHECK(std::filesystem::last_write_time(path) == written);
    }
    REQUIRE(std::filesystem::exists(path));
    const auto size = std::filesystem::file_size(path);
    CHECK(size >= 72 + 32);  // our header and at least Vulkan's (lavapipe keeps no more)
    {
        VmafContext *ctx = nullptr;
        REQUIRE(vmaf_init(&ctx, quiet_config()) == 0);
        vk::PipelineCache *cache = ctx->ctx.vulkan_state()->pipeline_cache_file();
        REQUIRE(cache);
        CHECK(cache->loaded_bytes() == size - 72);
        vmaf_close(ctx);
        vk::shared_state_trim();
    }
    {
        EnvOverride off("VMAF_VULKAN_PIPELINE_CACHE", "0");
        VmafContext *ctx = nullptr;
        REQUIRE(vmaf_init(&ctx, quiet_config()) == 0);
        vk::PipelineCache *cache = ctx->ctx.vulkan_state()->pipeline_cache_file();
        REQUIRE(cache);
        CHECK(cache->path().empty());
        CHECK(cache->loaded_bytes() == 0);
        CHECK(cache->handle() != VK_NULL_HANDLE);  // in memory still
        vmaf_close(ctx);
    }
}

TEST_CASE("VMAF_BACKEND=vulkan: contexts made and closed on several threads at once", "[vulkan][env]")
{
    // GStreamer makes a context per stream, each on its own streaming thread.
    VulkanEnv env;
    const uint64_t created = vk::shared_state_stats().created;
    constexpr unsigned kThreads = 4;
    std::vector<std::thread> threads;
    std::vector<int> rc(kThreads, -1);
    std::vector<double> score(kThreads, 0);
    for (unsigned t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            VmafContext *ctx = nullptr;
            if ((rc[t] = vmaf_init(&ctx, quiet_config()))) return;
            if ((rc[t] = vmaf_use_feature(ctx, "psnr", nullptr)) || !ctx->ctx.vulkan_state()) {
                rc[t] = rc[t] ? rc[t] : -100;
                vmaf_close(ctx);
                return;
            }
            for (unsigned i = 0; i < 2 && !rc[t]; i++) {
                VmafPicture r, d;
                if ((rc[t] = vmaf_picture_alloc(&r, VMAF_PIX_FMT_YUV420P, 8, 64, 48))) break;
                if ((rc[t] = vmaf_picture_alloc(&d, VMAF_PIX_FMT_YUV420P, 8, 64, 48))) break;
                for (unsigned p = 0; p < 3; p++) {
                    std::memset(r.data[p], 50, size_t(r.stride[p]) * r.h[p]);
                    std::memset(d.data[p], 50 + int(t) + 1, size_t(d.stride[p]) * d.h[p]);
                }
                rc[t] = vmaf_read_pictures(ctx, &r, &d, i);
            }
            if (!rc[t]) rc[t] = vmaf_read_pictures(ctx, nullptr, nullptr, 0);
            if (!rc[t]) rc[t] = vmaf_feature_score_at_index(ctx, "psnr_y", &score[t], 1);
            vmaf_close(ctx);
        });
    }
    for (auto &th : threads) th.join();
    for (unsigned t = 0; t < kThreads; t++) {
        INFO("thread " << t);
        CHECK(rc[t] == 0);
        const double e = t + 1.0;
        CHECK(score[t] == Approx(10.0 * std::log10(255.0 * 255.0 / (e * e))).epsilon(1e-12));
    }
    const vk::SharedStateStats s = vk::shared_state_stats();
    CHECK(s.live == 1);  // kept for the next context
    CHECK(s.references == 0);
    CHECK(s.created == created + 1);
}

namespace {

VmafVulkanConfiguration any_device()
{
    VmafVulkanConfiguration dev{};
    dev.device_index = VMAF_VULKAN_DEVICE_AUTO;
    return dev;
}

}  // namespace

TEST_CASE("vmaf_init_backend: cpu, vulkan and auto, on a device of the context's own; VMAF_BACKEND is not read",
          "[vulkan][env][chooser]")
{
    VulkanEnv env;
    std::vector<vk::DeviceInfo> devices;
    REQUIRE(vk::State::list_devices(&devices) == 0);
    const uint64_t created = vk::shared_state_stats().created;
    // An unknown VMAF_BACKEND fails vmaf_init; the caller's choice never reads it.
    for (const char *value : {"vulkan", "gpu"}) {
        EnvOverride backend("VMAF_BACKEND", value);
        VmafBackendChoice chosen;
        std::memset(&chosen, 0x55, sizeof chosen);
        VmafContext *ctx = nullptr;
        REQUIRE(vmaf_init_backend(&ctx, quiet_config(), VMAF_BACKEND_CPU, any_device(), &chosen) == 0);
        CHECK(!ctx->ctx.vulkan_state());
        CHECK(chosen.backend == VMAF_BACKEND_CPU);
        CHECK(chosen.reason[0] == 0);
        CHECK(chosen.device.name[0] == 0);
        REQUIRE(vmaf_use_feature(ctx, "psnr", nullptr) == 0);
        score_flat_frames(ctx, 2);
        REQUIRE(!ctx->ctx.vulkan_engine());
        vmaf_close(ctx);
    }
    for (VmafBackend mode : {VMAF_BACKEND_VULKAN, VMAF_BACKEND_AUTO}) {
        INFO("backend " << int(mode));
        for (int index : {VMAF_VULKAN_DEVICE_AUTO, 0}) {
            INFO("device_index " << index);
            VmafVulkanConfiguration dev = any_device();
            dev.device_index = index;
            VmafBackendChoice chosen{};
            VmafContext *ctx = nullptr;
            REQUIRE(vmaf_init_backend(&ctx, quiet_config(), mode, dev, &chosen) == 0);
            vk::State *st = ctx->ctx.vulkan_state();
            REQUIRE(st);
            CHECK(chosen.backend == VMAF_BACKEND_VULKAN);
            CHECK(chosen.reason[0] == 0);
            CHECK(std::string(chosen.device.name) == st->info().name);
            if (index >= 0) CHECK(std::string(chosen.device.name) == devices[size_t(index)].name);
            // Its own device, not the process's shared one.
            CHECK(vk::shared_state_stats().live == 0);
            REQUIRE(vmaf_use_feature(ctx, "psnr", nullptr) == 0);
            score_flat_frames(ctx, 3);
            REQUIRE(ctx->ctx.vulkan_engine());  // the GPU computed psnr
            test::check_clean(*st);
            vmaf_close(ctx);  // and its device with it
        }
    }
    CHECK(vk::shared_state_stats().created == created);
    CHECK(vk::shared_state_stats().live == 0);
}

TEST_CASE("vmaf_init_backend: an unknown backend or device index is -EINVAL with a line naming it",
          "[vulkan][env][chooser]")
{
    VulkanEnv env;
    VmafConfiguration cfg = quiet_config();
    struct Bad {
        unsigned backend;
        int index;
        const char *line;
    };
    for (const Bad &b : {Bad{3, -1, "vmaf_init_backend: backend 3 is not a backend; the values are "
                                    "VMAF_BACKEND_CPU, VMAF_BACKEND_VULKAN and VMAF_BACKEND_AUTO"},
                         Bad{0xffffffffu, -1, "backend 4294967295 is not a backend"},
                         Bad{VMAF_BACKEND_VULKAN, -2, "vmaf_init_backend: device_index -2 is not a device; the "
                                                      "values are 0 and up, or VMAF_VULKAN_DEVICE_AUTO (-1)"},
                         Bad{VMAF_BACKEND_AUTO, -7, "device_index -7 is not a device"}}) {
        INFO(b.line);
        VmafVulkanConfiguration dev = any_device();
        dev.device_index = b.index;
        VmafContext *ctx = reinterpret_cast<VmafContext *>(1);
        VmafBackendChoice chosen{};
        StderrCapture err;
        CHECK(vmaf_init_backend(&ctx, cfg, static_cast<VmafBackend>(b.backend), dev, &chosen) == -EINVAL);
        CHECK(ctx == nullptr);
        CHECK_THAT(err.text(), Catch::Contains(b.line));
    }
    VmafVulkanConfiguration dev = any_device();
    dev.reserved[3] = 1;
    VmafContext *ctx = nullptr;
    StderrCapture err;
    CHECK(vmaf_init_backend(&ctx, cfg, VMAF_BACKEND_VULKAN, dev, nullptr) == -EINVAL);
    CHECK(vmaf_init_backend(nullptr, cfg, VMAF_BACKEND_CPU, any_device(), nullptr) == -EINVAL);
    const std::string text = err.text();
    CHECK_THAT(text, Catch::Contains("vmaf_init_backend: the device's reserved fields must be zero"));
    CHECK_THAT(text, Catch::Contains("vmaf_init_backend: vmaf is NULL"));
    CHECK(vk::shared_state_stats().live == 0);
}

TEST_CASE("vmaf_init_backend: no usable device fails vulkan with its reason; auto takes the CPU with one notice",
          "[vulkan][env][chooser]")
{
    VulkanEnv env;
    std::vector<vk::DeviceInfo> devices;
    REQUIRE(vk::State::list_devices(&devices) == 0);
    const int missing = int(devices.size());
    VmafConfiguration cfg = quiet_config();
    cfg.log_level = VMAF_LOG_LEVEL_WARNING;  // the notice
    VmafVulkanConfiguration dev = any_device();
    dev.device_index = missing;

    VmafBackendChoice chosen{};
    VmafContext *ctx = reinterpret_cast<VmafContext *>(1);
    StderrCapture err;
    const int rc = vmaf_init_backend(&ctx, cfg, VMAF_BACKEND_VULKAN, dev, &chosen);
    std::string text = err.text();
    CHECK(rc < 0);
    CHECK(ctx == nullptr);
    CHECK(chosen.backend == VMAF_BACKEND_CPU);
    CHECK(std::string(chosen.reason) == std::strerror(-rc));
    CHECK_THAT(text, Catch::Contains("vmaf_init_backend: backend vulkan: no usable Vulkan device (" +
                                     std::string(std::strerror(-rc)) + "); choose cpu or auto to score on the CPU"));

    // auto: the CPU and the reason given back, with its notice (at the info
    // level here: a process warns once, and VMAF_BACKEND=auto's earlier tests
    // may have); a later context's is below the warning level.
    auto count = [](const std::string &text, const std::string &what) {
        size_t n = 0;
        for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
        return n;
    };
    for (VmafLogLevel level : {VMAF_LOG_LEVEL_INFO, VMAF_LOG_LEVEL_WARNING}) {
        INFO("log level " << int(level));
        cfg.log_level = level;
        StderrCapture err2;
        REQUIRE(vmaf_init_backend(&ctx, cfg, VMAF_BACKEND_AUTO, dev, &chosen) == 0);
        text = err2.text();
        CHECK(!ctx->ctx.vulkan_state());
        CHECK(chosen.backend == VMAF_BACKEND_CPU);
        const std::string reason = chosen.reason;
        CHECK_THAT(reason, Catch::Contains("device " + std::to_string(missing) + " asked for; there are " +
                                           std::to_string(devices.size())));
        CHECK(count(text, "libvmaf ERROR") == 0);
        CHECK(count(text, "backend auto: no usable Vulkan device (" + reason + "); this context scores on the CPU") ==
              (level == VMAF_LOG_LEVEL_INFO ? 1u : 0u));
        REQUIRE(vmaf_use_feature(ctx, "psnr", nullptr) == 0);
        score_flat_frames(ctx, 2);
        vmaf_close(ctx);
    }
    CHECK(vk::shared_state_stats().live == 0);
}

TEST_CASE("vmaf_init_backend: a nonzero gpumask keeps the context off the GPU", "[vulkan][env][chooser]")
{
    VulkanEnv env;
    VmafConfiguration cfg = quiet_config();
    cfg.gpumask = 0x20;
    VmafContext *ctx = reinterpret_cast<VmafContext *>(1);
    VmafBackendChoice chosen{};
    StderrCapture err;
    CHECK(vmaf_init_backend(&ctx, cfg, VMAF_BACKEND_VULKAN, any_device(), &chosen) == -EINVAL);
    CHECK(ctx == nullptr);
    CHECK_THAT(err.text(), Catch::Contains("vmaf_init_backend: backend vulkan: VmafConfiguration.gpumask 0x20 "
                                           "keeps this context off the GPU; pass 0 to score on Vulkan"));
    CHECK(std::string(chosen.reason) == "VmafConfiguration.gpumask 0x20 keeps this context off the GPU");
    REQUIRE(vmaf_init_backend(&ctx, cfg, VMAF_BACKEND_AUTO, any_device(), &chosen) == 0);
    CHECK(!ctx->ctx.vulkan_state());
    CHECK(chosen.backend == VMAF_BACKEND_CPU);
    CHECK(std::string(chosen.reason) == "VmafConfiguration.gpumask 0x20 keeps this context off the GPU");
    vmaf_close(ctx);
}
