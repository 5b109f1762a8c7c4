// SPDX-License-Identifier: BSD-2-Clause-Patent
// One adopted device shared by several contexts on several threads at once,
// submissions going through the caller's queue-lock callbacks: every context's
// scores equal the CPU's. Contexts with frame threads finish SpEED's frames on
// the engine's workers (ADR 0066). Validation layer on; also built under
// ThreadSanitizer (scripts/tsan.sh).
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include "gpu/engine.h"
#include "test_vulkan_import_harness.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// Every feature with a GPU twin, over the pair, on `state` (or the CPU).
// *on_workers: the engine's features that finish frames on its workers.
int score(VmafVulkanState *state, const Pair &pair, unsigned threads, Scores *out, unsigned *on_workers = nullptr)
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    cfg.n_threads = threads;
    VmafContext *ctx = nullptr;
    if (int err = vmaf_init(&ctx, cfg)) return err;
    int err = state ? vmaf_vulkan_import_state(ctx, state) : 0;
    for (const char *f : {"psnr", "motion", "vif", "adm", "speed_chroma", "speed_temporal"})
        if (!err) err = vmaf_use_feature(ctx, f, nullptr);
    for (size_t i = 0; !err && i < pair.ref.size(); i++) {
        VmafPicture r, d;
        picture_ref(&r, &pair.ref[i]);
        picture_ref(&d, &pair.dist[i]);
        err = vmaf_read_pictures(ctx, &r, &d, unsigned(i));
    }
    if (!err) err = vmaf_read_pictures(ctx, nullptr, nullptr, 0);
    if (!err) *out = scores_of(ctx);
    if (on_workers && ctx->ctx.vulkan_engine()) *on_workers = ctx->ctx.vulkan_engine()->collecting_on_workers();
    vmaf_close(ctx);
    return err;
}

}  // namespace

TEST_CASE("contexts on several threads share one adopted device through the caller's queue lock",
          "[vulkan][threads]")
{
    Harness h;
    VmafVulkanState *state = nullptr;
    REQUIRE(vmaf_vulkan_state_init_external(&state, h.handles()) == 0);
    const Pair pair = load_pair("coffee_320x240_crf28");
    Scores want;
    REQUIRE(score(nullptr, pair, 0, &want) == 0);

    constexpr unsigned kContexts = 4;
    std::vector<Scores> got(kContexts);
    std::vector<int> err(kContexts, -1);
    std::vector<unsigned> on_workers(kContexts, 99);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < kContexts; t++)
        threads.emplace_back([&, t] { err[t] = score(state, pair, t % 2 ? 2 : 0, &got[t], &on_workers[t]); });
    for (auto &th : threads) th.join();
    for (unsigned t = 0; t < kContexts; t++) {
        INFO("context " << t);
        REQUIRE(err[t] == 0);
        CHECK(on_workers[t] == (t % 2 ? 2u : 0u));  // speed_chroma and speed_temporal
        require_identical(got[t], want, unsigned(pair.ref.size()));
    }
    REQUIRE(vmaf_vulkan_state_free(&state) == 0);
    CHECK(h.locks() >= int(kContexts * pair.ref.size()));
    CHECK(h.locks() == h.unlocks());
    h.check_clean();
}
