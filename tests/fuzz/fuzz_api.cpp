// SPDX-License-Identifier: BSD-2-Clause-Patent
// The C API driven by a fuzzed sequence of calls on small pictures, CPU only:
// vmaf_init (fuzzed configuration), vmaf_use_feature, vmaf_use_features_from_model,
// vmaf_picture_alloc (fuzzed sizes, formats, bit depths, sample values),
// vmaf_read_pictures (fuzzed index order), flush, scores at an index and
// pooled, vmaf_import_feature_score, vmaf_write_output, vmaf_preallocate_pictures
// and vmaf_fetch_preallocated_picture, vmaf_close, in any order: calls on a
// closed context go to a null one, pictures outlive their context.
//
// vmaf_fetch_preallocated_picture blocks until a picture of the pool is free,
// and a picture handed to vmaf_read_pictures may stay referenced by the context
// (the motion history, queued frames): the harness fetches at most as many
// pictures as the pool holds, so that no fetch ever waits.
//
// Input: a sequence of operations, one byte each and then their arguments
// (see the switch below); at most 64 operations.
#include <cerrno>
#include <string>

#include "fuzz_common.h"
#include "fuzz_model_json.h"
#include "libvmaf/libvmaf.h"

namespace {

constexpr const char *kFeatures[] = {
    "psnr", "motion", "vif", "adm", "VMAF_integer_feature_adm2_score", "integer_motion2", "psnr_y", "float_ssim", "",
};
constexpr const char *kKeys[] = {
    "enable_chroma", "enable_mse", "enable_apsnr", "reduced_hbd_peak", "min_sse", "motion_force_zero",
    "motion_blend_factor", "motion_five_frame_window", "motion_moving_average", "motion_max_val", "debug",
    "vif_enhn_gain_limit", "vif_skip_scale0", "adm_enhn_gain_limit", "adm_csf_mode", "adm_skip_scale0",
    "adm_ref_display_height", "adm_norm_view_dist", "adm_noise_weight", "adm_min_val", "edge_as", "bogus",
};
constexpr const char *kValues[] = {"0", "1", "true", "false", "1.5", "-1", "nan", "1e9", "100", "4320", "abc", ""};
constexpr const char *kScoreNames[] = {
    "vmaf", "psnr_y", "psnr_cb", "integer_motion2", "integer_adm2", "integer_vif_scale0", "integer_adm_scale3",
    "VMAF_integer_feature_vif_scale0_score", "nope",
};
constexpr unsigned kDepths[] = {8, 10, 12, 16, 0, 9};

VmafModel *model()
{
    static VmafModel *m = [] {
        static fuzz::MemFile file;
        VmafModelConfig cfg{};
        VmafModel *loaded = nullptr;
        if (vmaf_model_load_from_path(&loaded, &cfg, file.write(fuzz::kModelJson)))
            fuzz::fail("the built-in model does not load");
        return loaded;  // kept for the whole run
    }();
    return m;
}

template <size_t N>
const char *pick(fuzz::Input &in, const char *const (&list)[N])
{
    return list[in.pick(N)];
}

// Geometry as fuzzed: mostly small valid pictures, sometimes invalid ones.
struct Geometry {
    VmafPixelFormat fmt;
    unsigned bpc, w, h;
};

Geometry geometry(fuzz::Input &in)
{
    Geometry g;
    g.fmt = VmafPixelFormat(in.u8() % 6);
    g.bpc = kDepths[in.pick(6)];
    const uint8_t w = in.u8(), h = in.u8();
    g.w = w == 0xff ? 65537 : w % 40;
    g.h = h == 0xff ? 65537 : h % 40;
    return g;
}

void fill(VmafPicture *pic, fuzz::Input &in)
{
    const uint8_t seed = in.u8();
    const bool wild = in.flag();  // samples beyond the bit depth
    const unsigned max = wild ? 0xffff : (1u << pic->bpc) - 1;
    const unsigned planes = pic->pix_fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
    for (unsigned p = 0; p < planes; p++) {
        auto *row = static_cast<uint8_t *>(pic->data[p]);
        for (unsigned y = 0; y < pic->h[p]; y++, row += pic->stride[p])
            for (unsigned x = 0; x < pic->w[p]; x++) {
                const unsigned v = (x * 31 + y * 17 + seed * (x ^ (y + p))) & max;
                if (pic->bpc == 8) row[x] = uint8_t(v);
                else reinterpret_cast<uint16_t *>(row)[x] = uint16_t(v);
            }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzz::MemFile file;
    fuzz::Input in(data, size);
    VmafContext *ctx = nullptr;
    VmafPicture pics[4] = {};
    unsigned pool_fetches_left = 0;

    auto init = [&] {
        if (ctx) vmaf_close(ctx);
        VmafConfiguration cfg{};
        cfg.log_level = VMAF_LOG_LEVEL_NONE;
        cfg.n_threads = in.u8() % 4;
        cfg.n_subsample = in.u8() % 4;
        cfg.gpumask = in.flag();
        if (vmaf_init(&ctx, cfg) || !ctx) fuzz::fail("vmaf_init failed");
        pool_fetches_left = 0;
    };
    init();

    for (int n = 0; n < 64 && !in.empty(); n++) {
        VmafPicture &a = pics[in.u8() % 4];
        switch (in.u8() % 16) {
        case 0: init(); break;
        case 1: {
            const char *name = pick(in, kFeatures);
            VmafFeatureDictionary *d = nullptr;
            for (unsigned i = in.u8() % 3; i > 0; i--)
                vmaf_feature_dictionary_set(&d, pick(in, kKeys), pick(in, kValues));
            vmaf_use_feature(ctx, name, d);
            break;
        }
        case 2: vmaf_use_features_from_model(ctx, model()); break;
        case 3: {
            if (a.ref) vmaf_picture_unref(&a);
            const Geometry g = geometry(in);
            if (vmaf_picture_alloc(&a, g.fmt, g.bpc, g.w, g.h) == 0) fill(&a, in);
            else if (a.ref) fuzz::fail("vmaf_picture_alloc failed but set a picture");
            break;
        }
        case 4:
            if (!pool_fetches_left) break;
            if (a.ref) vmaf_picture_unref(&a);
            if (vmaf_fetch_preallocated_picture(ctx, &a) == 0) {
                pool_fetches_left--;
                fill(&a, in);
            }
            break;
        case 5: {
            const Geometry g = geometry(in);
            VmafPictureConfiguration pc{};
            pc.pic_params.pix_fmt = g.fmt;
            pc.pic_params.bpc = g.bpc;
            pc.pic_params.w = g.w;
            pc.pic_params.h = g.h;
            pc.pic_cnt = in.u8() % 6;
            if (vmaf_preallocate_pictures(ctx, pc) == 0) pool_fetches_left = pc.pic_cnt;
            break;
        }
        case 6: {
            VmafPicture &b = pics[in.u8() % 4];
            // The context takes both pictures on success; they stay ours on failure.
            vmaf_read_pictures(ctx, &a, &b, in.u8() % 24);
            break;
        }
        case 7: vmaf_read_pictures(ctx, nullptr, nullptr, 0); break;
        case 8: {
            double s;
            vmaf_score_at_index(ctx, model(), &s, in.u8() % 24);
            break;
        }
        case 9: {
            double s;
            const char *name = pick(in, kScoreNames);
            vmaf_feature_score_at_index(ctx, name, &s, in.u8() % 24);
            const unsigned lo = in.u8() % 24, hi = in.u8() % 24;
            vmaf_feature_score_pooled(ctx, name, VmafPoolingMethod(in.u8() % 6), &s, lo, hi);
            break;
        }
        case 10: {
            double s;
            const unsigned lo = in.u8() % 24, hi = in.u8() % 24;
            vmaf_score_pooled(ctx, model(), VmafPoolingMethod(in.u8() % 6), &s, lo, hi);
            break;
        }
        case 11:
            if (a.ref) vmaf_picture_unref(&a);
            else if (vmaf_picture_unref(&a) != -EINVAL) fuzz::fail("vmaf_picture_unref of no picture");
            break;
        case 12: vmaf_write_output(ctx, file.path(), VmafOutputFormat(in.u8() % 6)); break;
        case 13:
            if (ctx) vmaf_close(ctx);
            ctx = nullptr;
            pool_fetches_left = 0;
            break;
        case 14: {
            const char *name = pick(in, kScoreNames);
            vmaf_import_feature_score(ctx, name, (in.u8() - 64) / 16.0, in.u8() % 24);
            break;
        }
        case 15:
            // One picture without the other.
            if (in.flag()) vmaf_read_pictures(ctx, &a, nullptr, in.u8() % 24);
            else vmaf_read_pictures(ctx, nullptr, &a, in.u8() % 24);
            break;
        }
    }
    for (VmafPicture &p : pics)
        if (p.ref) vmaf_picture_unref(&p);
    if (ctx) vmaf_close(ctx);
    return 0;
}
