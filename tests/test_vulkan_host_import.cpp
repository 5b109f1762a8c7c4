// SPDX-License-Identifier: BSD-2-Clause-Patent
// Host pictures read by the GPU where they are (vulkan/host_import.h): scores of
// the import path equal the copy path's and the CPU's; imports are made once per
// allocation, go before their memory is freed, and pictures that cannot be
// imported (caller memory, an import that fails) are copied instead.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "context/context.h"
#include "env.h"
#include "feature/adm/adm.h"
#include "feature/motion/motion.h"
#include "feature/psnr/psnr.h"
#include "feature/vif/vif.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "picture/picture.h"
#include "stderr_capture.h"
#include "util/log.h"
#include "vulkan.h"
#include "vulkan/host_import.h"
#include "gpu/engine.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

const ExtractorInfo *const kFeatures[] = {&kPsnrExtractor, &kVifExtractor, &kAdmExtractor, &kMotionExtractor};

FeatureOptions defaults(const ExtractorInfo &ex)
{
    FeatureOptions o;
    std::string err;
    REQUIRE(FeatureOptions::parse(ex.options, {}, &o, &err) == 0);
    return o;
}

std::unique_ptr<vk::Engine> make_engine(vk::State &st, const FrameFormat &fmt, bool import)
{
    EnvOverride env("VMAF_VULKAN_HOST_IMPORT", import ? "all" : "0");  // "all": the pictures here are small
    vk::Engine::FeatureList list;
    for (const ExtractorInfo *ex : kFeatures) list.push_back({ex, defaults(*ex)});
    std::unique_ptr<vk::Engine> engine;
    REQUIRE(vk::Engine::create(&st, fmt, list, &engine) == 0);
    REQUIRE(engine->host_import() == import);
    return engine;
}

// psnr, vif, adm and motion of every frame through one engine.
MapSink run_gpu(vk::State &st, const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist,
                bool import, vk::HostUploadStats *stats)
{
    auto engine = make_engine(st, format_of(ref[0]), import);
    MapSink sink;
    for (size_t i = 0; i < ref.size(); i++) REQUIRE(engine->submit(ref[i], dist[i], unsigned(i), sink) == 0);
    REQUIRE(engine->flush(sink) == 0);
    *stats = engine->host_uploads();
    return sink;
}

// The CPU extractors, the oracle; each gets the previous reference pictures as
// the context gives them (motion).
MapSink run_cpu(const std::vector<VmafPicture> &ref, const std::vector<VmafPicture> &dist)
{
    MapSink sink;
    for (const ExtractorInfo *info : kFeatures) {
        auto ex = info->create(defaults(*info));
        REQUIRE(ex->init(format_of(ref[0])) == 0);
        for (size_t i = 0; i < ref.size(); i++) {
            ex->set_history({i >= 1 ? &ref[i - 1] : nullptr, i >= 2 ? &ref[i - 2] : nullptr});
            REQUIRE(ex->extract(ref[i], dist[i], unsigned(i), sink) == 0);
        }
        REQUIRE(ex->flush(sink) == 0);
    }
    return sink;
}

// Every score and aggregate of `b` in `a` to the bit, NaN on both sides alike
// (the ADM parity table's rule).
void require_same_scores(const MapSink &a, const MapSink &b)
{
    compare_scores(a, b, {.nan_equal = true});
    CHECK(a.aggregates == b.aggregates);
}

// The device must offer the import path where these tests run (lavapipe does).
bool imports_host_memory(const vk::State &st)
{
    if (st.host_import_alignment()) return true;
    const bool lavapipe = st.info().name.find("llvmpipe") != std::string::npos;
    INFO(st.info().name << " has no VK_EXT_external_memory_host");
    CHECK_FALSE(lavapipe);
    WARN(st.info().name << ": no VK_EXT_external_memory_host, the import path is not tested");
    return false;
}

// A copy of `src` in memory of the caller's: `offset` bytes past a page
// boundary, with rows `pad` bytes longer than the library's.
struct CallerPicture {
    VmafPicture pic{};
    void *block = nullptr;
    CallerPicture(const VmafPicture &src, size_t offset, size_t pad)
    {
        const unsigned bps = bytes_per_sample(src.bpc);
        size_t size = 0;
        for (unsigned p = 0; p < plane_count(src.pix_fmt); p++)
            size += (size_t(src.w[p]) * bps + pad) * src.h[p];
        block = std::aligned_alloc(4096, (offset + size + 4095) / 4096 * 4096);
        REQUIRE(block);
        auto *at = static_cast<uint8_t *>(block) + offset;
        pic = src;
        pic.ref = nullptr;  // the caller's: no reference, nothing of the library's
        for (unsigned p = 0; p < plane_count(src.pix_fmt); p++) {
            const size_t stride = size_t(src.w[p]) * bps + pad;
            for (unsigned y = 0; y < src.h[p]; y++)
                std::memcpy(at + y * stride, static_cast<const uint8_t *>(src.data[p]) + y * src.stride[p],
                            size_t(src.w[p]) * bps);
            pic.data[p] = at;
            pic.stride[p] = ptrdiff_t(stride);
            at += stride * src.h[p];
        }
    }
    ~CallerPicture() { std::free(block); }
};

}  // namespace

TEST_CASE("host storage is page-aligned and its hooks run before it is freed", "[vulkan][host_import]")
{
    VmafPicture pic;
    REQUIRE(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 10, 33, 17) == 0);
    std::shared_ptr<HostStorage> s = picture_host_storage(pic);
    REQUIRE(s);
    CHECK(reinterpret_cast<uintptr_t>(s->base()) % 4096 == 0);
    CHECK(s->size() % 4096 == 0);
    CHECK(s->size() >= picture_storage_size(VMAF_PIX_FMT_YUV420P, 10, 33, 17));
    CHECK(pic.data[0] == s->base());
    int ran = 0;
    s->add_hook([&] { ran++; });
    const uint64_t removed = s->add_hook([&] { ran += 100; });
    s->remove_hook(removed);
    s.reset();
    CHECK(ran == 0);  // the picture still holds it
    REQUIRE(vmaf_picture_unref(&pic) == 0);
    CHECK(ran == 1);

    // Caller storage is not the library's.
    VmafPicture plain = pic;
    plain.ref = nullptr;
    CHECK_FALSE(picture_host_storage(plain));
}

TEST_CASE("host pictures read in place score as copied ones and as the CPU", "[vulkan][host_import][golden]")
{
    auto st = validated_state();
    if (!imports_host_memory(*st)) return;
    for (const std::string pair : {"astronaut_320x240_422_crf33", "rocket_320x240_10bit_crf30"}) {
        INFO(pair);
        auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
        auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
        const auto expected = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
        vk::HostUploadStats in_place, copied;
        const MapSink a = run_gpu(*st, ref, dist, true, &in_place);
        const MapSink b = run_gpu(*st, ref, dist, false, &copied);
        const MapSink cpu = run_cpu(ref, dist);
        const uint64_t n = ref.size();
        CHECK(in_place.imported == 2 * n);
        CHECK(in_place.copied == 0);
        CHECK(in_place.imports == 2 * n);  // one allocation per picture
        CHECK(in_place.live_imports == 2 * n);  // while the pictures are there
        CHECK(copied.imported == 0);
        CHECK(copied.copied == 2 * n);
        require_same_scores(a, b);
        require_same_scores(a, cpu);
        // And libvmaf's numbers (provided name, libvmaf's JSON name).
        const std::pair<const char *, const char *> golden[] = {
            {"psnr_y", "psnr_y"},
            {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
            {"VMAF_integer_feature_adm2_score", "integer_adm2"},
            {"VMAF_integer_feature_motion2_score", "integer_motion2"}};
        REQUIRE(expected.frames.size() == n);
        for (const auto &[name, json] : golden) {
            INFO(name);
            for (size_t i = 0; i < n; i++)
                CHECK(std::fabs(a.at(name, unsigned(i)) - expected.frames[i].at(json)) <= 1e-4);
        }
        unref_all(ref);
        unref_all(dist);
    }
    check_clean(*st);
}

TEST_CASE("by default small host pictures are copied and large ones read in place", "[vulkan][host_import]")
{
    // ADR 0067: an import costs more than copying a small picture, so storages
    // under HostImports::kMinImportBytes are copied unless
    // VMAF_VULKAN_HOST_IMPORT=all; an unknown value is said once and taken as
    // auto.
    auto st = validated_state();
    if (!imports_host_memory(*st)) return;
    std::mt19937 rng(3);
    auto gen = [&](unsigned, unsigned, unsigned) { return unsigned(rng() % 256); };
    for (const char *value : {static_cast<const char *>(nullptr), "auto", "1", "yes"}) {
        INFO("VMAF_VULKAN_HOST_IMPORT=" << (value ? value : "(unset)"));
        for (auto [w, h] : {std::pair{176u, 144u}, {720u, 480u}}) {
            INFO(w << "x" << h);
            std::vector<VmafPicture> ref, dist;
            for (int i = 0; i < 3; i++) {
                ref.push_back(make_picture(VMAF_PIX_FMT_YUV420P, 8, w, h, gen));
                dist.push_back(make_picture(VMAF_PIX_FMT_YUV420P, 8, w, h, gen));
            }
            const bool large = picture_host_storage(ref[0])->size() >= vk::HostImports::kMinImportBytes;
            CHECK(large == (w == 720));
            EnvOverride env("VMAF_VULKAN_HOST_IMPORT", value);
            std::string log;
            std::unique_ptr<vk::Engine> engine;
            vk::Engine::FeatureList list;
            for (const ExtractorInfo *ex : kFeatures) list.push_back({ex, defaults(*ex)});
            {
                log_set_level(VMAF_LOG_LEVEL_WARNING);
                StderrCapture cap;
                REQUIRE(vk::Engine::create(st.get(), format_of(ref[0]), list, &engine) == 0);
                log = cap.text();
                log_set_level(VMAF_LOG_LEVEL_ERROR);
            }
            if (value && !std::strcmp(value, "yes") && w == 176)  // the first engine with it says so, once
                CHECK(log.find("VMAF_VULKAN_HOST_IMPORT=yes is not one of 0, 1, auto, all: taken as auto") !=
                      std::string::npos);
            REQUIRE(engine->host_import());
            MapSink sink;
            for (size_t i = 0; i < ref.size(); i++) REQUIRE(engine->submit(ref[i], dist[i], unsigned(i), sink) == 0);
            REQUIRE(engine->flush(sink) == 0);
            const vk::HostUploadStats u = engine->host_uploads();
            CHECK(u.imported == (large ? 6u : 0u));
            CHECK(u.copied == (large ? 0u : 6u));
            CHECK(u.imports == (large ? 6u : 0u));
            engine.reset();
            require_same_scores(sink, run_cpu(ref, dist));
            unref_all(ref);
            unref_all(dist);
        }
    }
    check_clean(*st);
}

TEST_CASE("host uploads in a submission of their own score as in the frame's", "[vulkan][host_import][golden]")
{
    // VMAF_VULKAN_TRANSFER_QUEUE=compute: the transfer lane's submissions and
    // waits on the compute queue, as on a device without a transfer-only family
    // (lavapipe); on one with such a family the default runs the lane there.
    std::unique_ptr<vk::State> plain, lane;
    {
        EnvOverride off("VMAF_VULKAN_TRANSFER_QUEUE", "0");
        plain = validated_state();
    }
    {
        EnvOverride on("VMAF_VULKAN_TRANSFER_QUEUE", "compute");
        lane = validated_state();
    }
    REQUIRE(plain->transfer_lane() == vk::State::Lane::None);
    REQUIRE(lane->transfer_lane() == vk::State::Lane::Compute);
    const std::string pair = "rocket_320x240_10bit_crf30";
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    const uint64_t n = ref.size();
    const MapSink cpu = run_cpu(ref, dist);
    for (const bool import : {false, true}) {
        INFO("read in place: " << import);
        if (import && !imports_host_memory(*lane)) continue;
        vk::HostUploadStats a_stats, b_stats;
        const uint64_t before[2] = {lane->submissions(), plain->submissions()};
        const MapSink a = run_gpu(*lane, ref, dist, import, &a_stats);
        const MapSink b = run_gpu(*plain, ref, dist, import, &b_stats);
        CHECK(a_stats.lane_frames == n);
        CHECK(b_stats.lane_frames == 0);
        // The engine's set-up and the frames' own; the lane's are not counted.
        CHECK(lane->submissions() - before[0] == plain->submissions() - before[1]);
        CHECK(a_stats.imported == (import ? 2 * n : 0));
        require_same_scores(a, b);
        require_same_scores(a, cpu);
    }
    // A staged picture beside one read in place (a caller's memory is copied).
    if (imports_host_memory(*lane)) {
        std::vector<std::unique_ptr<CallerPicture>> theirs;
        std::vector<VmafPicture> dist_copied;
        for (const VmafPicture &d : dist) {
            theirs.push_back(std::make_unique<CallerPicture>(d, 64, 32));
            dist_copied.push_back(theirs.back()->pic);
        }
        vk::HostUploadStats stats;
        const MapSink mixed = run_gpu(*lane, ref, dist_copied, true, &stats);
        CHECK(stats.lane_frames == n);
        CHECK(stats.imported == n);
        CHECK(stats.copied == n);
        require_same_scores(mixed, cpu);
    }
    unref_all(ref);
    unref_all(dist);
    check_clean(*lane);
    check_clean(*plain);
}

TEST_CASE("a picture freed in flight whose memory is reused is read right", "[vulkan][host_import]")
{
    auto st = validated_state();
    if (!imports_host_memory(*st)) return;
    const std::string pair = "rocket_320x240_10bit_crf30";
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    const MapSink cpu = run_cpu(ref, dist);
    auto engine = make_engine(*st, format_of(ref[0]), true);
    MapSink sink;
    for (size_t i = 0; i < ref.size(); i++) {
        // Each frame in fresh allocations, the frame's only references dropped
        // as soon as it is submitted: the engine's keep the memory until the
        // GPU is done; then the allocation is freed (and its import with it),
        // and the next frame's may take the same addresses.
        VmafPicture r, d;
        REQUIRE(picture_copy_to_new(ref[i], &r) == 0);
        REQUIRE(picture_copy_to_new(dist[i], &d) == 0);
        REQUIRE(engine->submit(r, d, unsigned(i), sink) == 0);
        vmaf_picture_unref(&r);
        vmaf_picture_unref(&d);
        REQUIRE(engine->wait_idle(sink) == 0);
        CHECK(engine->host_uploads().live_imports == 0);  // freed after the frame: imports gone
    }
    REQUIRE(engine->flush(sink) == 0);
    const vk::HostUploadStats u = engine->host_uploads();
    CHECK(u.imported == 2 * ref.size());
    CHECK(u.imports == 2 * ref.size());
    engine.reset();
    require_same_scores(sink, cpu);
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

TEST_CASE("a picture per frame, as FFmpeg's filter allocates them, reuses a few imports", "[vulkan][host_import]")
{
    auto st = validated_state();
    if (!imports_host_memory(*st)) return;
    const std::string pair = "rocket_320x240_10bit_crf30";
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    const MapSink cpu = run_cpu(ref, dist);
    hold_spares();  // as a context does from its start to its end
    auto engine = make_engine(*st, format_of(ref[0]), true);
    MapSink sink;
    const size_t n = ref.size();
    for (size_t i = 0; i < n; i++) {
        // A new picture for each frame, copied into, handed over, dropped.
        VmafPicture r, d;
        REQUIRE(picture_copy_to_new(ref[i], &r) == 0);
        REQUIRE(picture_copy_to_new(dist[i], &d) == 0);
        REQUIRE(engine->submit(r, d, unsigned(i), sink) == 0);
        vmaf_picture_unref(&r);
        vmaf_picture_unref(&d);
    }
    REQUIRE(engine->flush(sink) == 0);
    const vk::HostUploadStats u = engine->host_uploads();
    CHECK(u.imported == 2 * n);
    CHECK(u.copied == 0);
    // Once the first frames are done, their storage serves the next frames and
    // is read through the imports made for it: at most the pictures of the
    // frames in flight and the spares are ever imported.
    const uint64_t bound = 2 * (st->frames_in_flight() + 1) + kMaxSpares;
    CHECK(u.imports <= bound);
    CHECK(u.imports < 2 * n);
    require_same_scores(sink, cpu);
    engine.reset();
    drop_spares();
    CHECK(spare_count() == 0);
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

TEST_CASE("a pool's pictures are imported once and wait for their frames", "[vulkan][host_import]")
{
    auto st = validated_state();
    if (!imports_host_memory(*st)) return;
    const std::string pair = "rocket_320x240_10bit_crf30";
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    const MapSink cpu = run_cpu(ref, dist);

    // Through the public API, with a pool smaller than what the frames in
    // flight hold: fetching collects frames rather than waiting forever.
    VmafConfiguration cfg{};
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, cfg) == 0);
    REQUIRE(context_import_vulkan_state(vmaf, st.get()) == 0);
    for (const char *name : {"psnr", "vif", "adm", "motion"}) REQUIRE(vmaf_use_feature(vmaf, name, nullptr) == 0);
    VmafPictureConfiguration pc{};
    pc.pic_params.w = ref[0].w[0];
    pc.pic_params.h = ref[0].h[0];
    pc.pic_params.bpc = ref[0].bpc;
    pc.pic_params.pix_fmt = ref[0].pix_fmt;
    constexpr unsigned kPool = 4;
    pc.pic_cnt = kPool;
    REQUIRE(vmaf_preallocate_pictures(vmaf, pc) == 0);
    std::vector<const void *> seen;
    for (size_t i = 0; i < ref.size(); i++) {
        VmafPicture r, d;
        REQUIRE(vmaf_fetch_preallocated_picture(vmaf, &r) == 0);
        REQUIRE(vmaf_fetch_preallocated_picture(vmaf, &d) == 0);
        for (const VmafPicture *p : {&r, &d})
            if (std::find(seen.begin(), seen.end(), p->data[0]) == seen.end()) seen.push_back(p->data[0]);
        VmafPicture tmp[2];
        REQUIRE(picture_copy_to_new(ref[i], &tmp[0]) == 0);
        REQUIRE(picture_copy_to_new(dist[i], &tmp[1]) == 0);
        VmafPicture *dst[2] = {&r, &d};
        for (unsigned k = 0; k < 2; k++) {
            for (unsigned p = 0; p < plane_count(tmp[k].pix_fmt); p++)
                for (unsigned y = 0; y < dst[k]->h[p]; y++)
                    std::memcpy(static_cast<uint8_t *>(dst[k]->data[p]) + y * dst[k]->stride[p],
                                static_cast<uint8_t *>(tmp[k].data[p]) + y * tmp[k].stride[p],
                                size_t(dst[k]->w[p]) * bytes_per_sample(tmp[k].bpc));
            vmaf_picture_unref(&tmp[k]);
        }
        REQUIRE(vmaf_read_pictures(vmaf, &r, &d, unsigned(i)) == 0);
    }
    const vk::Engine *engine = vmaf->ctx.vulkan_engine();
    REQUIRE(engine);
    REQUIRE(ref.size() > kPool);
    const vk::HostUploadStats u = engine->host_uploads();
    CHECK(u.imported == 2 * ref.size());
    CHECK(u.copied == 0);
    CHECK(seen.size() == kPool);
    CHECK(u.imports == kPool);  // once per allocation, however often it comes back
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    for (const auto &[name, series] : cpu.scores) {
        INFO(name);
        for (const auto &[i, v] : series) {
            double got = -1;
            REQUIRE(vmaf_feature_score_at_index(vmaf, name.c_str(), &got, i) == 0);
            CHECK(got == v);
        }
    }
    REQUIRE(vmaf_close(vmaf) == 0);  // the pool's memory goes here, its imports first
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

TEST_CASE("pictures that cannot be imported are copied", "[vulkan][host_import]")
{
    auto st = validated_state();
    if (!imports_host_memory(*st)) return;
    const std::string pair = "astronaut_320x240_422_crf33";
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    const MapSink cpu = run_cpu(ref, dist);
    const size_t n = ref.size();

    SECTION("caller memory off the page boundary, with longer rows, next to an imported picture")
    {
        std::vector<std::unique_ptr<CallerPicture>> keep;
        std::vector<VmafPicture> callers;
        for (size_t i = 0; i < n; i++) {
            keep.push_back(std::make_unique<CallerPicture>(dist[i], 64, 32));
            callers.push_back(keep.back()->pic);
        }
        vk::HostUploadStats u;
        const MapSink a = run_gpu(*st, ref, callers, true, &u);
        CHECK(u.imported == n);  // the references
        CHECK(u.copied == n);    // the caller's pictures
        require_same_scores(a, cpu);
        // And the other way round.
        const MapSink b = run_gpu(*st, callers, ref, true, &u);
        CHECK(u.imported == n);
        CHECK(u.copied == n);
        const MapSink swapped = run_cpu(callers, ref);
        require_same_scores(b, swapped);
    }
    SECTION("an import that fails")
    {
        auto engine = make_engine(*st, format_of(ref[0]), true);
        st->inject_fault(vk::State::Fault::HostImport, 1, VK_ERROR_OUT_OF_DEVICE_MEMORY);
        MapSink sink;
        for (size_t i = 0; i < n; i++) REQUIRE(engine->submit(ref[i], dist[i], unsigned(i), sink) == 0);
        REQUIRE(engine->flush(sink) == 0);
        const vk::HostUploadStats u = engine->host_uploads();
        CHECK(u.copied == 1);  // the first reference: its failure is remembered, not retried
        CHECK(u.imported == 2 * n - 1);
        CHECK(u.imports == 2 * n - 1);
        require_same_scores(sink, cpu);
    }
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}

TEST_CASE("profile mode times the upload of imported pictures", "[vulkan][host_import]")
{
    auto st = validated_state();
    if (!imports_host_memory(*st) || !st->timestamps()) return;
    st->set_profiling(true);
    const std::string pair = "rocket_320x240_10bit_crf30";
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dist = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    for (bool import : {true, false}) {
        INFO((import ? "imported" : "copied"));
        auto engine = make_engine(*st, format_of(ref[0]), import);
        MapSink sink;
        for (size_t i = 0; i < ref.size(); i++) REQUIRE(engine->submit(ref[i], dist[i], unsigned(i), sink) == 0);
        REQUIRE(engine->flush(sink) == 0);
        const vk::GpuProfile &p = engine->profile();
        REQUIRE(p.frames == ref.size());
        REQUIRE(!p.intervals.empty());
        CHECK(p.intervals.front().part == "upload");
        CHECK(p.intervals.front().total_ms > 0);
        double sum = 0;
        for (const auto &i : p.intervals) sum += i.total_ms;
        CHECK(sum == Approx(p.total_ms).epsilon(1e-9));  // the intervals still tile the frame
        CHECK(engine->host_uploads().imported == (import ? 2 * ref.size() : 0));
    }
    unref_all(ref);
    unref_all(dist);
    check_clean(*st);
}
