// The C API's argument checks and error paths: negative errno, never a crash.
#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>

#include "libvmaf/libvmaf.h"

namespace {

struct Ctx {
    VmafContext *v = nullptr;
    explicit Ctx(unsigned threads = 0)
    {
        VmafConfiguration cfg{};
        cfg.n_threads = threads;
        REQUIRE(vmaf_init(&v, cfg) == 0);
    }
    ~Ctx() { vmaf_close(v); }
};

VmafPicture pic(unsigned w, unsigned h, VmafPixelFormat fmt = VMAF_PIX_FMT_YUV420P, unsigned bpc = 8)
{
    VmafPicture p;
    REQUIRE(vmaf_picture_alloc(&p, fmt, bpc, w, h) == 0);
    return p;
}

}  // namespace

TEST_CASE("NULL arguments are rejected", "[api]")
{
    VmafConfiguration cfg{};
    CHECK(vmaf_init(nullptr, cfg) == -EINVAL);
    CHECK(vmaf_close(nullptr) == -EINVAL);
    CHECK(vmaf_use_feature(nullptr, "psnr", nullptr) == -EINVAL);
    CHECK(vmaf_read_pictures(nullptr, nullptr, nullptr, 0) == -EINVAL);
    double s;
    CHECK(vmaf_feature_score_at_index(nullptr, "psnr_y", &s, 0) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(nullptr, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 0, 0) == -EINVAL);
    CHECK(vmaf_fetch_preallocated_picture(nullptr, nullptr) == -EINVAL);
    CHECK(vmaf_feature_dictionary_set(nullptr, "a", "b") == -EINVAL);
    CHECK(vmaf_feature_dictionary_free(nullptr) == -EINVAL);

    Ctx c;
    CHECK(vmaf_use_feature(c.v, nullptr, nullptr) == -EINVAL);
    CHECK(vmaf_feature_score_at_index(c.v, nullptr, &s, 0) == -EINVAL);
    CHECK(vmaf_feature_score_at_index(c.v, "psnr_y", nullptr, 0) == -EINVAL);
    VmafPicture a = pic(16, 16);
    CHECK(vmaf_read_pictures(c.v, &a, nullptr, 0) == -EINVAL);  // one of two
    vmaf_picture_unref(&a);
    CHECK(vmaf_version() != nullptr);
}

TEST_CASE("unknown features and pictures without features are errors", "[api]")
{
    Ctx c;
    CHECK(vmaf_use_feature(c.v, "no_such_feature", nullptr) == -EINVAL);
    VmafPicture a = pic(16, 16), b = pic(16, 16);
    CHECK(vmaf_read_pictures(c.v, &a, &b, 0) == -EINVAL);  // nothing registered
    vmaf_picture_unref(&a);
    vmaf_picture_unref(&b);
}

TEST_CASE("mismatched pictures are refused with -EINVAL", "[api]")
{
    Ctx c;
    REQUIRE(vmaf_use_feature(c.v, "psnr", nullptr) == 0);
    VmafPicture a = pic(32, 32), b = pic(32, 16);
    CHECK(vmaf_read_pictures(c.v, &a, &b, 0) == -EINVAL);  // size
    vmaf_picture_unref(&b);
    b = pic(32, 32, VMAF_PIX_FMT_YUV444P);
    CHECK(vmaf_read_pictures(c.v, &a, &b, 0) == -EINVAL);  // chroma layout
    vmaf_picture_unref(&b);
    b = pic(32, 32, VMAF_PIX_FMT_YUV420P, 10);
    CHECK(vmaf_read_pictures(c.v, &a, &b, 0) == -EINVAL);  // bit depth
    vmaf_picture_unref(&b);
    b = pic(32, 32);
    REQUIRE(vmaf_read_pictures(c.v, &a, &b, 0) == 0);  // ownership passes on success

    VmafPicture x = pic(64, 64), y = pic(64, 64);
    CHECK(vmaf_read_pictures(c.v, &x, &y, 1) == -EINVAL);  // geometry changed mid-stream
    vmaf_picture_unref(&x);
    vmaf_picture_unref(&y);
}

TEST_CASE("flush ends the stream; scores of missing frames are -ENOENT", "[api]")
{
    Ctx c(2);
    REQUIRE(vmaf_use_feature(c.v, "psnr", nullptr) == 0);
    REQUIRE(vmaf_read_pictures(c.v, nullptr, nullptr, 0) == 0);  // zero frames
    double s;
    CHECK(vmaf_feature_score_at_index(c.v, "psnr_y", &s, 0) == -ENOENT);
    CHECK(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 0, 0) == -ENOENT);
    CHECK(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_UNKNOWN, &s, 0, 0) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 2, 1) == -EINVAL);
    VmafPicture a = pic(16, 16), b = pic(16, 16);
    CHECK(vmaf_read_pictures(c.v, &a, &b, 0) == -EINVAL);  // after flush
    CHECK(vmaf_read_pictures(c.v, nullptr, nullptr, 0) == -EINVAL);  // second flush
    vmaf_picture_unref(&a);
    vmaf_picture_unref(&b);
}

TEST_CASE("imported scores pool like computed ones", "[api]")
{
    Ctx c;
    const double v[] = {1.0, 3.0, 0.5};
    for (unsigned i = 0; i < 3; i++) REQUIRE(vmaf_import_feature_score(c.v, "custom", v[i], i) == 0);
    CHECK(vmaf_import_feature_score(c.v, "custom", 9.0, 1) == -EEXIST);
    double s;
    REQUIRE(vmaf_feature_score_pooled(c.v, "custom", VMAF_POOL_METHOD_MEAN, &s, 0, 2) == 0);
    CHECK(s == Approx(1.5));
    REQUIRE(vmaf_feature_score_pooled(c.v, "custom", VMAF_POOL_METHOD_MIN, &s, 0, 2) == 0);
    CHECK(s == 0.5);
    REQUIRE(vmaf_feature_score_pooled(c.v, "custom", VMAF_POOL_METHOD_MAX, &s, 0, 2) == 0);
    CHECK(s == 3.0);
    REQUIRE(vmaf_feature_score_pooled(c.v, "custom", VMAF_POOL_METHOD_HARMONIC_MEAN, &s, 0, 2) == 0);
    CHECK(s == Approx(3.0 / (1 / 2.0 + 1 / 4.0 + 1 / 1.5) - 1.0));
}

TEST_CASE("preallocated pictures through the API", "[api]")
{
    Ctx c(2);
    REQUIRE(vmaf_use_feature(c.v, "psnr", nullptr) == 0);
    VmafPicture p;
    CHECK(vmaf_fetch_preallocated_picture(c.v, &p) == -EINVAL);  // no pool yet
    VmafPictureConfiguration cfg{};
    cfg.pic_params = {64, 48, 8, VMAF_PIX_FMT_YUV420P};
    cfg.pic_cnt = 4;
    REQUIRE(vmaf_preallocate_pictures(c.v, cfg) == 0);
    // 20 frames through a pool of 4: pictures must come back as frames finish.
    for (unsigned i = 0; i < 20; i++) {
        VmafPicture a, b;
        REQUIRE(vmaf_fetch_preallocated_picture(c.v, &a) == 0);
        REQUIRE(vmaf_fetch_preallocated_picture(c.v, &b) == 0);
        for (unsigned pl = 0; pl < 3; pl++) {
            std::memset(a.data[pl], 50, size_t(a.stride[pl]) * a.h[pl]);
            std::memset(b.data[pl], 52, size_t(b.stride[pl]) * b.h[pl]);
        }
        REQUIRE(vmaf_read_pictures(c.v, &a, &b, i) == 0);
    }
    REQUIRE(vmaf_read_pictures(c.v, nullptr, nullptr, 0) == 0);
    double s;
    REQUIRE(vmaf_feature_score_at_index(c.v, "psnr_y", &s, 19) == 0);
    CHECK(s == Approx(10 * std::log10(255.0 * 255.0 / 4.0)));
}

TEST_CASE("an exhausted pool: the timed fetch returns instead of blocking", "[api]")
{
    Ctx c;
    VmafPicture p[3];
    CHECK(vmaf_fetch_preallocated_picture_timeout(c.v, &p[0], 0) == -EINVAL);  // no pool yet
    VmafPictureConfiguration cfg{};
    cfg.pic_params = {32, 16, 8, VMAF_PIX_FMT_YUV420P};
    cfg.pic_cnt = 2;
    REQUIRE(vmaf_preallocate_pictures(c.v, cfg) == 0);
    REQUIRE(vmaf_fetch_preallocated_picture_timeout(c.v, &p[0], 0) == 0);
    REQUIRE(vmaf_fetch_preallocated_picture_timeout(c.v, &p[1], 5) == 0);
    CHECK(vmaf_fetch_preallocated_picture_timeout(c.v, &p[2], 0) == -EBUSY);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(vmaf_fetch_preallocated_picture_timeout(c.v, &p[2], 50) == -ETIMEDOUT);
    CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(50));
    // A picture handed back is there for the next fetch, blocking or not.
    vmaf_picture_unref(&p[0]);
    CHECK(vmaf_fetch_preallocated_picture_timeout(c.v, &p[2], 0) == 0);
    vmaf_picture_unref(&p[1]);
    CHECK(vmaf_fetch_preallocated_picture_timeout(c.v, &p[1], -1) == 0);
    vmaf_picture_unref(&p[1]);
    vmaf_picture_unref(&p[2]);
    CHECK(vmaf_fetch_preallocated_picture_timeout(nullptr, &p[0], 0) == -EINVAL);
}
