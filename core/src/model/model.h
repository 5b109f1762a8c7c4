// SPDX-License-Identifier: BSD-2-Clause-Patent
// VMAF models in libvmaf's JSON format: loading, per-frame prediction, and
// bootstrap model collections (a main model plus N bootstrap models whose
// spread gives a confidence interval).
//
// Prediction of one frame, as libvmaf 3.x does it:
//   1. look up each model feature's per-frame score by its output name;
//   2. normalize it (linear_rescale: slope * x + intercept, per feature);
//   3. evaluate the libsvm regressor;
//   4. denormalize the result ((y - intercept) / slope, the model's own pair);
//   5. score transform (polynomial, then piecewise-linear knots, then
//      rectification), only when enabled: off by default in libvmaf 3.x;
//   6. clip to score_clip, on by default.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "feature/extractor.h"
#include "feature/options.h"
#include "libvmaf/model.h"
#include "model/svm.h"

namespace vmaf {

struct ModelFeature {
    std::string provided;              // "VMAF_integer_feature_adm2_score"
    const ExtractorInfo *extractor;    // nullptr when no extractor here provides it
    Dict opts;                         // from feature_opts_dicts and overloads
    std::string output_name;           // "integer_adm2_egl_1": where its scores are found
};

enum class ModelType { SvmNuSvr, BootstrapSvmNuSvr, ResidueBootstrapSvmNuSvr };

// Returns 0 and the score, or a negative errno (-ENOENT when the feature is missing).
using FeatureLookup = std::function<int(const std::string &, double *)>;

// The user's VmafModelConfig, owned.
struct ModelConfig {
    std::string name = "vmaf";
    uint64_t flags = VMAF_MODEL_FLAGS_DEFAULT;

    static ModelConfig from(const VmafModelConfig &cfg);
};

// Polynomial, piecewise-linear and rectifying map of the score.
struct ScoreTransform {
    bool enabled = false;
    std::optional<double> p0, p1, p2;
    std::vector<std::pair<double, double>> knots;  // (x, y); none, or at least two
    bool out_lte_in = false, out_gte_in = false;

    double apply(double y) const;
};

class Model {
public:
    // Build from a parsed JSON document holding "model_dict". Errors are -EINVAL
    // with a message naming the offending field in *err.
    // *other_kind is set when the document is a model collection instead.
    static int from_json(const nlohmann::json &doc, const ModelConfig &cfg, Model *out,
                         std::string *err, bool *other_kind = nullptr);

    const std::string &name() const { return name_; }
    ModelType type() const { return type_; }
    const std::vector<ModelFeature> &features() const { return features_; }
    bool clip_enabled() const { return clip_.has_value(); }
    bool transform_enabled() const { return transform_.enabled; }

    // Score one frame. `skip` holds VMAF_MODEL_FLAG_DISABLE_CLIP and/or
    // VMAF_MODEL_FLAG_DISABLE_TRANSFORM to leave those steps out for this call
    // (bootstrap statistics are taken on raw scores).
    int predict(const FeatureLookup &lookup, double *score, uint64_t skip = 0) const;

    // Steps 5 and 6 alone, for scores derived from several models' raw scores.
    double finish(double raw, uint64_t skip = 0) const;

    // libvmaf's vmaf_model_feature_overload: merge `opts` (overriding) into the
    // options of every feature computed by the extractor named `extractor_name`.
    // Validates them against the extractor's options; the model is unchanged on error.
    int overload(std::string_view extractor_name, const Dict &opts, std::string *err);

private:
    int parse_dict(const nlohmann::json &dict, const ModelConfig &cfg, std::string *err);
    // Find the feature's extractor, check its options, derive its output name.
    static int resolve(ModelFeature *f, std::string *err);
    void correct_chroma(std::vector<double> &x) const;

    enum class Norm { None, LinearRescale };

    std::string name_ = "vmaf";
    ModelType type_ = ModelType::SvmNuSvr;
    std::vector<ModelFeature> features_;
    Norm norm_ = Norm::None;
    double slope_ = 1, intercept_ = 0;                    // of the prediction
    std::vector<double> feature_slopes_, feature_intercepts_;
    SvmRegressor svm_;
    std::optional<std::pair<double, double>> clip_;       // (min, max) when clipping
    ScoreTransform transform_;
    std::optional<double> chroma_correction_;             // chroma_correction_parameter
};

// Output names of a collection's per-frame statistics: ModelCollection::name() + suffix.
inline constexpr std::string_view kBaggingSuffix = "_bagging";
inline constexpr std::string_view kStddevSuffix = "_stddev";
inline constexpr std::string_view kCiP95LoSuffix = "_ci_p95_lo";
inline constexpr std::string_view kCiP95HiSuffix = "_ci_p95_hi";

class ModelCollection {
public:
    // Build from a bootstrap document: {"0": {model_dict...}, "1": ..., "N": ...}.
    // Model "0" becomes *main (named cfg.name); models 1..N form the collection,
    // named "<name>_0001".."<name>_N" (four digits), as libvmaf names them.
    // *other_kind is set when the document is a single model instead.
    static int from_json(const nlohmann::json &doc, const ModelConfig &cfg, Model *main,
                         ModelCollection *out, std::string *err, bool *other_kind = nullptr);

    const std::string &name() const { return name_; }
    const std::vector<Model> &models() const { return models_; }
    std::vector<Model> &models() { return models_; }

    // One frame: `score` gets the bootstrap statistics and `each` (optional) every
    // model's own score (its transform and clip applied), in models() order.
    // The statistics, as libvmaf computes them: on the models' raw scores (no
    // transform, no clip), bagging = mean, stddev = population standard
    // deviation, CI = 2.5th and 97.5th percentiles (linear interpolation);
    // then bagging and the CI bounds go through the first bootstrap model's
    // transform and clip, and the stddev is scaled by that map's slope at the
    // mean (central difference, +-0.01).
    int predict(const FeatureLookup &lookup, VmafModelCollectionScore *score,
                std::vector<double> *each) const;

private:
    std::string name_;
    std::vector<Model> models_;
};

// The model directory on disk: $VMAF_MODEL_DIR when set and not empty, else
// the directory configured at build time.
std::string model_directory();

// A model embedded in the library at build time (meson option built_in_models):
// the text of <version>.json as the configured model directory held it.
struct BuiltInModel {
    std::string_view version;  // "vmaf_v0.6.1"
    std::string_view json;
};

// The built-in models, in the build's order; empty when the build has none
// (defined by the source that core/src/model/embed_models.py writes).
std::span<const BuiltInModel> built_in_models();

// Where vmaf_model_load() and vmaf_model_collection_load() find a version; the
// first that has it wins:
//   1. $VMAF_MODEL_DIR, when set and not empty (as model_version_path());
//   2. the built-in models, as libvmaf (which has no other source);
//   3. when $VMAF_MODEL_DIR is unset or empty, the directory set at build time
//      (as model_version_path()).
// -EINVAL for a name that is not a plain file name, a version in several folders
// of the directory searched, or one found nowhere (*err then lists the
// built-in names and the directory searched).
struct ModelSource {
    const BuiltInModel *built_in = nullptr;  // when built in
    std::string path;                        // when a file
};
int find_model_version(std::string_view version, ModelSource *out, std::string *err);

// find_model_version(), then load what it found (see load_model_file()).
int load_model_version(std::string_view version, const ModelConfig &cfg, Model *out, std::string *err,
                       bool *other_kind = nullptr);
int load_collection_version(std::string_view version, const ModelConfig &cfg, Model *main,
                            ModelCollection *out, std::string *err, bool *other_kind = nullptr);

// Load a model file (libvmaf JSON). Errors: -EINVAL when it cannot be read
// (as libvmaf) or for anything wrong with the content; *err says what. *other_kind is
// set when the file holds a collection where a model was asked for, or the
// reverse (callers that try one kind, then the other, report that quietly).
int load_model_file(const std::string &path, const ModelConfig &cfg, Model *out, std::string *err,
                    bool *other_kind = nullptr);
int load_collection_file(const std::string &path, const ModelConfig &cfg, Model *main,
                         ModelCollection *out, std::string *err, bool *other_kind = nullptr);

// The file of a model version in model_directory(): "<dir>/<version>.json", or
// "<dir>/<folder>/<version>.json" when exactly one folder of <dir> has it
// (upstream's layout of model families). -EINVAL for names that are not plain
// file names, for a version in no folder or in several, as libvmaf returns
// for a version it does not know.
int model_version_path(std::string_view version, std::string *path, std::string *err);

// Option values as libvmaf stores them: numbers go through float and "%g"
// ("1.0" -> "1"), anything else is kept.
std::string normalize_option_value(const std::string &value);

}  // namespace vmaf

struct VmafModel {
    vmaf::Model impl;
};

struct VmafModelCollection {
    vmaf::ModelCollection impl;
};
