// Picture allocation, reference counting and the preallocation pool.
#include <catch2/catch.hpp>

#include <cerrno>
#include <thread>

#include "libvmaf/libvmaf.h"
#include "picture/picture.h"
#include "picture/pool.h"

TEST_CASE("picture geometry follows the pixel format", "[picture]")
{
    VmafPicture p;
    REQUIRE(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 322, 186) == 0);
    CHECK(p.w[0] == 322);
    CHECK(p.h[0] == 186);
    CHECK(p.w[1] == 161);
    CHECK(p.h[1] == 93);
    CHECK(p.stride[0] % 64 == 0);
    CHECK(vmaf_picture_unref(&p) == 0);

    REQUIRE(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV422P, 10, 321, 11) == 0);
    CHECK(p.w[1] == 161);
    CHECK(p.h[1] == 11);
    CHECK(p.stride[1] >= 161 * 2);
    CHECK(vmaf_picture_unref(&p) == 0);

    REQUIRE(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV400P, 16, 8, 8) == 0);
    CHECK(p.data[1] == nullptr);
    CHECK(vmaf_picture_unref(&p) == 0);
}

TEST_CASE("picture allocation rejects bad arguments", "[picture]")
{
    VmafPicture p;
    CHECK(vmaf_picture_alloc(nullptr, VMAF_PIX_FMT_YUV420P, 8, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&p, VMAF_PIX_FMT_UNKNOWN, 8, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 9, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 0, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 16, 100000) == -EINVAL);
    CHECK(vmaf_picture_unref(nullptr) == -EINVAL);
    VmafPicture empty{};
    CHECK(vmaf_picture_unref(&empty) == -EINVAL);
}

TEST_CASE("picture references share storage until the last unref", "[picture]")
{
    VmafPicture a, b;
    REQUIRE(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV444P, 8, 16, 16) == 0);
    vmaf::picture_ref(&b, &a);
    CHECK(b.data[0] == a.data[0]);
    static_cast<uint8_t *>(a.data[0])[0] = 42;
    REQUIRE(vmaf_picture_unref(&a) == 0);
    CHECK(static_cast<uint8_t *>(b.data[0])[0] == 42);  // still alive (ASan checks)
    REQUIRE(vmaf_picture_unref(&b) == 0);
}

TEST_CASE("preallocated pictures are recycled and fetch waits for a free one", "[picture]")
{
    std::unique_ptr<vmaf::PicturePool> pool;
    REQUIRE(vmaf::PicturePool::create(VMAF_PIX_FMT_YUV420P, 8, 64, 64, 2, &pool) == 0);
    VmafPicture a, b, c;
    REQUIRE(pool->fetch(&a) == 0);
    REQUIRE(pool->fetch(&b) == 0);
    void *first = a.data[0];
    std::thread releaser([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        vmaf_picture_unref(&a);
    });
    REQUIRE(pool->fetch(&c) == 0);  // blocks until the releaser frees `a`
    releaser.join();
    CHECK(c.data[0] == first);
    vmaf_picture_unref(&b);
    pool.reset();  // pictures may outlive the pool
    vmaf_picture_unref(&c);
}
