// SPDX-License-Identifier: BSD-2-Clause-Patent
// extern "C" shims of libvmaf/model.h: check arguments, load, report errors.
//
// Option dictionaries given to the overload functions are consumed (freed),
// as libvmaf does, once the other arguments have been checked.
#include <cerrno>
#include <exception>
#include <new>
#include <string>

#include "api/dictionary.h"
#include "api/export.h"
#include "api/guarded.h"
#include "model/model.h"
#include "util/log.h"

namespace {

int null_arg(const char *fn, const char *arg)
{
    vmaf::log(VMAF_LOG_LEVEL_ERROR, "%s: %s is NULL\n", fn, arg);
    return -EINVAL;
}

// A file of the other kind is an expected outcome for callers that try a
// model first and a collection next (libvmaf's tool does): say it quietly.
void report(const char *fn, const char *what, const std::string &err, bool other_kind)
{
    vmaf::log(other_kind ? VMAF_LOG_LEVEL_INFO : VMAF_LOG_LEVEL_ERROR, "%s(\"%s\"): %s\n", fn, what,
              err.c_str());
}

int load_model(const char *fn, VmafModel **model, VmafModelConfig *cfg, const char *what, bool by_version)
{
    if (!model) return null_arg(fn, "model");
    *model = nullptr;
    if (!cfg) return null_arg(fn, "cfg");
    if (!what) return null_arg(fn, by_version ? "version" : "path");
    return vmaf::api::guarded(fn, [&] {
        std::string err;
        bool other_kind = false;
        const vmaf::ModelConfig mc = vmaf::ModelConfig::from(*cfg);
        vmaf::Model m;
        const int e = by_version ? vmaf::load_model_version(what, mc, &m, &err, &other_kind)
                                 : vmaf::load_model_file(what, mc, &m, &err, &other_kind);
        if (e) {
            report(fn, what, err, other_kind);
            return e;
        }
        *model = new VmafModel{std::move(m)};
        return 0;
    });
}

int load_collection(const char *fn, VmafModel **model, VmafModelCollection **collection,
                    VmafModelConfig *cfg, const char *what, bool by_version)
{
    if (!model) return null_arg(fn, "model");
    *model = nullptr;
    if (!collection) return null_arg(fn, "model_collection");
    *collection = nullptr;
    if (!cfg) return null_arg(fn, "cfg");
    if (!what) return null_arg(fn, by_version ? "version" : "path");
    return vmaf::api::guarded(fn, [&] {
        std::string err;
        bool other_kind = false;
        const vmaf::ModelConfig mc = vmaf::ModelConfig::from(*cfg);
        vmaf::Model main;
        vmaf::ModelCollection c;
        const int e = by_version ? vmaf::load_collection_version(what, mc, &main, &c, &err, &other_kind)
                                 : vmaf::load_collection_file(what, mc, &main, &c, &err, &other_kind);
        if (e) {
            report(fn, what, err, other_kind);
            return e;
        }
        auto *m = new VmafModel{std::move(main)};
        try {
            *collection = new VmafModelCollection{std::move(c)};
        } catch (...) {
            delete m;
            throw;
        }
        *model = m;
        return 0;
    });
}

}  // namespace

VMAF_EXPORT int vmaf_model_load(VmafModel **model, VmafModelConfig *cfg, const char *version)
{
    return load_model("vmaf_model_load", model, cfg, version, true);
}

VMAF_EXPORT int vmaf_model_load_from_path(VmafModel **model, VmafModelConfig *cfg, const char *path)
{
    return load_model("vmaf_model_load_from_path", model, cfg, path, false);
}

VMAF_EXPORT int vmaf_model_feature_overload(VmafModel *model, const char *feature_name,
                                            VmafFeatureDictionary *opts_dict)
{
    constexpr const char *fn = "vmaf_model_feature_overload";
    if (!model) return null_arg(fn, "model");
    if (!feature_name) return null_arg(fn, "feature_name");
    if (!opts_dict) return null_arg(fn, "opts_dict");
    const int e = vmaf::api::guarded(fn, [&] {
        std::string err;
        if (int e = model->impl.overload(feature_name, opts_dict->entries, &err)) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "%s(\"%s\"): %s\n", fn, feature_name, err.c_str());
            return e;
        }
        return 0;
    });
    vmaf_feature_dictionary_free(&opts_dict);
    return e;
}

VMAF_EXPORT void vmaf_model_destroy(VmafModel *model)
{
    delete model;
}

VMAF_EXPORT int vmaf_model_collection_load(VmafModel **model, VmafModelCollection **model_collection,
                                           VmafModelConfig *cfg, const char *version)
{
    return load_collection("vmaf_model_collection_load", model, model_collection, cfg, version, true);
}

VMAF_EXPORT int vmaf_model_collection_load_from_path(VmafModel **model,
                                                     VmafModelCollection **model_collection,
                                                     VmafModelConfig *cfg, const char *path)
{
    return load_collection("vmaf_model_collection_load_from_path", model, model_collection, cfg, path, false);
}

VMAF_EXPORT int vmaf_model_collection_feature_overload(VmafModel *model,
                                                       VmafModelCollection **model_collection,
                                                       const char *feature_name,
                                                       VmafFeatureDictionary *opts_dict)
{
    constexpr const char *fn = "vmaf_model_collection_feature_overload";
    if (!model) return null_arg(fn, "model");
    if (!model_collection || !*model_collection) return null_arg(fn, "model_collection");
    if (!feature_name) return null_arg(fn, "feature_name");
    if (!opts_dict) return null_arg(fn, "opts_dict");
    const int e = vmaf::api::guarded(fn, [&] {
        // The main model and every bootstrap model, all or none.
        vmaf::Model main = model->impl;
        std::vector<vmaf::Model> others = (*model_collection)->impl.models();
        std::string err;
        int e = main.overload(feature_name, opts_dict->entries, &err);
        for (size_t i = 0; !e && i < others.size(); i++) e = others[i].overload(feature_name, opts_dict->entries, &err);
        if (e) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "%s(\"%s\"): %s\n", fn, feature_name, err.c_str());
            return e;
        }
        model->impl = std::move(main);
        (*model_collection)->impl.models() = std::move(others);
        return 0;
    });
    vmaf_feature_dictionary_free(&opts_dict);
    return e;
}

VMAF_EXPORT void vmaf_model_collection_destroy(VmafModelCollection *model_collection)
{
    delete model_collection;
}
