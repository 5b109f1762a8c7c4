// SPDX-License-Identifier: BSD-2-Clause-Patent
// The C API's argument checks and error paths: negative errno, never a crash.
#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <set>
#include <string>

#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_introspect.h"

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

TEST_CASE("flush ends the stream; scores of missing frames are -EINVAL (as libvmaf)", "[api]")
{
    Ctx c(2);
    REQUIRE(vmaf_use_feature(c.v, "psnr", nullptr) == 0);
    REQUIRE(vmaf_read_pictures(c.v, nullptr, nullptr, 0) == 0);  // zero frames
    double s;
    CHECK(vmaf_feature_score_at_index(c.v, "psnr_y", &s, 0) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 0, 0) == -EINVAL);
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
    CHECK(vmaf_import_feature_score(c.v, "custom", 9.0, 1) == -EINVAL);  // written once only, as libvmaf
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

// libvmaf's return codes (its libvmaf.c, model.c, read_json_model.c, picture.c,
// picture_pool.c, dict.c, feature_collector.c and predict.c at the API level this
// library matches), function by function, where a caller can see them without
// crashing libvmaf. docs/api.md lists where this library deliberately differs.
TEST_CASE("error returns equal libvmaf's", "[api][codes]")
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    double s = 0;

    // vmaf_init, vmaf_close
    CHECK(vmaf_init(nullptr, cfg) == -EINVAL);
    CHECK(vmaf_close(nullptr) == -EINVAL);

    Ctx c;
    // vmaf_use_feature: no context, no name, an unknown name.
    CHECK(vmaf_use_feature(nullptr, "psnr", nullptr) == -EINVAL);
    CHECK(vmaf_use_feature(c.v, nullptr, nullptr) == -EINVAL);
    CHECK(vmaf_use_feature(c.v, "no_such_feature", nullptr) == -EINVAL);

    // vmaf_import_feature_score: no context or name; a score written twice.
    CHECK(vmaf_import_feature_score(nullptr, "x", 1.0, 0) == -EINVAL);
    CHECK(vmaf_import_feature_score(c.v, nullptr, 1.0, 0) == -EINVAL);
    REQUIRE(vmaf_import_feature_score(c.v, "x", 1.0, 0) == 0);
    CHECK(vmaf_import_feature_score(c.v, "x", 2.0, 0) == -EINVAL);

    // vmaf_feature_score_at_index: missing arguments, an unknown feature, a
    // missing index: all -EINVAL (libvmaf's feature collector).
    CHECK(vmaf_feature_score_at_index(nullptr, "x", &s, 0) == -EINVAL);
    CHECK(vmaf_feature_score_at_index(c.v, nullptr, &s, 0) == -EINVAL);
    CHECK(vmaf_feature_score_at_index(c.v, "x", nullptr, 0) == -EINVAL);
    CHECK(vmaf_feature_score_at_index(c.v, "y", &s, 0) == -EINVAL);
    CHECK(vmaf_feature_score_at_index(c.v, "x", &s, 1) == -EINVAL);
    CHECK(vmaf_feature_score_at_index(c.v, "x", &s, 1000000) == -EINVAL);
    REQUIRE(vmaf_feature_score_at_index(c.v, "x", &s, 0) == 0);
    CHECK(s == 1.0);

    // vmaf_feature_score_pooled: arguments, range, method, missing scores.
    CHECK(vmaf_feature_score_pooled(nullptr, "x", VMAF_POOL_METHOD_MEAN, &s, 0, 0) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(c.v, nullptr, VMAF_POOL_METHOD_MEAN, &s, 0, 0) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(c.v, "x", VMAF_POOL_METHOD_MEAN, &s, 1, 0) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(c.v, "x", VMAF_POOL_METHOD_UNKNOWN, &s, 0, 0) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(c.v, "x", VMAF_POOL_METHOD_NB, &s, 0, 0) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(c.v, "x", VMAF_POOL_METHOD_MEAN, &s, 0, 1) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(c.v, "y", VMAF_POOL_METHOD_MEAN, &s, 0, 0) == -EINVAL);

    // Models: by version (unknown: -EINVAL, libvmaf's "no such built-in model"),
    // by path (a file that cannot be opened: -EINVAL, as fopen failing there).
    VmafModelConfig mcfg{};
    VmafModel *m = nullptr;
    VmafModelCollection *mc = nullptr;
    CHECK(vmaf_model_load(&m, &mcfg, "no_such_model_v9") == -EINVAL);
    CHECK(vmaf_model_collection_load(&m, &mc, &mcfg, "no_such_model_v9") == -EINVAL);
    CHECK(vmaf_model_load_from_path(&m, &mcfg, "/nonexistent/model.json") == -EINVAL);
    CHECK(vmaf_model_collection_load_from_path(&m, &mc, &mcfg, "/nonexistent/model.json") == -EINVAL);
    CHECK(m == nullptr);
    CHECK(mc == nullptr);
    REQUIRE(vmaf_model_load(&m, &mcfg, "vmaf_v0.6.1") == 0);
    VmafFeatureDictionary *d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "vif_enhn_gain_limit", "1") == 0);
    CHECK(vmaf_model_feature_overload(nullptr, "vif", d) == -EINVAL);
    CHECK(vmaf_model_feature_overload(m, nullptr, d) == -EINVAL);
    CHECK(vmaf_model_feature_overload(m, "vif", nullptr) == -EINVAL);
    CHECK(vmaf_model_collection_feature_overload(m, nullptr, "vif", d) == -EINVAL);
    CHECK(vmaf_model_feature_overload(m, "vif", d) == 0);  // consumes d

    // Scores of a model: arguments, range, method; no features: -EINVAL (predict.c).
    CHECK(vmaf_use_features_from_model(nullptr, m) == -EINVAL);
    CHECK(vmaf_use_features_from_model(c.v, nullptr) == -EINVAL);
    CHECK(vmaf_use_features_from_model_collection(nullptr, mc) == -EINVAL);
    CHECK(vmaf_use_features_from_model_collection(c.v, nullptr) == -EINVAL);
    CHECK(vmaf_score_at_index(nullptr, m, &s, 0) == -EINVAL);
    CHECK(vmaf_score_at_index(c.v, nullptr, &s, 0) == -EINVAL);
    CHECK(vmaf_score_at_index(c.v, m, nullptr, 0) == -EINVAL);
    CHECK(vmaf_score_at_index(c.v, m, &s, 0) == -EINVAL);
    CHECK(vmaf_score_pooled(c.v, m, VMAF_POOL_METHOD_MEAN, &s, 0, 0) == -EINVAL);
    CHECK(vmaf_score_pooled(nullptr, m, VMAF_POOL_METHOD_MEAN, &s, 0, 0) == -EINVAL);
    CHECK(vmaf_score_pooled(c.v, nullptr, VMAF_POOL_METHOD_MEAN, &s, 0, 0) == -EINVAL);
    CHECK(vmaf_score_pooled(c.v, m, VMAF_POOL_METHOD_MEAN, nullptr, 0, 0) == -EINVAL);
    CHECK(vmaf_score_pooled(c.v, m, VMAF_POOL_METHOD_MEAN, &s, 1, 0) == -EINVAL);
    CHECK(vmaf_score_pooled(c.v, m, VMAF_POOL_METHOD_UNKNOWN, &s, 0, 0) == -EINVAL);
    VmafModelCollectionScore cs{};
    CHECK(vmaf_score_at_index_model_collection(nullptr, mc, &cs, 0) == -EINVAL);
    CHECK(vmaf_score_at_index_model_collection(c.v, nullptr, &cs, 0) == -EINVAL);
    CHECK(vmaf_score_pooled_model_collection(nullptr, mc, VMAF_POOL_METHOD_MEAN, &cs, 0, 0) == -EINVAL);
    CHECK(vmaf_score_pooled_model_collection(c.v, nullptr, VMAF_POOL_METHOD_MEAN, &cs, 0, 0) == -EINVAL);
    vmaf_model_destroy(m);

    // Pictures: vmaf_picture_alloc's and vmaf_picture_unref's checks.
    VmafPicture p{};
    CHECK(vmaf_picture_alloc(nullptr, VMAF_PIX_FMT_YUV420P, 8, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&p, VMAF_PIX_FMT_UNKNOWN, 8, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 7, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 17, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_unref(nullptr) == -EINVAL);
    VmafPicture empty{};
    CHECK(vmaf_picture_unref(&empty) == -EINVAL);  // no reference
    REQUIRE(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 16, 16) == 0);
    CHECK(vmaf_picture_unref(&p) == 0);
    CHECK(vmaf_picture_unref(&p) == -EINVAL);  // cleared by the first

    // Feature dictionaries: NULL arguments; an empty key is stored, as in libvmaf.
    d = nullptr;
    CHECK(vmaf_feature_dictionary_set(nullptr, "a", "1") == -EINVAL);
    CHECK(vmaf_feature_dictionary_set(&d, nullptr, "1") == -EINVAL);
    CHECK(vmaf_feature_dictionary_set(&d, "a", nullptr) == -EINVAL);
    CHECK(vmaf_feature_dictionary_set(&d, "", "1") == 0);
    CHECK(vmaf_feature_dictionary_free(&d) == 0);
    CHECK(d == nullptr);
    CHECK(vmaf_feature_dictionary_free(&d) == 0);  // already empty
    CHECK(vmaf_feature_dictionary_free(nullptr) == -EINVAL);

    // Preallocated pictures: no context, no picture, no pool; a pool of none or
    // of empty pictures.
    VmafPictureConfiguration pc{};
    pc.pic_params = {16, 16, 8, VMAF_PIX_FMT_YUV420P};
    pc.pic_cnt = 0;
    CHECK(vmaf_preallocate_pictures(nullptr, pc) == -EINVAL);
    CHECK(vmaf_preallocate_pictures(c.v, pc) == -EINVAL);
    pc.pic_cnt = 2;
    pc.pic_params.w = 0;
    CHECK(vmaf_preallocate_pictures(c.v, pc) == -EINVAL);
    CHECK(vmaf_fetch_preallocated_picture(nullptr, &p) == -EINVAL);
    CHECK(vmaf_fetch_preallocated_picture(c.v, nullptr) == -EINVAL);
    CHECK(vmaf_fetch_preallocated_picture(c.v, &p) == -EINVAL);

    // vmaf_read_pictures: no context, one picture of two, nothing to extract
    // with, after the flush and a second flush.
    VmafPicture a = pic(16, 16), b = pic(16, 16);
    CHECK(vmaf_read_pictures(nullptr, &a, &b, 0) == -EINVAL);
    CHECK(vmaf_read_pictures(c.v, &a, nullptr, 0) == -EINVAL);
    CHECK(vmaf_read_pictures(c.v, nullptr, &b, 0) == -EINVAL);
    REQUIRE(vmaf_read_pictures(c.v, nullptr, nullptr, 0) == 0);
    CHECK(vmaf_read_pictures(c.v, &a, &b, 0) == -EINVAL);
    CHECK(vmaf_read_pictures(c.v, nullptr, nullptr, 0) == -EINVAL);
    vmaf_picture_unref(&a);
    vmaf_picture_unref(&b);

    // vmaf_write_output: a file that cannot be opened, an unknown format.
    CHECK(vmaf_write_output(c.v, "/nonexistent-dir/out.json", VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);
    CHECK(vmaf_write_output(c.v, "/nonexistent-dir/out.json", VMAF_OUTPUT_FORMAT_NONE) == -EINVAL);
    CHECK(vmaf_version() != nullptr);
}

// <libvmaf/libvmaf_introspect.h>, against what the frames, the registry's
// libvmaf names and the model file (vmaf_v0.6.1.json's feature_names) say.
TEST_CASE("introspection: picture references, score names, extractors, a model's features", "[api][introspect]")
{
    // A second reference keeps the storage after the first is released.
    VmafPicture a = pic(16, 16), r{};
    std::memset(a.data[0], 77, size_t(a.stride[0]) * a.h[0]);
    REQUIRE(vmaf_picture_ref(&r, &a) == 0);
    CHECK(r.data[0] == a.data[0]);
    CHECK(r.w[0] == 16);
    REQUIRE(vmaf_picture_unref(&a) == 0);
    CHECK(static_cast<const unsigned char *>(r.data[0])[15] == 77);
    REQUIRE(vmaf_picture_unref(&r) == 0);
    VmafPicture empty{};
    CHECK(vmaf_picture_ref(&r, &empty) == -EINVAL);
    CHECK(vmaf_picture_ref(nullptr, &a) == -EINVAL);

    // The scores psnr stores, by name, each readable under it.
    Ctx c;
    REQUIRE(vmaf_use_feature(c.v, "psnr", nullptr) == 0);
    VmafPicture x = pic(16, 16), y = pic(16, 16);
    REQUIRE(vmaf_read_pictures(c.v, &x, &y, 0) == 0);
    REQUIRE(vmaf_read_pictures(c.v, nullptr, nullptr, 0) == 0);
    unsigned count = 0;
    REQUIRE(vmaf_feature_score_count(c.v, &count) == 0);
    std::set<std::string> names;
    for (unsigned i = 0; i < count; i++) {
        char name[64];
        REQUIRE(vmaf_feature_score_name(c.v, i, name, sizeof name) == 0);
        double s;
        CHECK(vmaf_feature_score_at_index(c.v, name, &s, 0) == 0);
        names.insert(name);
    }
    CHECK(names == std::set<std::string>{"psnr_y", "psnr_cb", "psnr_cr"});
    char small[3] = {'x', 'x', 'x'};
    CHECK(vmaf_feature_score_name(c.v, 0, small, sizeof small) == -ENOSPC);
    CHECK(std::strlen(small) == 2);
    char name[64];
    CHECK(vmaf_feature_score_name(c.v, count, name, sizeof name) == -ERANGE);
    CHECK(vmaf_feature_score_name(c.v, 0, name, 0) == -EINVAL);
    CHECK(vmaf_feature_score_count(nullptr, &count) == -EINVAL);

    // Extractors by their own name, a provided feature's full and output names.
    const char *ex = nullptr;
    REQUIRE(vmaf_feature_extractor_name("float_ssim", &ex) == 0);
    CHECK(std::string(ex) == "float_ssim");
    REQUIRE(vmaf_feature_extractor_name("VMAF_integer_feature_adm2_score", &ex) == 0);
    CHECK(std::string(ex) == "adm");
    REQUIRE(vmaf_feature_extractor_name("integer_adm2", &ex) == 0);
    CHECK(std::string(ex) == "adm");
    CHECK(vmaf_feature_extractor_name("no_such_feature", &ex) == -ENOENT);
    CHECK(ex == nullptr);
    CHECK(vmaf_feature_extractor_name(nullptr, &ex) == -EINVAL);

    // vmaf_v0.6.1: adm2, motion2, vif_scale0..3 of the integer extractors.
    VmafModel *m = nullptr;
    VmafModelConfig mcfg{};
    REQUIRE(vmaf_model_load(&m, &mcfg, "vmaf_v0.6.1") == 0);
    REQUIRE(vmaf_model_feature_count(m, &count) == 0);
    REQUIRE(count == 6);
    const char *expect[] = {"adm", "motion", "vif", "vif", "vif", "vif"};
    for (unsigned i = 0; i < count; i++) {
        REQUIRE(vmaf_model_feature_extractor(m, i, &ex) == 0);
        REQUIRE(ex != nullptr);
        CHECK(std::string(ex) == expect[i]);
    }
    CHECK(vmaf_model_feature_extractor(m, 6, &ex) == -ERANGE);
    CHECK(vmaf_model_feature_extractor(nullptr, 0, &ex) == -EINVAL);
    CHECK(vmaf_model_feature_count(m, nullptr) == -EINVAL);
    vmaf_model_destroy(m);
}
