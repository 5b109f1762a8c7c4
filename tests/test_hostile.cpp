// SPDX-License-Identifier: BSD-2-Clause-Patent
// Hostile input to the library that needs no GPU: the strict parser of the
// environment (util/env.h), files that are not regular files where a model
// belongs (os/os.h), a cache directory others could write, stale temporary
// files, and pictures a caller fills only in part (picture/picture.h).
// tests/test_vulkan_hostile.cpp has the GPU's cases.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <future>
#include <string>

#include "env.h"
#include "stderr_capture.h"
#include "libvmaf/libvmaf.h"
#include "util/env.h"
#include "os/os.h"

using namespace vmaf;
using vmaf::test::EnvOverride;
using vmaf::test::StderrCapture;

namespace {

struct TempDir {
    std::filesystem::path path;
    TempDir()
    {
        std::string t = (std::filesystem::temp_directory_path() / "vmaf_hostile_XXXXXX").string();
        REQUIRE(mkdtemp(t.data()));
        path = t;
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

size_t count(const std::string &text, const std::string &what)
{
    size_t n = 0;
    for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) n++;
    return n;
}

// The library's log level is the last context's: make one at `level`.
void set_log_level(VmafLogLevel level)
{
    VmafContext *ctx = nullptr;
    VmafConfiguration cfg{};
    cfg.log_level = level;
    REQUIRE(vmaf_init(&ctx, cfg) == 0);
    vmaf_close(ctx);
}

}  // namespace

TEST_CASE("parse_decimal: digits alone, never wrapped", "[hostile][env]")
{
    uint64_t v = 77;
    // What strtol into an int turned into another device (or the automatic choice).
    for (const char *bad : {"2147483648", "4294967296", "99999999999999999999999", "-1", "+1", " 1", "1 ", "0x1",
                            "", "1e3", "18446744073709551616"}) {
        INFO(bad);
        CHECK(!parse_decimal(bad, INT32_MAX, &v));
        CHECK(v == 77);
    }
    CHECK(parse_decimal("2147483647", INT32_MAX, &v));
    CHECK(v == 2147483647u);
    CHECK(parse_decimal("007", 10, &v));
    CHECK(v == 7);
    CHECK(!parse_decimal("11", 10, &v));
    CHECK(parse_decimal("18446744073709551615", UINT64_MAX, &v));
    CHECK(v == UINT64_MAX);
}

TEST_CASE("env_switch: the words, and anything else said once whatever the log level", "[hostile][env]")
{
    const char *name = "VMAF_TEST_HOSTILE_SWITCH";
    for (const char *off : {"0", "off", "false", "no", "OFF", "False", "NO"}) {
        EnvOverride e(name, off);
        CHECK(!env_switch(name, true));
    }
    for (const char *on : {"1", "on", "true", "yes", "On", "TRUE"}) {
        EnvOverride e(name, on);
        CHECK(env_switch(name, false));
    }
    {
        EnvOverride e(name, nullptr);
        CHECK(env_switch(name, true));
        CHECK(!env_switch(name, false));
    }
    {
        EnvOverride e(name, "");
        CHECK(env_switch(name, true));
    }
    // A silenced library (log level NONE, as GStreamer's element sets it) still says it, once.
    set_log_level(VMAF_LOG_LEVEL_NONE);
    for (const char *bad : {"-1", "garbage"}) {
        EnvOverride e(name, bad);
        StderrCapture err;
        CHECK(env_switch(name, true));
        CHECK(env_switch(name, true));
        CHECK(!env_switch(name, false));
        const std::string text = err.text();
        CHECK(count(text, std::string(name) + "=" + bad + " is not a switch") == 2);  // once per fallback
        CHECK(count(text, "taken as on") == 1);
    }
}

TEST_CASE("env_number: out of range or not a number is the default, said once", "[hostile][env]")
{
    const char *name = "VMAF_TEST_HOSTILE_NUMBER";
    {
        EnvOverride e(name, "3");
        CHECK(env_number(name, 1, 64, 0) == 3);
    }
    for (const char *bad : {"0", "65", "4294967297", "-3", "3x"}) {
        EnvOverride e(name, bad);
        StderrCapture err;
        CHECK(env_number(name, 1, 64, 0) == 0);
        CHECK_THAT(err.text(), Catch::Contains(std::string(name) + "=" + bad + " is not a number from 1 to 64"));
    }
}

TEST_CASE("read_regular_file: a FIFO or a device is refused at once, a bound is kept", "[hostile][file]")
{
    TempDir dir;
    const std::string fifo = (dir.path / "fifo").string();
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    std::string out, why;
    CHECK(os::read_regular_file(fifo, 1 << 20, &out, &why) == -EINVAL);
    CHECK(why == "is a FIFO, not a regular file");
    CHECK(os::read_regular_file("/dev/zero", 1 << 20, &out, &why) == -EINVAL);
    CHECK(why == "is a character device, not a regular file");
    CHECK(os::read_regular_file(dir.path.string(), 1 << 20, &out, &why) == -EINVAL);
    CHECK(why == "is a directory, not a regular file");
    CHECK(os::read_regular_file((dir.path / "none").string(), 1 << 20, &out, &why) == -ENOENT);

    const std::string file = (dir.path / "f").string();
    const std::string text(5000, 'x');
    REQUIRE(os::replace_file(file, text) == 0);
    CHECK(os::read_regular_file(file, 5000, &out, &why) == 0);
    CHECK(out == text);
    CHECK(os::read_regular_file(file, 4999, &out, &why) == -EFBIG);
}

TEST_CASE("a model path that is a FIFO or /dev/zero fails at once", "[hostile][file]")
{
    TempDir dir;
    const std::string fifo = (dir.path / "model.json").string();
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    VmafModelConfig cfg{};
    cfg.name = "vmaf";
    set_log_level(VMAF_LOG_LEVEL_ERROR);
    StderrCapture err;
    // On a thread: opening a FIFO without O_NONBLOCK waits for a writer forever.
    auto load = std::async(std::launch::async, [&] {
        VmafModel *m = nullptr;
        const int rc = vmaf_model_load_from_path(&m, &cfg, fifo.c_str());
        if (m) vmaf_model_destroy(m);
        return rc;
    });
    if (load.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
        // Let the stuck open go (a writer that closes at once) before failing.
        const int fd = open(fifo.c_str(), O_WRONLY);
        if (fd >= 0) close(fd);
        load.wait();
        FAIL("vmaf_model_load_from_path blocked on a FIFO");
    }
    CHECK(load.get() == -EINVAL);
    VmafModel *m = nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(vmaf_model_load_from_path(&m, &cfg, "/dev/zero") == -EINVAL);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
    CHECK(m == nullptr);
    const std::string text = err.text();
    CHECK_THAT(text, Catch::Contains("model file '" + fifo + "': is a FIFO, not a regular file"));
    CHECK_THAT(text, Catch::Contains("model file '/dev/zero': is a character device, not a regular file"));
}

TEST_CASE("private_directory: a link, another user's folder, one others may write are refused", "[hostile][file]")
{
    TempDir dir;
    std::string why;
    const std::string mine = (dir.path / "mine").string();
    CHECK(os::private_directory(mine, false, &why) == -ENOENT);
    CHECK(os::private_directory(mine, true, &why) == 0);
    struct stat st {};
    REQUIRE(stat(mine.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);

    const std::string link = (dir.path / "link").string();
    REQUIRE(symlink(mine.c_str(), link.c_str()) == 0);
    CHECK(os::private_directory(link, true, &why) == -EPERM);
    CHECK_THAT(why, Catch::Contains("is a symbolic link"));

    const std::string open = (dir.path / "open").string();
    REQUIRE(mkdir(open.c_str(), 0700) == 0);
    REQUIRE(chmod(open.c_str(), 0777) == 0);
    CHECK(os::private_directory(open, true, &why) == -EPERM);
    CHECK_THAT(why, Catch::Contains("has mode 0777"));
    REQUIRE(chmod(open.c_str(), 0720) == 0);
    CHECK(os::private_directory(open, true, &why) == -EPERM);

    const std::string file = (dir.path / "file").string();
    REQUIRE(os::replace_file(file, "x") == 0);
    CHECK(os::private_directory(file, true, &why) == -EPERM);
    CHECK(os::private_directory(file + "/sub", true, &why) == -ENOTDIR);

    if (geteuid() == 0) {  // root can give a folder away
        const std::string theirs = (dir.path / "theirs").string();
        REQUIRE(mkdir(theirs.c_str(), 0700) == 0);
        REQUIRE(chown(theirs.c_str(), 65534, 65534) == 0);
        CHECK(os::private_directory(theirs, true, &why) == -EPERM);
        CHECK_THAT(why, Catch::Contains("is owned by user 65534"));
    }
}

TEST_CASE("remove_stale_temporaries: old ones of a killed save go, fresh ones and others stay", "[hostile][file]")
{
    TempDir dir;
    auto make = [&](const char *name, int age_s) {
        const std::string p = (dir.path / name).string();
        REQUIRE(os::replace_file(p, "partial") == 0);
        const timespec t[2] = {{time(nullptr) - age_s, 0}, {time(nullptr) - age_s, 0}};
        REQUIRE(utimensat(AT_FDCWD, p.c_str(), t, 0) == 0);
    };
    make("pipelines-10de-2330-00000001-ab.bin.Xy12Zq", 3600);
    make("pipelines-10de-2330-00000001-ab.bin.aaaaaa", 3600);
    make("pipelines-10de-2330-00000001-ab.bin.fresh1", 5);
    make("pipelines-10de-2330-00000001-ab.bin", 3600);
    make("other.bin.Xy12Zq", 3600);
    CHECK(os::remove_stale_temporaries(dir.path.string(), "pipelines-", ".bin", 600) == 2);
    CHECK(!std::filesystem::exists(dir.path / "pipelines-10de-2330-00000001-ab.bin.Xy12Zq"));
    CHECK(std::filesystem::exists(dir.path / "pipelines-10de-2330-00000001-ab.bin.fresh1"));
    CHECK(std::filesystem::exists(dir.path / "pipelines-10de-2330-00000001-ab.bin"));
    CHECK(std::filesystem::exists(dir.path / "other.bin.Xy12Zq"));
}

TEST_CASE("vmaf_picture_alloc: every byte zero, also when the storage is an earlier picture's", "[hostile][picture]")
{
    // A context keeps released storage for the next picture of its size.
    VmafContext *ctx = nullptr;
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    REQUIRE(vmaf_init(&ctx, cfg) == 0);
    REQUIRE(vmaf_use_feature(ctx, "psnr", nullptr) == 0);
    constexpr unsigned kW = 100, kH = 60;

    // Frame 0 fills whole planes, padding included: ref 0, dist 50.
    VmafPicture r, d;
    REQUIRE(vmaf_picture_alloc(&r, VMAF_PIX_FMT_YUV420P, 8, kW, kH) == 0);
    REQUIRE(vmaf_picture_alloc(&d, VMAF_PIX_FMT_YUV420P, 8, kW, kH) == 0);
    for (unsigned p = 0; p < 3; p++) {
        std::memset(r.data[p], 0, size_t(r.stride[p]) * r.h[p]);
        std::memset(d.data[p], 50, size_t(d.stride[p]) * d.h[p]);
    }
    REQUIRE(vmaf_read_pictures(ctx, &r, &d, 0) == 0);

    // Frame 1 fills the left half of each row: ref 100, dist 102; the rest is
    // what vmaf_picture_alloc gave, which must be zero in both.
    REQUIRE(vmaf_picture_alloc(&r, VMAF_PIX_FMT_YUV420P, 8, kW, kH) == 0);
    REQUIRE(vmaf_picture_alloc(&d, VMAF_PIX_FMT_YUV420P, 8, kW, kH) == 0);
    for (VmafPicture *pic : {&r, &d})
        for (unsigned p = 0; p < 3; p++) {
            const auto *b = static_cast<const uint8_t *>(pic->data[p]);
            size_t nonzero = 0;
            for (size_t i = 0; i < size_t(pic->stride[p]) * pic->h[p]; i++) nonzero += b[i] != 0;
            INFO("plane " << p);
            CHECK(nonzero == 0);
        }
    for (unsigned p = 0; p < 3; p++)
        for (unsigned y = 0; y < r.h[p]; y++) {
            std::memset(static_cast<uint8_t *>(r.data[p]) + y * r.stride[p], 100, r.w[p] / 2);
            std::memset(static_cast<uint8_t *>(d.data[p]) + y * d.stride[p], 102, d.w[p] / 2);
        }
    REQUIRE(vmaf_read_pictures(ctx, &r, &d, 1) == 0);
    REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
    // Luma: half the samples differ by 2, so the MSE is 2.
    double s = 0;
    REQUIRE(vmaf_feature_score_at_index(ctx, "psnr_y", &s, 1) == 0);
    CHECK(s == Approx(10.0 * std::log10(255.0 * 255.0 / 2.0)).epsilon(1e-12));
    vmaf_close(ctx);
}
