// SPDX-License-Identifier: BSD-2-Clause-Patent
// Hostile use of the library's own Vulkan device (docs/reliability.md):
// VMAF_VULKAN_DEVICE values that once wrapped into another device,
// VMAF_VULKAN_PIPELINE_CACHE's words, a FIFO or /dev/zero where the pipeline
// cache file belongs, a cache directory that is a link or open to others, stale
// temporary files, fork() with a context open, and a context per frame.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "env.h"
#include "golden.h"
#include "stderr_capture.h"
#include "libvmaf/libvmaf.h"
#include "vulkan.h"
#include "vulkan/pipeline_cache.h"
#include "vulkan/shared_device.h"

using namespace vmaf;
using vmaf::test::EnvOverride;
using vmaf::test::StderrCapture;

namespace {

// VMAF_BACKEND=vulkan, a cache directory of the test's own, and no shared
// device left from an earlier test (nor for a later one).
struct VulkanEnv {
    std::filesystem::path dir;
    std::filesystem::path cache_dir;
    EnvOverride backend{"VMAF_BACKEND", "vulkan"};
    EnvOverride device{"VMAF_VULKAN_DEVICE", nullptr};
    EnvOverride validation{"VMAF_VULKAN_VALIDATION", test::validation_wanted() ? "1" : "0"};
    EnvOverride cache_on{"VMAF_VULKAN_PIPELINE_CACHE", nullptr};
    std::optional<EnvOverride> cache;
    VulkanEnv()
    {
        vk::shared_state_trim();
        std::string t = (std::filesystem::temp_directory_path() / "vmaf_vk_hostile_XXXXXX").string();
        REQUIRE(mkdtemp(t.data()));
        dir = t;
        cache_dir = dir / "libvmaf-vk";
        cache.emplace("XDG_CACHE_HOME", dir.c_str());
    }
    ~VulkanEnv()
    {
        vk::shared_state_trim();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

VmafConfiguration config(VmafLogLevel level = VMAF_LOG_LEVEL_ERROR)
{
    VmafConfiguration cfg{};
    cfg.log_level = level;
    return cfg;
}

// psnr of two flat frames, as the closed form gives it.
bool score_flat_frames(VmafContext *ctx, unsigned n)
{
    if (vmaf_use_feature(ctx, "psnr", nullptr)) return false;
    for (unsigned i = 0; i < n; i++) {
        VmafPicture r, d;
        if (vmaf_picture_alloc(&r, VMAF_PIX_FMT_YUV420P, 8, 64, 48) ||
            vmaf_picture_alloc(&d, VMAF_PIX_FMT_YUV420P, 8, 64, 48))
            return false;
        for (unsigned p = 0; p < 3; p++) {
            std::memset(r.data[p], 100, size_t(r.stride[p]) * r.h[p]);
            std::memset(d.data[p], 100 + int(i) + 1, size_t(d.stride[p]) * d.h[p]);
        }
        if (vmaf_read_pictures(ctx, &r, &d, i)) return false;
    }
    if (vmaf_read_pictures(ctx, nullptr, nullptr, 0)) return false;
    for (unsigned i = 0; i < n; i++) {
        double s;
        if (vmaf_feature_score_at_index(ctx, "psnr_y", &s, i)) return false;
        const double e = i + 1.0;
        if (std::fabs(s - 10.0 * std::log10(255.0 * 255.0 / (e * e))) > 1e-9) return false;
    }
    return true;
}

// The pipeline cache file a device of this machine uses under env.dir.
std::string cache_file_path()
{
    VmafContext *ctx = nullptr;
    EnvOverride off("VMAF_VULKAN_PIPELINE_CACHE", "0");
    REQUIRE(vmaf_init(&ctx, config()) == 0);
    REQUIRE(ctx->ctx.vulkan_state());
    const std::string path = vk::PipelineCache::file_for(*ctx->ctx.vulkan_state());
    vmaf_close(ctx);
    vk::shared_state_trim();
    return path;
}

// vmaf_init on a thread, given `seconds`; a call still blocked then is let go by
// `unblock` and fails the test.
int init_within(VmafContext **ctx, const VmafConfiguration &cfg, int seconds, const std::function<void()> &unblock)
{
    auto f = std::async(std::launch::async, [&] { return vmaf_init(ctx, cfg); });
    if (f.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready) {
        unblock();
        f.wait();
        FAIL("vmaf_init blocked");
    }
    return f.get();
}

}  // namespace

TEST_CASE("VMAF_VULKAN_DEVICE: numbers past an int fail, never another device", "[vulkan][hostile]")
{
    VulkanEnv env;
    std::vector<vk::DeviceInfo> devices;
    REQUIRE(vk::State::list_devices(&devices) == 0);
    const uint64_t created = vk::shared_state_stats().created;
    for (const char *v : {"2147483648", "4294967296", "99999999999999999999999", "18446744073709551616"}) {
        INFO(v);
        EnvOverride device("VMAF_VULKAN_DEVICE", v);
        VmafContext *ctx = nullptr;
        StderrCapture err;
        CHECK(vmaf_init(&ctx, config()) == -ENODEV);
        CHECK(ctx == nullptr);
        if (ctx) vmaf_close(ctx);
        CHECK_THAT(err.text(), Catch::Contains(std::string("Vulkan: device ") + v +
                                               " asked for (VMAF_VULKAN_DEVICE); there are " +
                                               std::to_string(devices.size())));
    }
    CHECK(vk::shared_state_stats().created == created);
    // An index in range still picks that device.
    EnvOverride device("VMAF_VULKAN_DEVICE", "0");
    VmafContext *ctx = nullptr;
    REQUIRE(vmaf_init(&ctx, config()) == 0);
    REQUIRE(ctx->ctx.vulkan_state());
    CHECK(ctx->ctx.vulkan_state()->info().name == devices[0].name);
    vmaf_close(ctx);
}

TEST_CASE("VMAF_VULKAN_PIPELINE_CACHE: the off words turn the file off; others warn", "[vulkan][hostile]")
{
    VulkanEnv env;
    for (const char *off : {"0", "off", "false", "no"}) {
        INFO(off);
        EnvOverride e("VMAF_VULKAN_PIPELINE_CACHE", off);
        VmafContext *ctx = nullptr;
        REQUIRE(vmaf_init(&ctx, config()) == 0);
        REQUIRE(ctx->ctx.vulkan_state()->pipeline_cache_file());
        CHECK(ctx->ctx.vulkan_state()->pipeline_cache_file()->path().empty());
        vmaf_close(ctx);
        vk::shared_state_trim();
    }
    for (const char *bad : {"-1", "garbage"}) {
        INFO(bad);
        EnvOverride e("VMAF_VULKAN_PIPELINE_CACHE", bad);
        VmafContext *ctx = nullptr;
        StderrCapture err;
        REQUIRE(vmaf_init(&ctx, config(VMAF_LOG_LEVEL_NONE)) == 0);
        CHECK_THAT(err.text(), Catch::Contains(std::string("VMAF_VULKAN_PIPELINE_CACHE=") + bad +
                                               " is not a switch (1, on, true, yes; 0, off, false, no): taken as on"));
        CHECK(!ctx->ctx.vulkan_state()->pipeline_cache_file()->path().empty());
        vmaf_close(ctx);
        vk::shared_state_trim();
    }
}

TEST_CASE("the pipeline cache file: a FIFO or /dev/zero there is refused at once", "[vulkan][hostile]")
{
    VulkanEnv env;
    const std::string path = cache_file_path();
    REQUIRE(!path.empty());
    REQUIRE(std::filesystem::create_directories(env.cache_dir));
    std::filesystem::permissions(env.cache_dir, std::filesystem::perms::owner_all);
    for (const char *mode : {"vulkan", "auto"}) {
        INFO(mode);
        // (the run before saved its cache over it)
        unlink(path.c_str());
        REQUIRE(mkfifo(path.c_str(), 0600) == 0);
        EnvOverride backend("VMAF_BACKEND", mode);
        VmafContext *ctx = nullptr;
        StderrCapture err;
        REQUIRE(init_within(&ctx, config(VMAF_LOG_LEVEL_WARNING), 20, [&] {
                    const int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK);
                    if (fd >= 0) close(fd);
                }) == 0);
        REQUIRE(ctx->ctx.vulkan_state());
        CHECK(ctx->ctx.vulkan_state()->pipeline_cache_file()->loaded_bytes() == 0);
        CHECK(score_flat_frames(ctx, 2));
        vmaf_close(ctx);
        vk::shared_state_trim();
        const std::string text = err.text();
        // One warning per process for an unusable file: the first run says it.
        if (std::string(mode) == "vulkan")
            CHECK_THAT(text, Catch::Contains("Vulkan: pipeline cache " + path +
                                             " cannot be read (is a FIFO, not a regular file); ignored"));
    }
    REQUIRE(unlink(path.c_str()) == 0);

    // /dev/zero through a link: refused before a byte is read.
    REQUIRE(symlink("/dev/zero", path.c_str()) == 0);
    VmafContext *ctx = nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE(vmaf_init(&ctx, config(VMAF_LOG_LEVEL_WARNING)) == 0);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
    CHECK(ctx->ctx.vulkan_state()->pipeline_cache_file()->loaded_bytes() == 0);
    CHECK(score_flat_frames(ctx, 1));
    vmaf_close(ctx);
}

TEST_CASE("the pipeline cache directory: a link or a folder others may write is not used", "[vulkan][hostile]")
{
    VulkanEnv env;
    const std::filesystem::path elsewhere = env.dir / "elsewhere";
    for (const char *kind : {"link", "0777", "others'"}) {
        INFO(kind);
        std::error_code ec;
        std::filesystem::remove_all(env.cache_dir, ec);
        std::filesystem::remove_all(elsewhere, ec);
        REQUIRE(std::filesystem::create_directories(elsewhere));
        if (std::string(kind) == "link") {
            std::filesystem::create_directory_symlink(elsewhere, env.cache_dir);
        } else {
            REQUIRE(mkdir(env.cache_dir.c_str(), 0700) == 0);
            if (std::string(kind) == "0777") REQUIRE(chmod(env.cache_dir.c_str(), 0777) == 0);
            else if (geteuid() == 0) REQUIRE(chown(env.cache_dir.c_str(), 65534, 65534) == 0);
            else continue;  // only root gives a folder away
        }
        VmafContext *ctx = nullptr;
        REQUIRE(vmaf_init(&ctx, config()) == 0);
        CHECK(ctx->ctx.vulkan_state()->pipeline_cache_file()->path().empty());
        CHECK(score_flat_frames(ctx, 1));
        vmaf_close(ctx);
        vk::shared_state_trim();
        CHECK(std::filesystem::is_empty(elsewhere));  // nothing written through the link
        if (std::string(kind) != "link") CHECK(std::filesystem::is_empty(env.cache_dir));
    }
}

TEST_CASE("the pipeline cache directory: a killed save's temporary files are removed", "[vulkan][hostile]")
{
    VulkanEnv env;
    const std::string path = cache_file_path();
    REQUIRE(std::filesystem::create_directories(env.cache_dir));
    std::filesystem::permissions(env.cache_dir, std::filesystem::perms::owner_all);
    const std::string stale = path + ".k1ll3d", fresh = path + ".w0rk1n";
    for (const std::string &p : {stale, fresh}) {
        FILE *f = std::fopen(p.c_str(), "wb");
        REQUIRE(f);
        std::fputs("half a file", f);
        std::fclose(f);
    }
    const timespec old[2] = {{time(nullptr) - 3600, 0}, {time(nullptr) - 3600, 0}};
    REQUIRE(utimensat(AT_FDCWD, stale.c_str(), old, 0) == 0);
    VmafContext *ctx = nullptr;
    REQUIRE(vmaf_init(&ctx, config()) == 0);
    CHECK(!std::filesystem::exists(stale));
    CHECK(std::filesystem::exists(fresh));  // a process may be writing it
    vmaf_close(ctx);
}

TEST_CASE("a context per frame makes one device", "[vulkan][hostile]")
{
    // VapourSynth-VMAF's Metric filter: vmaf_init, one frame, vmaf_close.
    VulkanEnv env;
    const uint64_t created = vk::shared_state_stats().created;
    vk::State *first = nullptr;
    for (int i = 0; i < 5; i++) {
        VmafContext *ctx = nullptr;
        REQUIRE(vmaf_init(&ctx, config()) == 0);
        REQUIRE(ctx->ctx.vulkan_state());
        if (!first) first = ctx->ctx.vulkan_state();
        CHECK(ctx->ctx.vulkan_state() == first);
        CHECK(score_flat_frames(ctx, 1));
        vmaf_close(ctx);
        const vk::SharedStateStats s = vk::shared_state_stats();
        CHECK(s.live == 1);
        CHECK(s.idle == 1);
        CHECK(s.references == 0);
    }
    CHECK(vk::shared_state_stats().created == created + 1);
    test::check_clean(*first);  // five contexts on one kept device, the validation layer silent
    CHECK(vk::shared_state_trim() == 1);
    CHECK(vk::shared_state_stats().live == 0);
}

TEST_CASE("fork() with a context open: the child makes its own device and scores", "[vulkan][hostile]")
{
    VulkanEnv env;
    VmafContext *parent = nullptr;
    REQUIRE(vmaf_init(&parent, config()) == 0);
    REQUIRE(parent->ctx.vulkan_state());
    const vk::State *parents_state = parent->ctx.vulkan_state();
    REQUIRE(vmaf_use_feature(parent, "psnr", nullptr) == 0);

    const std::string pair = "astronaut_176x144_crf35";
    const std::string dir = test::data_dir() + "/";
    std::vector<VmafPicture> ref = test::load_y4m(dir + pair + "_ref.y4m");
    std::vector<VmafPicture> dis = test::load_y4m(dir + pair + "_dis.y4m");
    const test::Expected exp = test::load_expected(dir + pair + ".libvmaf.json");
    REQUIRE(ref.size() == dis.size());
    REQUIRE(ref.size() == exp.frames.size());
    const uint64_t created = vk::shared_state_stats().created;

    std::fflush(nullptr);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        // The child: no Catch2 here; the exit status says what went wrong.
        int code = 0;
        VmafContext *ctx = nullptr;
        if (vmaf_init(&ctx, config()) != 0) _exit(10);
        const vk::State *st = ctx->ctx.vulkan_state();
        if (!st) _exit(11);
        if (vmaf_use_feature(ctx, "psnr", nullptr)) _exit(14);
        for (size_t i = 0; i < ref.size(); i++) {
            VmafPicture r, d;
            vmaf_picture_alloc(&r, ref[i].pix_fmt, ref[i].bpc, ref[i].w[0], ref[i].h[0]);
            vmaf_picture_alloc(&d, dis[i].pix_fmt, dis[i].bpc, dis[i].w[0], dis[i].h[0]);
            for (unsigned p = 0; p < 3; p++) {
                std::memcpy(r.data[p], ref[i].data[p], size_t(r.stride[p]) * r.h[p]);
                std::memcpy(d.data[p], dis[i].data[p], size_t(d.stride[p]) * d.h[p]);
            }
            if (vmaf_read_pictures(ctx, &r, &d, unsigned(i))) _exit(15);
        }
        if (vmaf_read_pictures(ctx, nullptr, nullptr, 0)) _exit(16);
        for (size_t i = 0; i < ref.size(); i++) {
            double s;
            if (vmaf_feature_score_at_index(ctx, "psnr_y", &s, unsigned(i))) _exit(17);
            if (std::fabs(s - exp.frames[i].at("psnr_y")) > 1e-4) code = 18;
        }
        if (st == parents_state) _exit(12);
        if (vk::shared_state_stats().created != created + 1) _exit(13);
        if (vmaf_close(ctx)) _exit(19);
        _exit(code);  // no exit hooks: the parent's device is the parent's
    }
    // The parent waits, with a bound: a child stuck in the driver fails the test.
    int status = 0;
    bool done = false;
    for (int i = 0; i < 1200 && !done; i++) {
        const pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) done = true;
        else std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (!done) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        FAIL("the child hung (killed after 120 s)");
    }
    REQUIRE(WIFEXITED(status));
    // Mesa's drivers (lavapipe, CI's device) give a child a device of its own,
    // and it must score. NVIDIA's driver refuses any device to the child of a
    // process that opened one (vkCreateDevice: VK_ERROR_INITIALIZATION_FAILED,
    // seen on an H100 with driver 580.159): then vmaf_init must fail cleanly
    // (exit 10), and never hang or hand the child its parent's device.
    if (parents_state->properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
        CHECK(WEXITSTATUS(status) == 0);
    else
        CHECK((WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 10));

    // The parent's context still scores on its device.
    CHECK(parent->ctx.vulkan_state() == parents_state);
    for (size_t i = 0; i < ref.size(); i++) {
        VmafPicture r, d;
        REQUIRE(vmaf_picture_alloc(&r, ref[i].pix_fmt, ref[i].bpc, ref[i].w[0], ref[i].h[0]) == 0);
        REQUIRE(vmaf_picture_alloc(&d, dis[i].pix_fmt, dis[i].bpc, dis[i].w[0], dis[i].h[0]) == 0);
        for (unsigned p = 0; p < 3; p++) {
            std::memcpy(r.data[p], ref[i].data[p], size_t(r.stride[p]) * r.h[p]);
            std::memcpy(d.data[p], dis[i].data[p], size_t(d.stride[p]) * d.h[p]);
        }
        REQUIRE(vmaf_read_pictures(parent, &r, &d, unsigned(i)) == 0);
    }
    REQUIRE(vmaf_read_pictures(parent, nullptr, nullptr, 0) == 0);
    for (size_t i = 0; i < ref.size(); i++) {
        double s;
        REQUIRE(vmaf_feature_score_at_index(parent, "psnr_y", &s, unsigned(i)) == 0);
        CHECK(s == Approx(exp.frames[i].at("psnr_y")).margin(1e-4));
    }
    test::check_clean(*parent->ctx.vulkan_state());
    vmaf_close(parent);
    test::unref_all(ref);
    test::unref_all(dis);
}
