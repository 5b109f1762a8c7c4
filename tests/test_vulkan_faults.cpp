// SPDX-License-Identifier: BSD-2-Clause-Patent
// GPU faults, injected: a failed queue submission, a frame wait that reports a
// lost device or times out, device memory that cannot be allocated. The call
// that meets the fault returns an error, every later call on the context
// returns one too, the context closes cleanly, and after a timeout nothing the
// GPU may still use is freed. Validation layer on; run under ASan in CI.
#include <catch2/catch.hpp>

#include <cerrno>
#include <functional>
#include <vector>

#include "context/context.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "picture/picture.h"
#include "vulkan.h"

using namespace vmaf;
using namespace vmaf::test;
using Fault = vk::State::Fault;

namespace {

struct Run {
    std::vector<int> reads;  // vmaf_read_pictures' result per frame
    int flush = 0;
    int close = 0;
};

// The first `n` frames of a golden pair through a context on `st` (psnr and
// vif on the GPU, and speed_chroma with `speed`: with threads, it collects on
// the engine's workers), recording what each call returned; `before(i)` runs
// before frame i is handed in.
Run run_frames(vk::State &st, unsigned n, unsigned threads = 0,
               const std::function<void(unsigned)> &before = [](unsigned) {}, bool speed = false)
{
    static const auto ref = load_y4m(data_dir() + "/coffee_320x240_crf28_ref.y4m");
    static const auto dis = load_y4m(data_dir() + "/coffee_320x240_crf28_dis.y4m");
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    cfg.n_threads = threads;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    REQUIRE(context_import_vulkan_state(vmaf, &st) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "psnr", nullptr) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "vif", nullptr) == 0);
    if (speed) REQUIRE(vmaf_use_feature(vmaf, "speed_chroma", nullptr) == 0);
    Run r;
    for (unsigned i = 0; i < n; i++) {
        before(i);
        VmafPicture a, b;
        picture_ref(&a, &ref[i % ref.size()]);
        picture_ref(&b, &dis[i % dis.size()]);
        const int err = vmaf_read_pictures(vmaf, &a, &b, i);
        if (err) {  // the pictures stay the caller's on an error
            vmaf_picture_unref(&a);
            vmaf_picture_unref(&b);
        }
        r.reads.push_back(err);
    }
    r.flush = vmaf_read_pictures(vmaf, nullptr, nullptr, 0);
    r.close = vmaf_close(vmaf);
    return r;
}

// The first failing read (reads.size() when none did; its error in *err); every
// read after it fails too.
unsigned first_failure(const Run &r, int *err)
{
    for (unsigned i = 0; i < r.reads.size(); i++) {
        if (!r.reads[i]) continue;
        *err = r.reads[i];
        for (unsigned j = i; j < r.reads.size(); j++) {
            INFO("frame " << j);
            CHECK(r.reads[j] < 0);
        }
        return i;
    }
    *err = 0;
    return unsigned(r.reads.size());
}

// Arms `what` (fail its next call) right before frame `at`.
std::function<void(unsigned)> fault_at(vk::State &st, Fault what, unsigned at, VkResult result)
{
    return [&st, what, at, result](unsigned i) {
        if (i == at) st.inject_fault(what, 1, result);
    };
}

}  // namespace

TEST_CASE("a failed queue submission fails that frame and every later call", "[vulkan][faults]")
{
    for (unsigned threads : {0u, 2u}) {
        INFO("threads " << threads);
        auto st = validated_state();
        const Run r = run_frames(*st, 8, threads, fault_at(*st, Fault::Submit, 3, VK_ERROR_DEVICE_LOST));
        int err = 0;
        CHECK(first_failure(r, &err) == 3);  // frame 3's own submission
        CHECK(err == -EIO);  // a lost device
        CHECK(r.flush < 0);
        CHECK(r.close == 0);
        CHECK(!st->hung());
        check_clean(*st);
    }
}

TEST_CASE("a lost device seen by a frame wait fails the call that waits and every later one", "[vulkan][faults]")
{
    // Two frames in flight: handing in frame k waits for frame k - 2 at the latest.
    auto st = validated_state(2);
    const Run r = run_frames(*st, 8, 0, fault_at(*st, Fault::Wait, 3, VK_ERROR_DEVICE_LOST));
    int err = 0;
    const unsigned at = first_failure(r, &err);
    CHECK(at >= 3);
    CHECK(at < 8);
    CHECK(err == -EIO);  // a lost device
    CHECK(r.flush < 0);
    CHECK(r.close == 0);
    CHECK(!st->hung());
    check_clean(*st);
}

TEST_CASE("a frame wait that times out: errors from then on, nothing the GPU may use is freed", "[vulkan][faults]")
{
    // Also with SpEED finishing frames on the engine's workers: the context
    // that leaves its engine to the hung GPU stops them before its sinks go.
    const bool speed = GENERATE(false, true);
    INFO("speed_chroma on workers: " << speed);
    auto st = validated_state(2);
    const Run r = run_frames(*st, 8, speed ? 3 : 0, fault_at(*st, Fault::Wait, 3, VK_TIMEOUT), speed);
    int err = 0;
    const unsigned at = first_failure(r, &err);
    CHECK(at >= 3);
    CHECK(at < 8);
    CHECK(err == -ETIMEDOUT);
    CHECK(r.flush < 0);
    CHECK(r.close == 0);
    CHECK(st->hung());
    // Nothing was destroyed under the GPU: the layer saw no object in use go.
    check_clean(*st);
    // The state keeps its device (destroying it could pull memory from under
    // the GPU); vmaf_vulkan_state_free leaks it the same way.
    (void)st.release();
}

TEST_CASE("device memory that cannot be allocated fails the first frame and every later call",
          "[vulkan][faults]")
{
    // How many device allocations the engine's start makes, then each one fails in turn.
    unsigned allocations = 0;
    {
        auto st = validated_state();
        const unsigned before = st->fault_calls(Fault::Allocate);
        run_frames(*st, 1);
        allocations = st->fault_calls(Fault::Allocate) - before;
    }
    REQUIRE(allocations >= 1);
    for (unsigned nth = 1; nth <= allocations; nth++) {
        INFO("allocation " << nth << " of " << allocations);
        auto st = validated_state();
        st->inject_fault(Fault::Allocate, nth, VK_ERROR_OUT_OF_DEVICE_MEMORY);
        const Run r = run_frames(*st, 4);
        int err = 0;
        CHECK(first_failure(r, &err) == 0);
        CHECK(err == -ENOMEM);
        CHECK(r.flush < 0);
        CHECK(r.close == 0);
        check_clean(*st);
    }
}

TEST_CASE("without a fault the same runs succeed (the harness itself is sound)", "[vulkan][faults]")
{
    auto st = validated_state(2);
    const Run r = run_frames(*st, 8, 2);
    for (int e : r.reads) CHECK(e == 0);
    CHECK(r.flush == 0);
    CHECK(r.close == 0);
    check_clean(*st);
}
