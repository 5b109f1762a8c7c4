// SPDX-License-Identifier: BSD-2-Clause-Patent
// Allocation failures inside the exports: an export that allocates returns
// -ENOMEM (and logs why) when an allocation fails, instead of letting
// std::bad_alloc cross the C ABI and end the caller's process. This program
// replaces the global operator new: armed with n, it lets n allocations
// through and fails the next one. Each test fails the first, second, ...
// allocation of one call in turn, until a run allocates nothing that fails.
#include <catch2/catch.hpp>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <new>

#include "libvmaf/feature.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_vulkan.h"

namespace {

std::atomic<long> g_left{-1};  // allocations let through before one fails; -1: off
std::atomic<long> g_failed{0};

void *allocate(std::size_t n)
{
    long left = g_left.load();
    while (left >= 0 && !g_left.compare_exchange_weak(left, left - 1)) {
    }
    if (left == 0) {
        g_failed++;
        throw std::bad_alloc();
    }
    if (void *p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}

// Runs call() with its n-th allocation failing, for n = 0, 1, ... until a run
// has no failure; each run must return -ENOMEM, the last 0. Returns how many
// runs failed an allocation.
template <typename Call>
long fail_each_allocation(Call &&call)
{
    for (long n = 0;; ++n) {
        g_failed = 0;
        const int rc = call(n);
        if (!g_failed) {
            REQUIRE(rc == 0);
            return n;
        }
        INFO("allocation " << n << " failed");
        REQUIRE(rc == -ENOMEM);
    }
}

struct Armed {
    explicit Armed(long n) { g_left = n; }
    ~Armed() { g_left = -1; }
};

}  // namespace

void *operator new(std::size_t n) { return allocate(n); }
void *operator new[](std::size_t n) { return allocate(n); }
// The nothrow forms too: a nothrow allocation the sanitizers' runtime made would
// otherwise be freed by the delete below (a mismatch under AddressSanitizer), and
// failing them checks the library's own nullptr paths.
void *operator new(std::size_t n, const std::nothrow_t &) noexcept
{
    try {
        return allocate(n);
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}
void *operator new[](std::size_t n, const std::nothrow_t &tag) noexcept { return operator new(n, tag); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }

TEST_CASE("vmaf_feature_dictionary_set returns -ENOMEM when an allocation fails")
{
    const long failing = fail_each_allocation([](long n) {
        VmafFeatureDictionary *d = nullptr;
        REQUIRE(vmaf_feature_dictionary_set(&d, "a", "1") == 0);
        int rc;
        {
            const Armed armed(n);
            // Both strings longer than any small-string buffer: the entry allocates.
            rc = vmaf_feature_dictionary_set(&d, "a_key_long_enough_for_the_heap", "and a value as long as that");
        }
        REQUIRE(vmaf_feature_dictionary_free(&d) == 0);
        return rc;
    });
    CHECK(failing >= 2);  // the entries' array and at least one string
}

TEST_CASE("vmaf_use_feature returns -ENOMEM when an allocation fails")
{
    const long failing = fail_each_allocation([](long n) {
        VmafContext *ctx = nullptr;
        VmafConfiguration cfg{};
        cfg.log_level = VMAF_LOG_LEVEL_NONE;
        REQUIRE(vmaf_init(&ctx, cfg) == 0);
        int rc;
        {
            const Armed armed(n);
            rc = vmaf_use_feature(ctx, "psnr", nullptr);
        }
        REQUIRE(vmaf_close(ctx) == 0);
        return rc;
    });
    CHECK(failing >= 1);
}

#if VMAF_HAVE_VULKAN
TEST_CASE("vmaf_vulkan_preallocate_pictures returns -ENOMEM when an allocation fails")
{
    // Host pictures need no device: the export's own allocations only.
    const long failing = fail_each_allocation([](long n) {
        VmafContext *ctx = nullptr;
        VmafConfiguration cfg{};
        cfg.log_level = VMAF_LOG_LEVEL_NONE;
        REQUIRE(vmaf_init(&ctx, cfg) == 0);
        VmafVulkanPictureConfiguration pc{};
        pc.pic_params.w = 64;
        pc.pic_params.h = 48;
        pc.pic_params.bpc = 8;
        pc.pic_params.pix_fmt = VMAF_PIX_FMT_YUV420P;
        pc.pic_cnt = 2;
        pc.pic_prealloc_method = VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_HOST;
        int rc;
        {
            const Armed armed(n);
            rc = vmaf_vulkan_preallocate_pictures(ctx, pc);
        }
        REQUIRE(vmaf_close(ctx) == 0);
        return rc;
    });
    CHECK(failing >= 1);
}
#endif
