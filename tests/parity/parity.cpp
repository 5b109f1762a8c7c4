// SPDX-License-Identifier: BSD-2-Clause-Patent
// The parity harness's paths (parity.h): the engine, the C API and the Vulkan
// import API, each checked against the CPU extractor, plus the bench mode.
#include "parity.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>

#include "bench.h"
#include "context/context.h"
#include "feature/registry.h"
#include "gpu/engine.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "options.h"
#include "picture/picture.h"
#include "pictures.h"
#include "sink.h"
#include "test_vulkan_import_harness.h"
#include "v1_models.h"
#include "vulkan.h"

namespace vmaf::test::parity {

namespace {

// What the process shares between test cases, released by release_shared().
struct Shared {
    std::map<std::string, std::unique_ptr<Frames>> golden;
    std::map<unsigned, std::unique_ptr<vk::State>> states;
    VmafVulkanState *api_state = nullptr;    // the public API's, on the default device
    std::unique_ptr<Harness> caller;         // a caller's device, for the import API
    VmafVulkanState *caller_state = nullptr; // adopted from it
    std::map<std::string, std::unique_ptr<Pair>> import_pairs;
    std::vector<std::pair<std::string, const Table &(*)()>> tables;
};
Shared &shared()
{
    static Shared s;
    return s;
}

std::string format_name(VmafPixelFormat f)
{
    switch (f) {
    case VMAF_PIX_FMT_YUV400P: return "4:0:0";
    case VMAF_PIX_FMT_YUV420P: return "4:2:0";
    case VMAF_PIX_FMT_YUV422P: return "4:2:2";
    case VMAF_PIX_FMT_YUV444P: return "4:4:4";
    default: return "format " + std::to_string(int(f));
    }
}

std::string describe(const Synthetic &c)
{
    std::ostringstream s;
    s << format_name(c.fmt) << " " << c.bpc << "-bit " << c.w << "x" << c.h << ", " << c.frames << " frames";
    for (const auto &[k, v] : c.options) s << ", " << k << "=" << v;
    if (*c.what) s << " (" << c.what << ")";
    return s.str();
}

// New references to `pics`, for a context to take.
std::vector<VmafPicture> refs(const std::vector<VmafPicture> &pics)
{
    std::vector<VmafPicture> out(pics.size());
    for (size_t i = 0; i < pics.size(); i++) picture_ref(&out[i], &pics[i]);
    return out;
}

// A quiet context running the table's feature with its defaults: on `api`
// (public import), on `internal` (the import the C shim uses), or on the CPU.
VmafContext *open_feature_context(const Table &t, VmafVulkanState *api, vk::State *internal)
{
    VmafContext *ctx = nullptr;
    REQUIRE(vmaf_init(&ctx, quiet_config()) == 0);
    if (api) REQUIRE(vmaf_vulkan_import_state(ctx, api) == 0);
    if (internal) REQUIRE(context_import_vulkan_state(ctx, internal) == 0);
    REQUIRE(vmaf_use_feature(ctx, t.extractor->name, nullptr) == 0);
    return ctx;
}

// Every frame of `f` through `ctx`, flushed; the scores (and the context closed).
Scores score_frames(VmafContext *ctx, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist,
                    bool *gpu_engine = nullptr)
{
    auto r = refs(ref), d = refs(dist);
    for (size_t i = 0; i < r.size(); i++) REQUIRE(vmaf_read_pictures(ctx, &r[i], &d[i], unsigned(i)) == 0);
    REQUIRE(vmaf_read_pictures(ctx, nullptr, nullptr, 0) == 0);
    if (gpu_engine) *gpu_engine = ctx->ctx.vulkan_engine() != nullptr;
    Scores s = scores_of(ctx);
    REQUIRE(vmaf_close(ctx) == 0);
    return s;
}

VmafVulkanState *api_state()
{
    Shared &s = shared();
    if (!s.api_state) s.api_state = validated_api_state();
    return s.api_state;
}

Harness &caller()
{
    Shared &s = shared();
    if (!s.caller) {
        s.caller = std::make_unique<Harness>();
        REQUIRE(vmaf_vulkan_state_init_external(&s.caller_state, s.caller->handles()) == 0);
    }
    return *s.caller;
}

// The pairs the import path runs: 8-bit 4:2:0 at an odd size and 10-bit, as
// planar R8 and R16 images (the formats every device copies and samples); the
// first VMAF_TEST_MAX_FRAMES frames under the sanitizers (load_pair).
const char *const kImportPairs[] = {"chelsea_322x186_rescale", "rocket_320x240_10bit_crf30"};

const Pair &import_pair(const std::string &name)
{
    auto &p = shared().import_pairs[name];
    if (!p) p = std::make_unique<Pair>(load_pair(name));
    return *p;
}

// Every frame of `pair` imported as `c` through a ring of image sets, scored by
// a context running the table's feature on the caller's device.
Scores imported_scores(const Table &t, const Pair &pair, const ImageCase &c, Read read, bool *gpu_engine)
{
    Harness &h = caller();
    VmafContext *ctx = open_feature_context(t, shared().caller_state, nullptr);
    Scores s;
    {
        const auto sets = import_through_ring(h, ctx, pair, c, VK_IMAGE_LAYOUT_UNDEFINED, 3, read);
        *gpu_engine = ctx->ctx.vulkan_engine() != nullptr;
        s = scores_of(ctx);
        REQUIRE(vmaf_close(ctx) == 0);
    }  // the sets wait for the library's last signals before they go
    return s;
}

// The engine's and the CPU oracle's scores of `ref`/`dist`.
MapSink engine_scores(vk::State &st, const Table &t, const FeatureOptions &opts, const std::vector<VmafPicture> &ref,
                      const std::vector<VmafPicture> &dist)
{
    return run_engine(st, *t.extractor, opts, ref, t.reference_only ? ref : dist, t.check_second_flush);
}
MapSink cpu_scores(const Table &t, const FeatureOptions &opts, const std::vector<VmafPicture> &ref,
                   const std::vector<VmafPicture> &dist)
{
    const std::vector<VmafPicture> &d = t.reference_only ? ref : dist;
    return t.cpu ? t.cpu(opts, ref, d) : run_extractor(*t.extractor, opts, ref, d);
}

// Equal, or within `tol` (the table's bound against the CPU; 0 between two GPU runs).
bool same(const Table &t, double a, double b, double tol)
{
    return a == b || (t.nan_equal && std::isnan(a) && std::isnan(b)) || std::fabs(a - b) <= tol;
}

// Every score and aggregate of `cpu`, and nothing else, in `gpu` to the bit
// (within the table's `tol`).
void identical(const Table &t, const MapSink &gpu, const MapSink &cpu)
{
    compare_scores(gpu, cpu, Agreement{t.tol, t.nan_equal});
    REQUIRE(gpu.aggregates.size() == cpu.aggregates.size());
    for (const auto &[name, v] : cpu.aggregates) {
        INFO(name);
        REQUIRE(gpu.aggregates.count(name));
        CHECK(same(t, gpu.aggregates.at(name), v, t.tol));
    }
}

// The same for a context's stored scores, `frames` of each, within `tol`.
void identical(const Table &t, const Scores &got, const Scores &want, unsigned frames, double tol)
{
    require_matching(got, want, frames, [&](double a, double b) { return same(t, a, b, tol); });
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

Frames::~Frames()
{
    unref_all(ref);
    unref_all(dist);
}

bool sanitizers_pass() { return sanitized(); }

const Frames &golden(const std::string &pair)
{
    auto &f = shared().golden[pair];
    if (!f) {
        f = std::make_unique<Frames>();
        f->ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        f->dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        REQUIRE(!f->ref.empty());
        REQUIRE(f->ref.size() == f->dist.size());
        f->total = f->ref.size();
        // The sanitizers' pass: the first frames run the same host code as
        // all of them (at three in flight, the fourth reuses the first's slot).
        const char *m = std::getenv("VMAF_TEST_MAX_FRAMES");
        if (sanitizers_pass() && m && *m) {
            const size_t keep = std::max<size_t>(4, std::strtoul(m, nullptr, 10));
            for (auto *pics : {&f->ref, &f->dist})
                while (pics->size() > keep) {
                    vmaf_picture_unref(&pics->back());
                    pics->pop_back();
                }
        }
    }
    return *f;
}

namespace {

// The sanitizers' pass's synthetic rows (Table::synthetic), in their order:
//   - of rows equal but for their size, the smallest, the widest and the
//     smallest of each other odd/even shape of width and height;
//   - of those, the rows that bring a picture (format, depth, size and frame
//     count: its content is the kernels', not the host's) or an option (name
//     and value; or the defaults) no earlier row ran: the cross of pictures
//     and options repeats the host code of each.
std::vector<const Synthetic *> sanitizer_rows(const std::vector<Synthetic> &rows)
{
    auto options = [](const Synthetic &c) {
        std::ostringstream s;
        for (const auto &[k, v] : c.options) s << k << "=" << v << " ";
        return s.str();
    };
    auto picture = [](const Synthetic &c) {  // what the host code sees of the pictures
        std::ostringstream s;
        s << int(c.fmt) << " " << c.bpc << " " << c.w << "x" << c.h << " " << c.frames;
        return s.str();
    };
    auto group_of = [&](const Synthetic &c) {  // rows equal but for their size
        std::ostringstream s;
        s << int(c.fmt) << " " << c.bpc << " " << c.frames << " " << c.nonzero << " " << bool(c.make) << " "
          << c.what << " " << c.in_flight << " | " << options(c);
        return s.str();
    };
    std::map<std::string, std::vector<const Synthetic *>> groups;
    for (const Synthetic &c : rows) groups[group_of(c)].push_back(&c);
    auto area = [](const Synthetic *r) { return uint64_t(r->w) * r->h; };
    auto smaller = [&](const Synthetic *a, const Synthetic *b) {
        return area(a) != area(b) ? area(a) < area(b) : a->w < b->w;
    };
    auto shape = [](const Synthetic *r) { return (r->w & 1) * 2 + (r->h & 1); };
    std::vector<const Synthetic *> keep;
    std::set<std::string> pictures_run, options_run;
    for (const Synthetic &c : rows) {
        const auto &g = groups.at(group_of(c));
        const Synthetic *smallest = *std::min_element(g.begin(), g.end(), smaller);
        const Synthetic *widest = *std::max_element(g.begin(), g.end(),
                                                    [](const Synthetic *a, const Synthetic *b) { return a->w < b->w; });
        bool run = &c == smallest || &c == widest;
        if (!run && shape(smallest) != shape(&c) && shape(widest) != shape(&c)) {
            const Synthetic *first = nullptr;  // the smallest of its shape
            for (const Synthetic *r : g)
                if (shape(r) == shape(&c) && (!first || smaller(r, first))) first = r;
            run = first == &c;
        }
        if (!run) continue;
        bool new_option = c.options.empty() && options_run.insert("(defaults)").second;
        for (const auto &[k, v] : c.options) new_option = options_run.insert(k + "=" + v).second || new_option;
        const bool new_picture = pictures_run.insert(picture(c)).second;
        if (new_picture || new_option) keep.push_back(&c);
    }
    return keep;
}

}  // namespace

std::vector<Synthetic> grid(std::initializer_list<VmafPixelFormat> fmts, std::initializer_list<unsigned> depths,
                            std::initializer_list<std::pair<unsigned, unsigned>> sizes, unsigned frames,
                            const Dict &options)
{
    std::vector<Synthetic> out;
    for (VmafPixelFormat f : fmts)
        for (unsigned b : depths)
            for (auto [w, h] : sizes) out.push_back({f, b, w, h, frames, options});
    return out;
}

std::vector<Synthetic> each_with(const std::vector<Synthetic> &rows, const std::vector<Dict> &sets)
{
    std::vector<Synthetic> out;
    for (const Synthetic &r : rows)
        for (const Dict &d : sets) {
            Synthetic s = r;
            s.options.insert(s.options.end(), d.begin(), d.end());
            out.push_back(s);
        }
    return out;
}

void textured_frames(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned frames, uint32_t seed,
                     bool to_extremes, std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist)
{
    std::mt19937 rng(seed);
    const int maxv = int((1u << bpc) - 1);
    const double scale = double(maxv) / 255.0;
    const int extreme_noise = to_extremes ? int(scale) : 1;
    for (unsigned f = 0; f < frames; f++) {
        std::vector<int> base(size_t(w) * h);
        const double fx = 0.05 + 0.3 * (rng() % 100) / 100.0, fy = 0.04 + 0.3 * (rng() % 100) / 100.0;
        const unsigned kind = f % 4;
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                double v = 128 + 60 * std::sin(fx * x + f) * std::cos(fy * y) + int(rng() % 41) - 20;
                if (to_extremes && kind == 3) v = (v - 128) * 4 + 128;  // saturates at both ends
                base[size_t(y) * w + x] = std::clamp(int(v * scale), 0, maxv);
            }
        auto distort = [&](unsigned x, unsigned y) {
            const int v = base[size_t(y) * w + x];
            switch (kind) {
            case 0: return v + int(rng() % 9) - 4;
            case 1: {
                const int l = base[size_t(y) * w + (x ? x - 1 : x)], r = base[size_t(y) * w + (x + 1 < w ? x + 1 : x)];
                return (l + 2 * v + r) / 4;
            }
            case 2: return (v - maxv / 2) * 3 / 2 + maxv / 2;
            default: return v + (int(rng() % 61) - 30) * extreme_noise;
            }
        };
        ref->push_back(make_picture(fmt, bpc, w, h, [&](unsigned pl, unsigned x, unsigned y) {
            return pl ? unsigned(rng() % (maxv + 1)) : unsigned(base[size_t(y) * w + x]);
        }));
        dist->push_back(make_picture(fmt, bpc, w, h, [&](unsigned pl, unsigned x, unsigned y) {
            return pl ? unsigned(rng() % (maxv + 1)) : unsigned(std::clamp(distort(x, y), 0, maxv));
        }));
    }
}

Maker shared_pictures(const std::string &key, Maker make)
{
    return [key, make](std::vector<VmafPicture> *ref, std::vector<VmafPicture> *dist) {
        static std::string last_key;
        static std::vector<VmafPicture> last_ref, last_dist;
        if (key != last_key) {
            unref_all(last_ref);
            unref_all(last_dist);
            last_ref.clear();
            last_dist.clear();
            make(&last_ref, &last_dist);
            last_key = key;
        }
        for (size_t i = 0; i < last_ref.size(); i++) {
            ref->emplace_back();
            dist->emplace_back();
            picture_ref(&ref->back(), &last_ref[i]);
            picture_ref(&dist->back(), &last_dist[i]);
        }
    };
}

void model_api_case(const char *twin, std::initializer_list<const char *> own, unsigned own_outputs,
                    const ModelScoreFn &score)
{
    vk::State &st = shared_state();
    for (const auto &pair : golden_pairs()) {
        for (const char *version : {"vmaf_v0.6.1", "vmaf_v0.6.1neg"}) {
            // The sanitizers' pass: the neg model's options on the first pair
            // (the other pairs' formats run with vmaf_v0.6.1).
            if (sanitizers_pass() && pair != golden_pairs().front() && std::string(version) != "vmaf_v0.6.1") continue;
            INFO(pair << " " << version);
            const auto gpu = score(pair, version, &st);
            const auto cpu = score(pair, version, nullptr);
            const auto expected = expected_for_model(pair, version);
            REQUIRE(gpu.size() == cpu.size());
            // The largest differences, vs the CPU and vs libvmaf: the twin's
            // outputs, the other features', VMAF.
            double vs_cpu[3] = {}, vs_libvmaf[3] = {};
            unsigned outputs = 0;
            for (const auto &[name, values] : cpu) {
                INFO(name);
                REQUIRE(gpu.count(name));
                REQUIRE(gpu.at(name).size() == values.size());
                const bool mine = std::any_of(own.begin(), own.end(),
                                              [&](const char *o) { return name.find(o) != std::string::npos; });
                outputs += mine;
                const int k = name == "vmaf" ? 2 : mine ? 0 : 1;
                for (size_t i = 0; i < values.size(); i++) {
                    const double dc = std::fabs(gpu.at(name)[i] - values[i]);
                    const double dl = std::fabs(gpu.at(name)[i] - expected.frames[i].at(name));
                    CHECK(dc == 0.0);
                    CHECK(dl <= 1e-4);
                    vs_cpu[k] = std::max(vs_cpu[k], dc);
                    vs_libvmaf[k] = std::max(vs_libvmaf[k], dl);
                }
            }
            CHECK(outputs == own_outputs);
            std::printf("%-28s %-15s C API, %s on the GPU: %s outputs vs CPU %g, vs libvmaf %.3g; other features "
                        "vs CPU %g, vs libvmaf %.3g; VMAF vs CPU %g, vs libvmaf %.3g\n",
                        pair.c_str(), version, twin, twin, vs_cpu[0], vs_libvmaf[0], vs_cpu[1], vs_libvmaf[1],
                        vs_cpu[2], vs_libvmaf[2]);
        }
    }
    check_clean(st);
}

V1Run v1_on_gpu(const std::string &pair, const V1Model &model, std::initializer_list<const char *> features,
                unsigned threads, unsigned *on_workers)
{
    vk::State &st = shared_state();
    std::vector<std::string> on_gpu;
    const V1Run r = run_v1(
        pair, model, [&](VmafContext *v) { REQUIRE(context_import_vulkan_state(v, &st) == 0); },
        [&](VmafContext *v) {
            if (!v->ctx.vulkan_engine()) return;
            for (const char *n : v->ctx.vulkan_engine()->feature_names()) on_gpu.push_back(n);
            if (on_workers) *on_workers = v->ctx.vulkan_engine()->collecting_on_workers();
        },
        threads);
    INFO(r.log);
    REQUIRE(r.err == 0);
    CHECK(r.gpu_engine);
    CHECK(r.outputs == 15);
    CHECK(r.max_diff == 0.0);
    std::string joined;
    for (const auto &n : on_gpu) joined += n + " ";
    INFO("on the GPU: " << joined);
    for (const char *f : features) CHECK(joined.find(f) != std::string::npos);
    CHECK(on_gpu.size() == 4);
    std::printf("%-28s %-28s GPU [%s] %u values, max |diff| %g\n", pair.c_str(), model.version, joined.c_str(),
                r.values, r.max_diff);
    return r;
}

vk::State &shared_state(unsigned frames_in_flight)
{
    auto &st = shared().states[frames_in_flight];
    if (!st) st = validated_state(frames_in_flight);
    return *st;
}

void register_table(const char *name, const Table &(*table)()) { shared().tables.emplace_back(name, table); }

void fill_pairs(const Synthetic &c, const PairSample &sample, std::vector<VmafPicture> *ref,
                std::vector<VmafPicture> *dist)
{
    ref->resize(c.frames);
    dist->resize(c.frames);
    for (unsigned f = 0; f < c.frames; f++) {
        VmafPicture &r = (*ref)[f], &d = (*dist)[f];
        REQUIRE(picture_alloc(&r, c.fmt, c.bpc, c.w, c.h) == 0);
        REQUIRE(picture_alloc(&d, c.fmt, c.bpc, c.w, c.h) == 0);
        for (unsigned pl = 0; pl < plane_count(c.fmt); pl++)
            for (unsigned y = 0; y < r.h[pl]; y++) {
                auto *ra = static_cast<uint8_t *>(r.data[pl]) + size_t(y) * r.stride[pl];
                auto *rb = static_cast<uint8_t *>(d.data[pl]) + size_t(y) * d.stride[pl];
                for (unsigned x = 0; x < r.w[pl]; x++) {
                    const auto [a, b] = sample(r, f, pl, x, y);
                    if (c.bpc == 8) {
                        ra[x] = uint8_t(a);
                        rb[x] = uint8_t(b);
                    } else {
                        reinterpret_cast<uint16_t *>(ra)[x] = uint16_t(a);
                        reinterpret_cast<uint16_t *>(rb)[x] = uint16_t(b);
                    }
                }
            }
    }
}

void ramps(const Synthetic &c, uint32_t seed, unsigned frame_step, std::vector<VmafPicture> *ref,
           std::vector<VmafPicture> *dist)
{
    std::mt19937 rng(seed);
    const unsigned maxv = (1u << c.bpc) - 1;
    fill_pairs(
        c,
        [&](const VmafPicture &, unsigned f, unsigned pl, unsigned x, unsigned y) {
            const unsigned a = (x * 37 + y * 11 + pl * 1000 + f * frame_step) * 16 % (maxv + 1);
            return std::pair{a, std::min(maxv, a + unsigned(rng() % (maxv / 16 + 1)))};
        },
        ref, dist);
}

void release_shared()
{
    Shared &s = shared();
    s.golden.clear();
    s.import_pairs.clear();
    s.states.clear();
    if (s.api_state) vmaf_vulkan_state_free(&s.api_state);
    if (s.caller_state) vmaf_vulkan_state_free(&s.caller_state);
    s.caller.reset();
}

void run_golden(const Table &t)
{
    vk::State &st = shared_state();
    if (t.needs_float64) REQUIRE(st.float64());
    const FeatureOptions opts = options_for(*t.extractor, t.golden_options);
    unsigned compared = 0, ran = 0;
    for (const std::string &pair : golden_pairs()) {
        INFO(pair);
        const Frames &f = golden(pair);
        if (t.skip_declined && !vk::Engine::supports(st, format_of(f.ref[0]), *t.extractor, opts)) continue;
        ran++;
        const MapSink gpu = engine_scores(st, t, opts, f.ref, f.dist);
        for (const char *n : t.outputs) {
            INFO(n);
            REQUIRE(gpu.scores.count(n));
            REQUIRE(gpu.scores.at(n).size() == f.ref.size());
        }
        if (t.aggregates >= 0) CHECK(gpu.aggregates.size() == size_t(t.aggregates));
        identical(t, gpu, cpu_scores(t, opts, f.ref, f.dist));
        if (t.golden_extra) t.golden_extra(pair, gpu);
        for (const GoldenCheck &g : t.golden) {
            if (!g.only_pairs.empty() && std::find(g.only_pairs.begin(), g.only_pairs.end(), pair) == g.only_pairs.end())
                continue;
            const std::string path = data_dir() + "/" + pair + g.suffix;
            INFO(path);
            REQUIRE(std::filesystem::exists(path));
            const Expected e = load_expected(path);
            REQUIRE(e.frames.size() == f.total);
            // Of the first frames alone (the sanitizers' pass), the last is not
            // compared with libvmaf: its temporal scores there saw the frame after.
            const size_t compare = f.ref.size() < f.total ? f.ref.size() - 1 : f.total;
            if (!e.frames.front().count(std::string(feature_alias(g.outputs.front())) + g.name_suffix))
                continue;  // not in this file
            compared++;
            Dict d = t.golden_options;  // the check's own run, with its options
            d.insert(d.end(), g.options.begin(), g.options.end());
            const FeatureOptions o = options_for(*t.extractor, d);
            const MapSink own = g.options.empty() ? MapSink{} : engine_scores(st, t, o, f.ref, f.dist);
            if (!g.options.empty()) identical(t, own, cpu_scores(t, o, f.ref, f.dist));
            const MapSink &scores = g.options.empty() ? gpu : own;
            for (const char *n : g.outputs) {
                INFO(n);
                REQUIRE(scores.scores.count(n));
                const std::string json_name = std::string(feature_alias(n)) + g.name_suffix;
                double max_diff = 0;
                for (size_t i = 0; i < compare; i++) {
                    const double want = e.frames[i].at(json_name), got = scores.scores.at(n).at(unsigned(i));
                    const double d = std::isnan(want) && g.null_is_inf ? (std::isinf(got) && got > 0 ? 0 : INFINITY)
                                     : got == want                     ? 0
                                                                        : std::fabs(got - want);
                    max_diff = std::max(max_diff, d);
                }
                std::printf("%-32s %-10s max|diff| vs libvmaf (%s) %.3g\n", pair.c_str(), n, g.suffix, max_diff);
                CHECK(max_diff <= g.tol);
            }
        }
    }
    if (!t.golden.empty()) CHECK(compared > 0);
    CHECK(ran > 0);
    if (t.skip_declined && !t.golden_supported) CHECK(ran == golden_pairs().size());
    if (t.skip_declined && t.golden_supported && !golden_subset()) CHECK(ran == t.golden_supported);
    check_clean(st);
}

void run_options(const Table &t)
{
    if (t.option_sets.empty()) {
        SUCCEED("no option sets");
        return;
    }
    vk::State &st = shared_state();
    for (const std::string &pair : t.option_pairs) {
        const Frames &f = golden(pair);
        for (const Dict &d : t.option_sets) {
            INFO(pair << " option set " << (&d - t.option_sets.data()));
            const FeatureOptions opts = options_for(*t.extractor, d);
            if (t.skip_declined && !vk::Engine::supports(st, format_of(f.ref[0]), *t.extractor, opts)) continue;
            identical(t, engine_scores(st, t, opts, f.ref, f.dist), cpu_scores(t, opts, f.ref, f.dist));
        }
    }
    check_clean(st);
}

void run_synthetic(const Table &t)
{
    if (t.synthetic.empty()) {
        SUCCEED("no synthetic inputs");
        return;
    }
    // Each input is made and scored on the CPU once, then through the engine
    // at each frames-in-flight count (the CPU's scores do not depend on it).
    for (unsigned fif : t.frames_in_flight)
        if (t.needs_float64) REQUIRE(shared_state(fif).float64());
    std::vector<const Synthetic *> rows;
    if (sanitizers_pass()) {
        rows = sanitizer_rows(t.synthetic);
        std::printf("the sanitizers' pass: %zu of %zu synthetic rows\n", rows.size(), t.synthetic.size());
    } else {
        for (const Synthetic &c : t.synthetic) rows.push_back(&c);
    }
    for (const Synthetic *row : rows) {
        const Synthetic &c = *row;
        const size_t k = size_t(row - t.synthetic.data());  // the seed is the row's, whichever rows run
        INFO(describe(c));
        std::vector<VmafPicture> ref, dist;
        if (c.make) c.make(&ref, &dist);
        else t.generate(c, uint32_t(1000 + k), &ref, &dist);
        REQUIRE(ref.size() == dist.size());
        const FeatureOptions opts = options_for(*t.extractor, c.options);
        const MapSink cpu = cpu_scores(t, opts, ref, dist);
        if (c.nonzero >= 0) {
            bool nonzero = false;
            for (const auto &[n, series] : cpu.scores)
                for (const auto &[i, v] : series) nonzero = nonzero || v != 0.0;
            CHECK(nonzero == (c.nonzero == 1));
        }
        for (unsigned fif : t.frames_in_flight) {
            if (c.in_flight && c.in_flight != fif) continue;
            INFO(fif << " frames in flight");
            identical(t, engine_scores(shared_state(fif), t, opts, ref, dist), cpu);
        }
        unref_all(ref);
        unref_all(dist);
    }
    for (unsigned fif : t.frames_in_flight) check_clean(shared_state(fif));
}

void run_declines(const Table &t)
{
    if (t.declines.empty()) {
        SUCCEED("declines nothing it is asked for");
        return;
    }
    vk::State &st = shared_state();
    for (const Decline &d : t.declines) {
        INFO(format_name(d.fmt.pix_fmt) << " " << d.fmt.bpc << "-bit " << d.fmt.w << "x" << d.fmt.h << ": " << d.why);
        const bool want = d.unless_float64 && st.float64();
        CHECK(vk::Engine::supports(st, d.fmt, *t.extractor, options_for(*t.extractor, d.options)) == want);
    }
    check_clean(st);
}

void run_c_api(const Table &t)
{
    const std::vector<std::string> pairs = t.api_pairs.empty() ? golden_pairs() : t.api_pairs;
    for (const std::string &pair : pairs) {
        INFO(pair);
        const Frames &f = golden(pair);
        const Scores cpu = score_frames(open_feature_context(t, nullptr, nullptr), f.ref, f.dist);
        bool on_gpu = false;
        const Scores gpu = score_frames(open_feature_context(t, api_state(), nullptr), f.ref, f.dist, &on_gpu);
        CHECK(on_gpu);
        identical(t, gpu, cpu, unsigned(f.ref.size()), t.tol);
        if (&pair == &pairs.front()) {  // through the shim's import: one submission per frame
            vk::State &st = shared_state();
            const uint64_t before = st.submissions();
            const Scores shim = score_frames(open_feature_context(t, nullptr, &st), f.ref, f.dist);
            if (t.one_submission_per_frame) CHECK(st.submissions() - before == f.ref.size());
            else CHECK(st.submissions() - before >= f.ref.size());
            identical(t, shim, cpu, unsigned(f.ref.size()), t.tol);
            check_clean(st);
        }
    }
}

void run_import_api(const Table &t)
{
    Harness &h = caller();
    for (const char *name : kImportPairs) {
        const Pair &pair = import_pair(name);
        bool on_gpu = false;
        const Scores want = score_frames(open_feature_context(t, shared().caller_state, nullptr), pair.ref, pair.dist,
                                         &on_gpu);
        CHECK(on_gpu);
        const bool deep = pair.ref[0].bpc > 8;
        const VkFormat f = deep ? VK_FORMAT_R16_UNORM : VK_FORMAT_R8_UNORM;
        const ImageCase c{deep ? "3 x R16" : "3 x R8", Layout::Planar, {f, f, f}, false};
        for (Read read : {Read::Copy, Read::Sampled}) {
            INFO(name << ", " << c.name << (read == Read::Sampled ? ", sampled" : ", copied"));
            if (read == Read::Sampled && !case_sampled(h, c)) {
                WARN(name << ": the device cannot sample " << c.name << "; not run sampled");
                continue;
            }
            const Scores got = imported_scores(t, pair, c, read, &on_gpu);
            CHECK(on_gpu);
            identical(t, got, want, unsigned(pair.ref.size()), 0);  // GPU against GPU
        }
    }
    h.check_clean();
}

int throughput(const std::vector<std::string> &features)
{
    int run = 0;
    for (const auto &[name, fn] : shared().tables) {
        if (!features.empty() && std::find(features.begin(), features.end(), name) == features.end()) continue;
        const Table &t = fn();
        std::vector<std::string> scores;
        for (const char *n : t.outputs) scores.push_back(n);
        if (scores.empty()) scores.push_back(t.extractor->provided[0]);
        std::mt19937 rng(7);
        ThroughputBench b(*t.extractor, options_for(*t.extractor), scores,
                          [&rng](unsigned bpc, unsigned w, unsigned h, auto *ref, auto *dist) {
                              noise_frames(rng, bpc, w, h, 8, ref, dist);
                          });
        run_throughput_bench(b);
        run++;
    }
    return run > 0 ? 0 : 1;
}

int bench(const std::vector<std::string> &features, const std::string &pair_name, unsigned frames)
{
    const Frames &f = golden(pair_name);
    const size_t n = f.ref.size();
    std::vector<VmafPicture> ref, dist;  // the pair cycled to `frames` frames
    for (unsigned i = 0; i < frames; i++) {
        ref.push_back(f.ref[i % n]);
        dist.push_back(f.dist[i % n]);
    }
    vk::State &st = shared_state();
    std::printf("bench: %s, %u frames (%zu cycled), on %s\n", pair_name.c_str(), frames, n, st.info().name.c_str());
    int run = 0;
    for (const auto &[name, fn] : shared().tables) {
        if (!features.empty() && std::find(features.begin(), features.end(), name) == features.end()) continue;
        const Table &t = fn();
        const FeatureOptions opts = options_for(*t.extractor);
        const FrameFormat fmt = format_of(ref[0]);
        if (!vk::Engine::supports(st, fmt, *t.extractor, opts)) {
            std::printf("%-10s declines %s\n", name.c_str(), pair_name.c_str());
            continue;
        }
        auto t0 = std::chrono::steady_clock::now();
        engine_scores(st, t, opts, ref, dist);
        const double engine_s = seconds_since(t0);
        t0 = std::chrono::steady_clock::now();
        cpu_scores(t, opts, ref, dist);
        const double cpu_s = seconds_since(t0);
        t0 = std::chrono::steady_clock::now();
        score_frames(open_feature_context(t, api_state(), nullptr), ref, dist);
        const double api_s = seconds_since(t0);
        t0 = std::chrono::steady_clock::now();
        score_frames(open_feature_context(t, nullptr, nullptr), ref, dist);
        const double api_cpu_s = seconds_since(t0);
        Pair p;  // the frames again, imported from a caller's planar images
        p.ref = refs(ref);
        p.dist = refs(dist);
        const VkFormat plane = ref[0].bpc > 8 ? VK_FORMAT_R16_UNORM : VK_FORMAT_R8_UNORM;
        const ImageCase c{"planar", Layout::Planar, {plane, plane, plane}, false};
        bool on_gpu = false;
        t0 = std::chrono::steady_clock::now();
        imported_scores(t, p, c, Read::Copy, &on_gpu);
        const double import_s = seconds_since(t0);
        std::printf("%-10s engine %8.1f fps | CPU extractor %8.1f fps | C API, Vulkan %8.1f fps | C API, CPU %8.1f fps"
                    " | import API %8.1f fps\n",
                    name.c_str(), frames / engine_s, frames / cpu_s, frames / api_s, frames / api_cpu_s,
                    frames / import_s);
        run++;
    }
    return run > 0 ? 0 : 1;
}

}  // namespace vmaf::test::parity
