// SPDX-License-Identifier: BSD-2-Clause-Patent
// <libvmaf/libvmaf_introspect.h>: argument checks, then the context's
// collector, the feature registry, a model's features, picture references.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "api/export.h"
#include "api/guarded.h"
#include "context/context.h"
#include "feature/registry.h"
#include "libvmaf/libvmaf_introspect.h"
#include "model/model.h"
#include "picture/picture.h"
#include "util/log.h"

VMAF_EXPORT int vmaf_picture_ref(VmafPicture *dst, const VmafPicture *src)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!dst || !src || !src->ref) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_picture_ref: %s\n",
                      !dst || !src ? "dst and src must not be NULL" : "src holds no picture (src->ref is NULL)");
            return -EINVAL;
        }
        vmaf::picture_ref(dst, src);
        return 0;
    });
}

VMAF_EXPORT int vmaf_feature_score_count(VmafContext *vmaf, unsigned *count)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf || !count) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_feature_score_count: vmaf and count must not be NULL\n");
            return -EINVAL;
        }
        *count = unsigned(vmaf->ctx.collector().names().size());
        return 0;
    });
}

VMAF_EXPORT int vmaf_feature_score_name(VmafContext *vmaf, unsigned index, char *name, size_t size)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!vmaf || !name || !size) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_feature_score_name: vmaf and name must not be NULL, size not 0\n");
            return -EINVAL;
        }
        const std::vector<std::string> names = vmaf->ctx.collector().names();
        if (index >= names.size()) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_feature_score_name: index %u, but the context stores %zu scores\n",
                      index, names.size());
            return -ERANGE;
        }
        const std::string &n = names[index];
        const size_t len = std::min(n.size(), size - 1);
        std::memcpy(name, n.data(), len);
        name[len] = '\0';
        if (len < n.size()) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_feature_score_name: \"%s\" needs %zu bytes, size is %zu\n",
                      n.c_str(), n.size() + 1, size);
            return -ENOSPC;
        }
        return 0;
    });
}

VMAF_EXPORT int vmaf_feature_extractor_name(const char *name, const char **extractor)
{
    return vmaf::api::guarded(__func__, [&] {
        if (extractor) *extractor = nullptr;
        if (!name || !extractor) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_feature_extractor_name: name and extractor must not be NULL\n");
            return -EINVAL;
        }
        const vmaf::ExtractorInfo *info = vmaf::find_extractor(name);
        if (!info) info = vmaf::find_extractor_by_feature(name);
        if (!info) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_feature_extractor_name: no extractor is or provides \"%s\"\n", name);
            return -ENOENT;
        }
        *extractor = info->name;
        return 0;
    });
}

VMAF_EXPORT int vmaf_model_feature_count(const VmafModel *model, unsigned *count)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!model || !count) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_model_feature_count: model and count must not be NULL\n");
            return -EINVAL;
        }
        *count = unsigned(model->impl.features().size());
        return 0;
    });
}

VMAF_EXPORT int vmaf_model_feature_extractor(const VmafModel *model, unsigned index, const char **extractor)
{
    return vmaf::api::guarded(__func__, [&] {
        if (extractor) *extractor = nullptr;
        if (!model || !extractor) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_model_feature_extractor: model and extractor must not be NULL\n");
            return -EINVAL;
        }
        const auto &features = model->impl.features();
        if (index >= features.size()) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "vmaf_model_feature_extractor: index %u, but the model has %zu features\n",
                      index, features.size());
            return -ERANGE;
        }
        if (const vmaf::ExtractorInfo *info = features[index].extractor) *extractor = info->name;
        return 0;
    });
}
