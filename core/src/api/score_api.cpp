// SPDX-License-Identifier: BSD-2-Clause-Patent
// extern "C" shims of the model half of libvmaf.h: register a model's features,
// predict per-frame scores from the collector, pool them.
//
// Predictions are written back to the collector under the model's name (and,
// for a collection, under each bootstrap model's name and the statistics'
// names), so the output writers and vmaf_feature_score_pooled see them. A
// prediction already there is reused, as libvmaf does; a collection's
// statistics are recomputed on every call and overwrite their earlier values
// (the same numbers), where libvmaf would refuse the second write.
#include <cerrno>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "api/export.h"
#include "api/guarded.h"
#include "context/context.h"
#include "model/model.h"
#include "util/log.h"

namespace {

int use_model_features(vmaf::Context &ctx, const vmaf::Model &model)
{
    for (const vmaf::ModelFeature &f : model.features()) {
        if (!f.extractor) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "model %s: no feature extractor here computes \"%s\"\n",
                      model.name().c_str(), f.provided.c_str());
            return -EINVAL;
        }
        if (int err = ctx.use_feature(f.extractor, f.opts)) return err;
    }
    return 0;
}

vmaf::FeatureLookup lookup_at(const vmaf::FeatureCollector &fc, unsigned index)
{
    return [&fc, index](const std::string &name, double *v) { return fc.get(name, index, v); };
}

void report_missing(const vmaf::Model &model, const vmaf::FeatureCollector &fc, unsigned index)
{
    for (const vmaf::ModelFeature &f : model.features()) {
        double v;
        if (fc.get(f.output_name, index, &v)) {
            vmaf::log(VMAF_LOG_LEVEL_ERROR, "model %s: no score of %s at frame %u\n",
                      model.name().c_str(), f.output_name.c_str(), index);
            return;
        }
    }
}

int predict_at(vmaf::Context &ctx, const vmaf::Model &model, unsigned index, double *score)
{
    vmaf::FeatureCollector &fc = ctx.collector();
    if (fc.get(model.name(), index, score) == 0) return 0;
    if (int err = model.predict(lookup_at(fc, index), score)) {
        if (err == -ENOENT) report_missing(model, fc, index);
        return err == -ENOENT ? -EINVAL : err;
    }
    return fc.set(model.name(), index, *score, true);
}

int predict_collection_at(vmaf::Context &ctx, const vmaf::ModelCollection &mc, unsigned index,
                          VmafModelCollectionScore *score)
{
    vmaf::FeatureCollector &fc = ctx.collector();
    std::vector<double> each;
    if (int err = mc.predict(lookup_at(fc, index), score, &each)) {
        if (err == -ENOENT && !mc.models().empty()) report_missing(mc.models()[0], fc, index);
        return err == -ENOENT ? -EINVAL : err;
    }
    for (size_t i = 0; i < each.size(); i++)
        if (int err = fc.set(mc.models()[i].name(), index, each[i], true)) return err;
    const std::string &n = mc.name();
    const std::pair<std::string_view, double> stats[] = {
        {vmaf::kBaggingSuffix, score->bootstrap.bagging_score},
        {vmaf::kStddevSuffix, score->bootstrap.stddev},
        {vmaf::kCiP95LoSuffix, score->bootstrap.ci.p95.lo},
        {vmaf::kCiP95HiSuffix, score->bootstrap.ci.p95.hi},
    };
    for (const auto &[suffix, v] : stats)
        if (int err = fc.set(n + std::string(suffix), index, v, true)) return err;
    return 0;
}

bool bad_range(VmafPoolingMethod method, unsigned lo, unsigned hi)
{
    return lo > hi || method <= VMAF_POOL_METHOD_UNKNOWN || method >= VMAF_POOL_METHOD_NB;
}

}  // namespace

VMAF_EXPORT int vmaf_use_features_from_model(VmafContext *vmaf, VmafModel *model)
{
    if (!vmaf || !model) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] { return use_model_features(vmaf->ctx, model->impl); });
}

VMAF_EXPORT int vmaf_use_features_from_model_collection(VmafContext *vmaf,
                                                        VmafModelCollection *model_collection)
{
    if (!vmaf || !model_collection) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] {
        for (const vmaf::Model &m : model_collection->impl.models())
            if (int err = use_model_features(vmaf->ctx, m)) return err;
        return 0;
    });
}

VMAF_EXPORT int vmaf_score_at_index(VmafContext *vmaf, VmafModel *model, double *score,
                                    unsigned index)
{
    if (!vmaf || !model || !score) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] { return predict_at(vmaf->ctx, model->impl, index, score); });
}

VMAF_EXPORT int vmaf_score_at_index_model_collection(VmafContext *vmaf,
                                                     VmafModelCollection *model_collection,
                                                     VmafModelCollectionScore *score,
                                                     unsigned index)
{
    if (!vmaf || !model_collection || !score) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] {
        return predict_collection_at(vmaf->ctx, model_collection->impl, index, score);
    });
}

VMAF_EXPORT int vmaf_score_pooled(VmafContext *vmaf, VmafModel *model,
                                  enum VmafPoolingMethod pool_method, double *score,
                                  unsigned index_low, unsigned index_high)
{
    if (!vmaf || !model || !score || bad_range(pool_method, index_low, index_high)) return -EINVAL;
    return vmaf::api::guarded(__func__, [&] {
        for (unsigned i = index_low; i <= index_high; i++) {
            if (vmaf->ctx.is_subsampled_out(i)) continue;
            double s;
            if (int err = predict_at(vmaf->ctx, model->impl, i, &s)) return err;
        }
        return vmaf_feature_score_pooled(vmaf, model->impl.name().c_str(), pool_method, score,
                                         index_low, index_high);
    });
}

VMAF_EXPORT int vmaf_score_pooled_model_collection(VmafContext *vmaf,
                                                   VmafModelCollection *model_collection,
                                                   enum VmafPoolingMethod pool_method,
                                                   VmafModelCollectionScore *score,
                                                   unsigned index_low, unsigned index_high)
{
    if (!vmaf || !model_collection || !score || bad_range(pool_method, index_low, index_high))
        return -EINVAL;
    return vmaf::api::guarded(__func__, [&] {
        const vmaf::ModelCollection &mc = model_collection->impl;
        for (unsigned i = index_low; i <= index_high; i++) {
            if (vmaf->ctx.is_subsampled_out(i)) continue;
            VmafModelCollectionScore s{};
            if (int err = predict_collection_at(vmaf->ctx, mc, i, &s)) return err;
        }
        score->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
        const std::pair<std::string_view, double *> stats[] = {
            {vmaf::kBaggingSuffix, &score->bootstrap.bagging_score},
            {vmaf::kStddevSuffix, &score->bootstrap.stddev},
            {vmaf::kCiP95LoSuffix, &score->bootstrap.ci.p95.lo},
            {vmaf::kCiP95HiSuffix, &score->bootstrap.ci.p95.hi},
        };
        for (const auto &[suffix, out] : stats) {
            const std::string name = mc.name() + std::string(suffix);
            if (int err = vmaf_feature_score_pooled(vmaf, name.c_str(), pool_method, out,
                                                    index_low, index_high))
                return err;
        }
        return 0;
    });
}
