// SPDX-License-Identifier: BSD-2-Clause-Patent
// The JSON model loaders on fuzzed files: vmaf_model_load_from_path and
// vmaf_model_collection_load_from_path (nlohmann::json, the model_dict schema,
// the libsvm text). A model that loads then predicts one frame from imported
// feature scores (normalization, the SVM kernels, the score transform, clipping,
// bootstrap statistics).
//
// Input: the file content as is (a seed is a model file). The model flags
// (clip, transform) come from the input's length, so every seed still loads.
#include <cmath>
#include <string>

#include "context/context.h"
#include "fuzz_common.h"
#include "libvmaf/libvmaf.h"
#include "model/model.h"
#include "util/log.h"

namespace {

// Feature scores at frame 0 for every feature of the model; values vary with
// the input so that the kernels see more than one point.
void import_scores(VmafContext *ctx, const vmaf::Model &m, const uint8_t *data, size_t size)
{
    unsigned k = 0;
    for (const vmaf::ModelFeature &f : m.features()) {
        const double v = size ? data[k++ % size] / 64.0 : 0.5;
        vmaf_import_feature_score(ctx, f.output_name.c_str(), v, 0);
    }
}

VmafContext *context()
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    VmafContext *ctx = nullptr;
    if (vmaf_init(&ctx, cfg) || !ctx) fuzz::fail("vmaf_init failed");
    return ctx;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzz::MemFile file;
    // Silence the loaders' error messages.
    vmaf::log_set_level(VMAF_LOG_LEVEL_NONE);
    const char *path = file.write({reinterpret_cast<const char *>(data), size});
    VmafModelConfig cfg{};
    cfg.name = "fuzz";
    cfg.flags = size & 7;

    VmafModel *model = nullptr;
    if (vmaf_model_load_from_path(&model, &cfg, path) == 0) {
        if (!model) fuzz::fail("vmaf_model_load_from_path: success without a model");
        VmafContext *ctx = context();
        vmaf_use_features_from_model(ctx, model);
        import_scores(ctx, model->impl, data, size);
        double score = 0;
        vmaf_score_at_index(ctx, model, &score, 0);
        vmaf_score_pooled(ctx, model, VMAF_POOL_METHOD_HARMONIC_MEAN, &score, 0, 0);
        vmaf_close(ctx);
        vmaf_model_destroy(model);
    } else if (model) {
        fuzz::fail("vmaf_model_load_from_path: failure with a model");
    }

    VmafModelCollection *collection = nullptr;
    model = nullptr;
    if (vmaf_model_collection_load_from_path(&model, &collection, &cfg, path) == 0) {
        if (!model || !collection) fuzz::fail("vmaf_model_collection_load_from_path: success without models");
        VmafContext *ctx = context();
        vmaf_use_features_from_model_collection(ctx, collection);
        import_scores(ctx, model->impl, data, size);
        for (const vmaf::Model &m : collection->impl.models()) import_scores(ctx, m, data, size);
        double score = 0;
        vmaf_score_at_index(ctx, model, &score, 0);
        VmafModelCollectionScore cs{};
        vmaf_score_at_index_model_collection(ctx, collection, &cs, 0);
        vmaf_score_pooled_model_collection(ctx, collection, VMAF_POOL_METHOD_MEAN, &cs, 0, 0);
        vmaf_close(ctx);
        vmaf_model_collection_destroy(collection);
        vmaf_model_destroy(model);
    } else if (model || collection) {
        fuzz::fail("vmaf_model_collection_load_from_path: failure with models");
    }
    return 0;
}
