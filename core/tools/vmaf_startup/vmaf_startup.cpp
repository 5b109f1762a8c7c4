// SPDX-License-Identifier: BSD-2-Clause-Patent
// Start-up as a client that never chooses a backend sees it (libvmaf.h only;
// VMAF_BACKEND decides): the time to the first score of a short clip, and the
// time for a second context, opened while the first is still open, to be
// ready (its first picture read: device and pipelines in place).
//
//   VMAF_BACKEND=vulkan vmaf_startup [--width W --height H --frames N --model VERSION]
//
// Prints one JSON object (milliseconds, wall clock):
//   init_ms          vmaf_init of the first context (the shared device is made here)
//   first_score_ms   from before that vmaf_init to the first frame's VMAF score,
//                    model loading and the whole clip (N frames, flushed) included
//   second_init_ms   vmaf_init of the second context (the device is shared)
//   second_ready_ms  from before its vmaf_init to its first picture read (its
//                    features registered, its engine and pipelines made)
//   vmaf             the first context's mean score; the second's must equal it
//
// With --contexts K, then K contexts one after another, each alone in the
// process (the earlier ones closed), each scoring one frame and closed, as a
// client that opens a context per frame does (VapourSynth-VMAF's Metric):
//   context_ms       the mean time of one such context, vmaf_init to vmaf_close
//   context_max_ms   the slowest of them
// Each must score frame 0 as the first context did.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "libvmaf/libvmaf.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// A textured frame (the distorted one a little noisier), frame i moving.
void fill(VmafPicture *p, unsigned i, bool dist)
{
    uint32_t seed = 12345u + i * 7u + (dist ? 1000u : 0u);
    for (unsigned pl = 0; pl < 3; pl++) {
        auto *row = static_cast<uint8_t *>(p->data[pl]);
        for (unsigned y = 0; y < p->h[pl]; y++, row += p->stride[pl]) {
            for (unsigned x = 0; x < p->w[pl]; x++) {
                seed = seed * 1664525u + 1013904223u;
                const int noise = dist ? int(seed >> 29) - 4 : 0;
                const int v = int(((x + 3 * i) ^ (y * 3)) & 0xff) / 2 + 64 + noise;
                row[x] = uint8_t(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    }
}

struct Clip {
    std::vector<VmafPicture> ref, dist;
};

// Fresh pictures of the clip (vmaf_read_pictures takes them).
int make_clip(unsigned w, unsigned h, unsigned n, Clip *c)
{
    for (unsigned i = 0; i < n; i++) {
        VmafPicture r, d;
        if (vmaf_picture_alloc(&r, VMAF_PIX_FMT_YUV420P, 8, w, h) ||
            vmaf_picture_alloc(&d, VMAF_PIX_FMT_YUV420P, 8, w, h))
            return -1;
        fill(&r, i, false);
        fill(&d, i, true);
        c->ref.push_back(r);
        c->dist.push_back(d);
    }
    return 0;
}

// A count of decimal digits only, 1 to 65536; 0 when it is anything else.
unsigned count(const char *s)
{
    if (!*s || std::strlen(s) > 5 || std::strspn(s, "0123456789") != std::strlen(s)) return 0;
    const unsigned long v = std::strtoul(s, nullptr, 10);
    return v <= 65536 ? unsigned(v) : 0;
}

}  // namespace

int main(int argc, char **argv)
{
    unsigned w = 1920, h = 1080, n = 2, contexts = 0;
    bool contexts_given = false;
    const char *version = "vmaf_v0.6.1";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--width")) w = count(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--height")) h = count(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--frames")) n = count(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--model")) version = argv[i + 1];
        else if (!std::strcmp(argv[i], "--contexts")) contexts = count(argv[i + 1]), contexts_given = true;
        else {
            std::fprintf(stderr, "usage: %s [--width W --height H --frames N --model VERSION --contexts K]\n",
                         argv[0]);
            return 2;
        }
    }
    if (!w || !h || !n || (contexts_given && !contexts)) {
        std::fprintf(stderr, "%s: --width, --height, --frames and --contexts are whole numbers from 1 to 65536\n",
                     argv[0]);
        return 2;
    }
    // The pictures are made before the clock starts: the caller's decoding.
    Clip c1, c2;
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_WARNING;
    cfg.n_threads = 0;

    const Clock::time_point t0 = Clock::now();
    VmafContext *a = nullptr;
    if (int err = vmaf_init(&a, cfg)) {
        std::fprintf(stderr, "vmaf_init: %d\n", err);
        return 1;
    }
    const double init_ms = ms_since(t0);
    // Allocated after vmaf_init, as FFmpeg's filter and GStreamer's element
    // do: where the device imports host memory, these are read in place.
    // Their allocation and filling is not timed.
    const Clock::time_point t_alloc = Clock::now();
    if (make_clip(w, h, n, &c1)) return 1;
    const double alloc_ms = ms_since(t_alloc);
    VmafModel *model = nullptr;
    VmafModelConfig mcfg{};
    if (vmaf_model_load(&model, &mcfg, version) || vmaf_use_features_from_model(a, model)) return 1;
    for (unsigned i = 0; i < n; i++)
        if (vmaf_read_pictures(a, &c1.ref[i], &c1.dist[i], i)) return 1;
    if (vmaf_read_pictures(a, nullptr, nullptr, 0)) return 1;
    double first;
    if (vmaf_score_at_index(a, model, &first, 0)) return 1;
    const double first_score_ms = ms_since(t0) - alloc_ms;

    if (make_clip(w, h, n, &c2)) return 1;
    const Clock::time_point t1 = Clock::now();
    VmafContext *b = nullptr;
    if (vmaf_init(&b, cfg)) return 1;
    const double second_init_ms = ms_since(t1);
    if (vmaf_use_features_from_model(b, model)) return 1;
    if (vmaf_read_pictures(b, &c2.ref[0], &c2.dist[0], 0)) return 1;
    const double second_ready_ms = ms_since(t1);
    for (unsigned i = 1; i < n; i++)
        if (vmaf_read_pictures(b, &c2.ref[i], &c2.dist[i], i)) return 1;
    if (vmaf_read_pictures(b, nullptr, nullptr, 0)) return 1;

    double ma, mb;
    if (vmaf_score_pooled(a, model, VMAF_POOL_METHOD_MEAN, &ma, 0, n - 1) ||
        vmaf_score_pooled(b, model, VMAF_POOL_METHOD_MEAN, &mb, 0, n - 1))
        return 1;
    vmaf_close(b);
    vmaf_close(a);

    // A context per frame, each alone in the process.
    double context_sum_ms = 0, context_max_ms = 0;
    for (unsigned k = 0; k < contexts; k++) {
        Clip one;
        if (make_clip(w, h, 1, &one)) return 1;
        const Clock::time_point tk = Clock::now();
        VmafContext *c = nullptr;
        double score;
        if (vmaf_init(&c, cfg) || vmaf_use_features_from_model(c, model) ||
            vmaf_read_pictures(c, &one.ref[0], &one.dist[0], 0) || vmaf_read_pictures(c, nullptr, nullptr, 0) ||
            vmaf_score_at_index(c, model, &score, 0))
            return 1;
        vmaf_close(c);
        const double ms = ms_since(tk);
        context_sum_ms += ms;
        if (ms > context_max_ms) context_max_ms = ms;
        if (score != first) {
            std::fprintf(stderr, "context %u scored frame 0 %.17g, the first context %.17g\n", k + 1, score, first);
            return 1;
        }
    }
    vmaf_model_destroy(model);
    const char *backend = std::getenv("VMAF_BACKEND");
    std::string per_context;
    if (contexts) {
        char buf[160];
        std::snprintf(buf, sizeof buf, ", \"contexts\": %u, \"context_ms\": %.2f, \"context_max_ms\": %.2f", contexts,
                      context_sum_ms / contexts, context_max_ms);
        per_context = buf;
    }
    std::printf("{\"backend\": \"%s\", \"width\": %u, \"height\": %u, \"frames\": %u, \"init_ms\": %.2f, "
                "\"first_score_ms\": %.2f, \"second_init_ms\": %.2f, \"second_ready_ms\": %.2f, \"vmaf\": %.6f%s}\n",
                backend ? backend : "", w, h, n, init_ms, first_score_ms, second_init_ms, second_ready_ms, ma,
                per_context.c_str());
    if (ma != mb) {
        std::fprintf(stderr, "the second context scored %.17g, the first %.17g\n", mb, ma);
        return 1;
    }
    return 0;
}
