// SPDX-License-Identifier: BSD-2-Clause-Patent
// Picture allocation, reference counting and the preallocation pool.
#include <catch2/catch.hpp>

#include <cerrno>
#include <memory>
#include <thread>
#include <vector>

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

TEST_CASE("a released picture's storage is kept for the next of its size while a context lives", "[picture]")
{
    using namespace vmaf;
    // No context: every released picture is freed.
    VmafPicture p;
    REQUIRE(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 64, 48) == 0);
    REQUIRE(vmaf_picture_unref(&p) == 0);
    CHECK(spare_count() == 0);

    VmafContext *ctx = nullptr;
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    REQUIRE(vmaf_init(&ctx, cfg) == 0);

    REQUIRE(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 64, 48) == 0);
    void *const first = p.data[0];
    static_cast<uint8_t *>(p.data[0])[0] = 0x5a;
    REQUIRE(vmaf_picture_unref(&p) == 0);
    CHECK(spare_count() == 1);
    // The same size takes it, cleared (every picture from vmaf_picture_alloc
    // starts at zero); another size does not.
    VmafPicture q;
    REQUIRE(vmaf_picture_alloc(&q, VMAF_PIX_FMT_YUV444P, 10, 64, 48) == 0);
    CHECK(q.data[0] != first);
    REQUIRE(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 64, 48) == 0);
    CHECK(p.data[0] == first);
    CHECK(static_cast<uint8_t *>(p.data[0])[0] == 0);
    CHECK(spare_count() == 0);

    // Storage someone else still holds is not kept: it goes with its last holder.
    std::shared_ptr<HostStorage> held = picture_host_storage(p);
    int freed = 0;
    held->add_hook([&] { freed++; });
    REQUIRE(vmaf_picture_unref(&p) == 0);
    CHECK(spare_count() == 0);
    held.reset();
    CHECK(freed == 1);

    // At most kMaxSpares, the oldest freed first.
    std::vector<VmafPicture> many(kMaxSpares + 3);
    for (VmafPicture &m : many) REQUIRE(vmaf_picture_alloc(&m, VMAF_PIX_FMT_YUV400P, 8, 32, 32) == 0);
    int hooks = 0;
    for (VmafPicture &m : many) picture_host_storage(m)->add_hook([&] { hooks++; });
    for (VmafPicture &m : many) REQUIRE(vmaf_picture_unref(&m) == 0);
    CHECK(hooks == 3);
    REQUIRE(vmaf_picture_unref(&q) == 0);  // a ninth of another size: the oldest goes
    CHECK(hooks == 4);
    CHECK(spare_count() == kMaxSpares);

    // The last context's end frees them all.
    vmaf_close(ctx);
    CHECK(hooks == 3 + int(kMaxSpares));
    CHECK(spare_count() == 0);
    REQUIRE(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 64, 48) == 0);
    REQUIRE(vmaf_picture_unref(&p) == 0);
    CHECK(spare_count() == 0);
}
