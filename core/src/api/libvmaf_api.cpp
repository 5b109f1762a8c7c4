// SPDX-License-Identifier: BSD-2-Clause-Patent
// extern "C" shims of libvmaf.h: check arguments, translate, call the Context.
#include <cerrno>
#include <exception>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "api/dictionary.h"
#include "api/export.h"
#include "api/guarded.h"
#include "context/backend_select.h"
#include "context/context.h"
#include "feature/registry.h"
#include "libvmaf/version.h"
#include "model/pooling.h"
#include "util/log.h"

VMAF_EXPORT const char *vmaf_version(void)
{
    return VMAF_API_VERSION "-vk" VMAFVK_VERSION;
}

VMAF_EXPORT int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg)
{
    if (!vmaf) return -EINVAL;
    *vmaf = nullptr;
    if (cfg.n_threads > 1024) {
        vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_init: n_threads %u is out of range\n", cfg.n_threads);
        return -EINVAL;
    }
    return vmaf::api::guarded(__func__, [&] {
        std::unique_ptr<VmafContext> ctx(new VmafContext(cfg));
        if (int err = vmaf::select_backend_from_env(ctx->ctx)) return err;
        *vmaf = ctx.release();
        return 0;
    });
}

VMAF_EXPORT int vmaf_close(VmafContext *vmaf)
{
    if (!vmaf) return -EINVAL;
    delete vmaf;
    return 0;
}

VMAF_EXPORT int vmaf_use_feature(VmafContext *vmaf, const char *feature_name,
                                 VmafFeatureDictionary *opts_dict)
{
    // The dictionary is ours from here on, whatever happens.
    std::unique_ptr<VmafFeatureDictionary> opts(opts_dict);
    if (!vmaf || !feature_name) return -EINVAL;
    const vmaf::ExtractorInfo *info = vmaf::find_extractor(feature_name);
    if (!info) info = vmaf::find_extractor_by_feature(feature_name);
    if (!info) {
        std::string known;
        for (const vmaf::ExtractorInfo *e : vmaf::cpu_extractors())
            known += (known.empty() ? "" : ", ") + std::string(e->name);
        vmaf::log(VMAF_LOG_LEVEL_ERROR, "unknown feature '%s' (known: %s)\n", feature_name,
                  known.c_str());
        return -EINVAL;
    }
    return vmaf::api::guarded(__func__, [&] { return vmaf->ctx.use_feature(info, opts ? opts->entries : vmaf::Dict{}); });
}

VMAF_EXPORT int vmaf_import_feature_score(VmafContext *vmaf, const char *feature_name,
                                          double value, unsigned index)
{
    if (!vmaf || !feature_name) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] {
        const int err = vmaf->ctx.collector().set(feature_name, index, value);
        if (err == -EEXIST) {
            // libvmaf's code for a score written twice.
            vmaf::log(VMAF_LOG_LEVEL_WARNING, "feature \"%s\" already has a score at index %u\n", feature_name,
                      index);
            return -EINVAL;
        }
        return err;
    });
}

VMAF_EXPORT int vmaf_read_pictures(VmafContext *vmaf, VmafPicture *ref, VmafPicture *dist,
                                   unsigned index)
{
    if (!vmaf) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] { return vmaf->ctx.read_pictures(ref, dist, index); });
}

VMAF_EXPORT int vmaf_feature_score_at_index(VmafContext *vmaf, const char *feature_name,
                                            double *score, unsigned index)
{
    if (!vmaf || !feature_name || !score) return -EINVAL;
    // No such feature or no score at that index: -EINVAL, as libvmaf.
    const int err = vmaf->ctx.collector().get(feature_name, index, score);
    return err == -ENOENT ? -EINVAL : err;
}

VMAF_EXPORT int vmaf_feature_score_pooled(VmafContext *vmaf, const char *feature_name,
                                          enum VmafPoolingMethod pool_method, double *score,
                                          unsigned index_low, unsigned index_high)
{
    if (!vmaf || !feature_name || !score || index_low > index_high) return -EINVAL;
    if (pool_method <= VMAF_POOL_METHOD_UNKNOWN || pool_method >= VMAF_POOL_METHOD_NB) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] {
        std::vector<double> scores;
        for (unsigned i = index_low; i <= index_high; i++) {
            if (vmaf->ctx.is_subsampled_out(i)) continue;
            double s;
            if (int err = vmaf->ctx.collector().get(feature_name, i, &s)) return err == -ENOENT ? -EINVAL : err;
            scores.push_back(s);
        }
        return vmaf::pool(std::span<const double>(scores), pool_method, score);
    });
}

VMAF_EXPORT int vmaf_preallocate_pictures(VmafContext *vmaf, VmafPictureConfiguration cfg)
{
    if (!vmaf) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] { return vmaf->ctx.preallocate_pictures(cfg); });
}

VMAF_EXPORT int vmaf_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic)
{
    if (!vmaf || !pic) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] { return vmaf->ctx.fetch_preallocated_picture(pic); });
}

VMAF_EXPORT int vmaf_fetch_preallocated_picture_timeout(VmafContext *vmaf, VmafPicture *pic, int timeout_ms)
{
    if (!vmaf || !pic) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] { return vmaf->ctx.fetch_preallocated_picture(pic, timeout_ms); });
}
