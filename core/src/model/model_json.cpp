// SPDX-License-Identifier: BSD-2-Clause-Patent
// Reading libvmaf's JSON model format into a Model / ModelCollection.
//
// A model file is {"model_dict": {...}, ...anything else}; model_dict holds
// model_type, norm_type, feature_names, feature_opts_dicts (optional), slopes
// and intercepts (element 0 is the prediction's pair, then one per feature),
// score_clip (optional), score_transform (optional), chroma_correction_parameter
// (optional) and the libsvm model text in "model". Other keys (param_dict,
// feature_dict, ...) are training metadata and are ignored, as libvmaf does.
#include <cerrno>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "model/model.h"

namespace vmaf {

namespace {

using json = nlohmann::json;

int fail(std::string *err, std::string msg)
{
    if (err) *err = std::move(msg);
    return -EINVAL;
}

const char *type_name(const json &v)
{
    return v.type_name();
}

// dict[key] when present (nullptr otherwise).
const json *member(const json &dict, const char *key)
{
    const auto it = dict.find(key);
    return it == dict.end() ? nullptr : &*it;
}

int number_array(const json &v, const std::string &where, std::vector<double> *out, std::string *err)
{
    if (!v.is_array()) return fail(err, where + ": expected an array of numbers, got " + type_name(v));
    out->clear();
    for (size_t i = 0; i < v.size(); i++) {
        if (!v[i].is_number())
            return fail(err, where + "[" + std::to_string(i) + "]: expected a number, got " + type_name(v[i]));
        out->push_back(v[i].get<double>());
    }
    return 0;
}

int parse_model_type(const json &v, ModelType *out, std::string *err)
{
    if (!v.is_string()) return fail(err, std::string("model_dict.model_type: expected a string, got ") + type_name(v));
    const std::string t = v.get<std::string>();
    if (t == "LIBSVMNUSVR") *out = ModelType::SvmNuSvr;
    else if (t == "BOOTSTRAP_LIBSVMNUSVR") *out = ModelType::BootstrapSvmNuSvr;
    else if (t == "RESIDUEBOOTSTRAP_LIBSVMNUSVR") *out = ModelType::ResidueBootstrapSvmNuSvr;
    else
        return fail(err, "model_dict.model_type: unknown model type '" + t +
                             "' (supported: LIBSVMNUSVR, BOOTSTRAP_LIBSVMNUSVR, RESIDUEBOOTSTRAP_LIBSVMNUSVR)");
    return 0;
}

// One feature's options: numbers are normalized like libvmaf's dictionary does,
// booleans become "true"/"false", strings are kept.
int parse_opts_dict(const json &v, const std::string &where, Dict *out, std::string *err)
{
    if (!v.is_object()) return fail(err, where + ": expected an object, got " + type_name(v));
    for (const auto &[key, val] : v.items()) {
        std::string text;
        if (val.is_number()) {
            char buf[32];
            std::snprintf(buf, sizeof(buf), "%.17g", val.get<double>());
            text = normalize_option_value(buf);
        } else if (val.is_boolean()) {
            text = val.get<bool>() ? "true" : "false";
        } else if (val.is_string()) {
            text = val.get<std::string>();
        } else {
            return fail(err, where + "." + key + ": expected a number, boolean or string, got " + type_name(val));
        }
        out->emplace_back(key, std::move(text));
    }
    return 0;
}

int parse_flag_string(const json &v, const std::string &where, bool *out, std::string *err)
{
    // libvmaf writes these as the strings "true"/"false"; JSON booleans are accepted too.
    if (v.is_boolean()) {
        *out = v.get<bool>();
        return 0;
    }
    if (!v.is_string()) return fail(err, where + ": expected \"true\" or \"false\", got " + type_name(v));
    *out = v.get<std::string>() == "true";
    return 0;
}

int parse_poly_coef(const json &t, const char *key, std::optional<double> *out, std::string *err)
{
    const json *v = member(t, key);
    if (!v || v->is_null()) return 0;
    if (!v->is_number())
        return fail(err, std::string("model_dict.score_transform.") + key + ": expected a number or null, got " +
                             type_name(*v));
    *out = v->get<double>();
    return 0;
}

int parse_knots(const json &v, std::vector<std::pair<double, double>> *out, std::string *err)
{
    const std::string where = "model_dict.score_transform.knots";
    if (v.is_null()) return 0;
    if (!v.is_array()) return fail(err, where + ": expected an array of [x, y] pairs, got " + type_name(v));
    for (size_t i = 0; i < v.size(); i++) {
        const json &k = v[i];
        const std::string at = where + "[" + std::to_string(i) + "]";
        if (!k.is_array() || k.size() != 2 || !k[0].is_number() || !k[1].is_number())
            return fail(err, at + ": expected [x, y] with two numbers");
        out->emplace_back(k[0].get<double>(), k[1].get<double>());
    }
    // libvmaf's mapping requires a non-decreasing function; it ignores the
    // transform's failure at prediction time, so reject such models up front.
    if (out->size() == 1) return fail(err, where + ": needs at least two knots");
    for (size_t i = 1; i < out->size(); i++)
        if (!((*out)[i - 1].first < (*out)[i].first && (*out)[i - 1].second <= (*out)[i].second))
            return fail(err, where + ": x must increase and y must not decrease from knot to knot");
    return 0;
}

int parse_transform(const json &v, ScoreTransform *out, std::string *err)
{
    const std::string where = "model_dict.score_transform";
    if (!v.is_object()) return fail(err, where + ": expected an object, got " + type_name(v));
    ScoreTransform t;
    if (const json *e = member(v, "enabled")) {
        if (!e->is_boolean()) return fail(err, where + ".enabled: expected true or false, got " + type_name(*e));
        t.enabled = e->get<bool>();
    }
    if (int e = parse_poly_coef(v, "p0", &t.p0, err)) return e;
    if (int e = parse_poly_coef(v, "p1", &t.p1, err)) return e;
    if (int e = parse_poly_coef(v, "p2", &t.p2, err)) return e;
    if (const json *k = member(v, "knots"))
        if (int e = parse_knots(*k, &t.knots, err)) return e;
    if (const json *f = member(v, "out_lte_in"))
        if (int e = parse_flag_string(*f, where + ".out_lte_in", &t.out_lte_in, err)) return e;
    if (const json *f = member(v, "out_gte_in"))
        if (int e = parse_flag_string(*f, where + ".out_gte_in", &t.out_gte_in, err)) return e;
    *out = std::move(t);
    return 0;
}

}  // namespace

int Model::from_json(const json &doc, const ModelConfig &cfg, Model *out, std::string *err,
                     bool *other_kind)
{
    if (!doc.is_object()) return fail(err, std::string("expected a JSON object, got ") + type_name(doc));
    const json *dict = member(doc, "model_dict");
    if (!dict) {
        if (member(doc, "0")) {
            if (other_kind) *other_kind = true;
            return fail(err, "no \"model_dict\": this is a model collection (bootstrap model); "
                             "load it with vmaf_model_collection_load()");
        }
        return fail(err, "no \"model_dict\": not a libvmaf JSON model");
    }
    Model m;
    m.name_ = cfg.name;
    if (int e = m.parse_dict(*dict, cfg, err)) return e;
    *out = std::move(m);
    return 0;
}

int Model::parse_dict(const json &dict, const ModelConfig &cfg, std::string *err)
{
    if (!dict.is_object()) return fail(err, std::string("model_dict: expected an object, got ") + type_name(dict));
    auto required = [&](const char *key, const json **v) {
        *v = member(dict, key);
        return *v ? 0 : fail(err, std::string("model_dict: missing \"") + key + "\"");
    };

    const json *v;
    if (int e = required("model_type", &v)) return e;
    if (int e = parse_model_type(*v, &type_, err)) return e;

    if (int e = required("norm_type", &v)) return e;
    if (!v->is_string()) return fail(err, std::string("model_dict.norm_type: expected a string, got ") + type_name(*v));
    const std::string norm = v->get<std::string>();
    if (norm == "linear_rescale") norm_ = Norm::LinearRescale;
    else if (norm == "none") norm_ = Norm::None;
    else return fail(err, "model_dict.norm_type: unknown normalization '" + norm + "' (supported: linear_rescale, none)");

    if (int e = required("feature_names", &v)) return e;
    if (!v->is_array() || v->empty())
        return fail(err, "model_dict.feature_names: expected a non-empty array of feature names");
    for (size_t i = 0; i < v->size(); i++) {
        const json &n = (*v)[i];
        if (!n.is_string() || n.get<std::string>().empty())
            return fail(err, "model_dict.feature_names[" + std::to_string(i) + "]: expected a feature name");
        features_.push_back({n.get<std::string>(), nullptr, {}, {}});
    }
    const size_t n_features = features_.size();

    if (const json *opts = member(dict, "feature_opts_dicts")) {
        if (!opts->is_array())
            return fail(err, std::string("model_dict.feature_opts_dicts: expected an array, got ") + type_name(*opts));
        if (opts->size() > n_features)
            return fail(err, "model_dict.feature_opts_dicts: " + std::to_string(opts->size()) +
                                 " entries for " + std::to_string(n_features) + " features");
        for (size_t i = 0; i < opts->size(); i++)
            if (int e = parse_opts_dict((*opts)[i], "model_dict.feature_opts_dicts[" + std::to_string(i) + "]",
                                        &features_[i].opts, err))
                return e;
    }
    for (ModelFeature &f : features_)
        if (int e = resolve(&f, err)) return e;

    // Element 0 is the prediction's (de)normalization, then one per feature.
    std::vector<double> slopes, intercepts;
    for (auto [key, arr] : {std::pair{"slopes", &slopes}, std::pair{"intercepts", &intercepts}}) {
        const json *a = member(dict, key);
        if (!a) {
            if (norm_ == Norm::LinearRescale)
                return fail(err, std::string("model_dict: missing \"") + key + "\" (needed by linear_rescale)");
            continue;
        }
        if (int e = number_array(*a, std::string("model_dict.") + key, arr, err)) return e;
        if (arr->size() != n_features + 1)
            return fail(err, std::string("model_dict.") + key + ": expected " + std::to_string(n_features + 1) +
                                 " numbers (one for the score, one per feature), got " + std::to_string(arr->size()));
    }
    if (!slopes.empty()) {
        slope_ = slopes[0];
        feature_slopes_.assign(slopes.begin() + 1, slopes.end());
    }
    if (!intercepts.empty()) {
        intercept_ = intercepts[0];
        feature_intercepts_.assign(intercepts.begin() + 1, intercepts.end());
    }
    if (norm_ == Norm::LinearRescale && slope_ == 0)
        return fail(err, "model_dict.slopes[0]: the score's slope must not be zero");

    if (const json *c = member(dict, "score_clip")) {
        std::vector<double> range;
        if (int e = number_array(*c, "model_dict.score_clip", &range, err)) return e;
        if (range.size() != 2 || !(range[0] <= range[1]))
            return fail(err, "model_dict.score_clip: expected [min, max] with min <= max");
        if (!(cfg.flags & VMAF_MODEL_FLAG_DISABLE_CLIP)) clip_ = std::pair{range[0], range[1]};
    }

    if (const json *t = member(dict, "score_transform"))
        if (int e = parse_transform(*t, &transform_, err)) return e;
    // libvmaf 3.x: a transform runs only when the model enables it or the user
    // asks for it. DISABLE_TRANSFORM (which libvmaf accepts but only consults
    // internally) turns it off whatever the file or ENABLE_TRANSFORM say.
    if (cfg.flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM) transform_.enabled = true;
    if (cfg.flags & VMAF_MODEL_FLAG_DISABLE_TRANSFORM) transform_.enabled = false;

    if (const json *c = member(dict, "chroma_correction_parameter")) {
        if (!c->is_number())
            return fail(err, std::string("model_dict.chroma_correction_parameter: expected a number, got ") +
                                 type_name(*c));
        chroma_correction_ = c->get<double>();
    }

    if (int e = required("model", &v)) return e;
    if (!v->is_string()) return fail(err, std::string("model_dict.model: expected libsvm model text, got ") + type_name(*v));
    if (int e = SvmRegressor::parse(v->get<std::string>(), &svm_, err)) {
        if (err) *err = "model_dict.model: " + *err;
        return e;
    }
    return 0;
}

int ModelCollection::from_json(const json &doc, const ModelConfig &cfg, Model *main,
                               ModelCollection *out, std::string *err, bool *other_kind)
{
    if (!doc.is_object()) return fail(err, std::string("expected a JSON object, got ") + type_name(doc));
    if (!member(doc, "0")) {
        if (member(doc, "model_dict")) {
            if (other_kind) *other_kind = true;
            return fail(err, "no model \"0\": this is a single model, not a model collection; "
                             "load it with vmaf_model_load()");
        }
        return fail(err, "no model \"0\": not a libvmaf model collection");
    }
    Model first;
    ModelCollection c;
    c.name_ = cfg.name;
    for (unsigned i = 0;; i++) {
        const json *entry = member(doc, std::to_string(i).c_str());
        if (!entry) break;
        ModelConfig mc = cfg;
        if (i > 0) {
            char suffix[16];
            std::snprintf(suffix, sizeof(suffix), "_%04u", i);
            mc.name += suffix;
        }
        Model m;
        if (int e = Model::from_json(*entry, mc, &m, err)) {
            if (err) *err = "model \"" + std::to_string(i) + "\": " + *err;
            return e;
        }
        if (i == 0) first = std::move(m);
        else c.models_.push_back(std::move(m));
    }
    if (c.models_.empty()) return fail(err, "a model collection needs models \"1\"..\"N\" besides model \"0\"");
    const ModelType type = c.models_[0].type();
    if (type != ModelType::BootstrapSvmNuSvr && type != ModelType::ResidueBootstrapSvmNuSvr)
        return fail(err, "model \"1\": a model collection needs BOOTSTRAP_LIBSVMNUSVR or "
                         "RESIDUEBOOTSTRAP_LIBSVMNUSVR models");
    for (size_t i = 1; i < c.models_.size(); i++)
        if (c.models_[i].type() != type)
            return fail(err, "model \"" + std::to_string(i + 1) + "\": model_type differs from model \"1\"");
    *main = std::move(first);
    *out = std::move(c);
    return 0;
}

}  // namespace vmaf
