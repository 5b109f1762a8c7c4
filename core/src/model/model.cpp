// SPDX-License-Identifier: BSD-2-Clause-Patent
// Model prediction, score transform and feature option overloads.
#include "model/model.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "feature/registry.h"

namespace vmaf {

ModelConfig ModelConfig::from(const VmafModelConfig &cfg)
{
    ModelConfig c;
    if (cfg.name) c.name = cfg.name;
    c.flags = cfg.flags;
    return c;
}

std::string normalize_option_value(const std::string &value)
{
    // libvmaf's dictionary re-prints numeric values through float and "%g", so
    // "1.0" and "1" are the same option value; do the same.
    const char *s = value.c_str();
    char *end = nullptr;
    const float f = std::strtof(s, &end);
    if (end == s) return value;
    while (*end == ' ' || *end == '\t' || *end == '\n') end++;
    if (*end != '\0') return value;
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%g", double(f));
    return buf;
}

// ---- features ---------------------------------------------------------------

int Model::resolve(ModelFeature *f, std::string *err)
{
    f->extractor = find_extractor_by_feature(f->provided);
    if (!f->extractor) {
        // No extractor here computes it (a float feature, say): the model still
        // loads, and scoring fails when the feature is looked up. The name is
        // libvmaf's alias plus the raw options, the best that can be done
        // without the extractor's option table.
        f->output_name = std::string(feature_alias(f->provided));
        Dict sorted = f->opts;
        std::sort(sorted.begin(), sorted.end());
        for (const auto &[k, v] : sorted) f->output_name += "_" + k + "_" + v;
        return 0;
    }
    FeatureOptions opts;
    std::string why;
    if (int e = FeatureOptions::parse(f->extractor->options, f->opts, &opts, &why)) {
        if (err) *err = "feature " + f->provided + " (extractor " + f->extractor->name + "): " + why;
        return e;
    }
    f->output_name = feature_output_name(f->provided, opts);
    return 0;
}

int Model::overload(std::string_view extractor_name, const Dict &opts, std::string *err)
{
    std::vector<ModelFeature> updated = features_;
    for (ModelFeature &f : updated) {
        if (!f.extractor || extractor_name != f.extractor->name) continue;
        for (const auto &[key, val] : opts) {
            const std::string v = normalize_option_value(val);
            auto it = std::find_if(f.opts.begin(), f.opts.end(), [&key = key](const auto &kv) { return kv.first == key; });
            if (it != f.opts.end()) it->second = v;
            else f.opts.emplace_back(key, v);
        }
        if (int e = resolve(&f, err)) return e;
    }
    features_ = std::move(updated);
    return 0;
}

// ---- prediction -------------------------------------------------------------

namespace {

// libvmaf's line through two knots (predict.c, find_linear_function_parameters).
void line_through(std::pair<double, double> a, std::pair<double, double> b, double *slope, double *offset)
{
    if (a.first == 0) {
        *offset = a.second;
        *slope = (b.second - *offset) / b.first;
    } else {
        *slope = (b.second - a.second) / (b.first - a.first);
        *offset = a.second - a.first * *slope;
    }
}

// Piecewise-linear map through the knots, extended past both ends by the first
// and last segments. Where x sits on a shared knot the later segment decides,
// as in libvmaf, which evaluates every segment in turn.
double piecewise_linear(double x, const std::vector<std::pair<double, double>> &knots)
{
    double y = 0.0;
    const size_t n_seg = knots.size() - 1;
    for (size_t i = 0; i < n_seg; i++) {
        const auto &a = knots[i], &b = knots[i + 1];
        const bool inside = a.first <= x && x <= b.first;
        const bool below = i == 0 && x < a.first;
        const bool above = i == n_seg - 1 && x > b.first;
        if (!(inside || below || above)) continue;
        if (a.second == b.second) {
            y = a.second;
        } else {
            double slope, offset;
            line_through(a, b, &slope, &offset);
            y = slope * x + offset;
        }
    }
    return y;
}

}  // namespace

double ScoreTransform::apply(double y_in) const
{
    double y = y_in;
    if (p0 || p1 || p2) {
        double poly = 0.0;
        if (p0) poly += *p0;
        if (p1) poly += *p1 * y_in;
        if (p2) poly += *p2 * y_in * y_in;
        y = poly;
    }
    if (!knots.empty()) y = piecewise_linear(y, knots);
    if (out_lte_in && y > y_in) y = y_in;
    if (out_gte_in && y < y_in) y = y_in;
    return y;
}

double Model::finish(double raw, uint64_t skip) const
{
    double y = raw;
    if (transform_.enabled && !(skip & VMAF_MODEL_FLAG_DISABLE_TRANSFORM)) y = transform_.apply(y);
    if (clip_ && !(skip & VMAF_MODEL_FLAG_DISABLE_CLIP)) {
        // Written as libvmaf writes it, so that a NaN passes through unchanged.
        y = y < clip_->first ? clip_->first : y;
        y = y > clip_->second ? clip_->second : y;
    }
    return y;
}

// libvmaf's chroma-from-luma correction: when the "speed_chroma" feature is
// exactly 0 (not computed), replace it by c * (1 - adm3), c being the model's
// chroma_correction_parameter. A parameter of 0 turns the correction off.
void Model::correct_chroma(std::vector<double> &x) const
{
    const double c = *chroma_correction_;
    if (c == 0) return;
    auto raw = [&](size_t i) {
        return norm_ == Norm::LinearRescale ? (x[i] - feature_intercepts_[i]) / feature_slopes_[i] : x[i];
    };
    std::optional<size_t> guiding, guided;
    for (size_t i = 0; i < features_.size(); i++) {
        if (features_[i].provided.find("adm3") != std::string::npos) guiding = i;
        if (features_[i].provided.find("speed_chroma") != std::string::npos) guided = i;
    }
    if (!guiding || !guided || raw(*guided) != 0.0) return;
    double corrected = -c * raw(*guiding) + c;
    if (norm_ == Norm::LinearRescale)
        corrected = feature_slopes_[*guided] * corrected + feature_intercepts_[*guided];
    x[*guided] = corrected;
}

int Model::predict(const FeatureLookup &lookup, double *score, uint64_t skip) const
{
    if (!lookup || !score) return -EINVAL;
    std::vector<double> x(features_.size());
    for (size_t i = 0; i < features_.size(); i++) {
        double v;
        if (int e = lookup(features_[i].output_name, &v)) return e;
        x[i] = norm_ == Norm::LinearRescale ? feature_slopes_[i] * v + feature_intercepts_[i] : v;
    }
    if (chroma_correction_) correct_chroma(x);
    double y = svm_.predict(x);
    if (norm_ == Norm::LinearRescale) y = (y - intercept_) / slope_;
    *score = finish(y, skip);
    return 0;
}

// ---- bootstrap collections --------------------------------------------------

namespace {

// Linear interpolation between the order statistics around rank p * (n - 1).
double percentile(const std::vector<double> &sorted, double perc)
{
    const double p = perc * double(sorted.size() - 1) / 100.0;
    const auto lo = size_t(std::floor(p)), hi = size_t(std::ceil(p));
    if (lo == hi) return sorted[lo];
    return sorted[lo] * (double(hi) - p) + sorted[hi] * (p - double(lo));
}

}  // namespace

int ModelCollection::predict(const FeatureLookup &lookup, VmafModelCollectionScore *score,
                             std::vector<double> *each) const
{
    if (!score || models_.empty()) return -EINVAL;
    const size_t n = models_.size();
    std::vector<double> raw(n), own(n);
    for (size_t i = 0; i < n; i++) {
        if (int e = models_[i].predict(lookup, &raw[i],
                                       VMAF_MODEL_FLAG_DISABLE_CLIP | VMAF_MODEL_FLAG_DISABLE_TRANSFORM))
            return e;
        // The model's own score: the same prediction finished its own way.
        own[i] = models_[i].finish(raw[i]);
    }

    double sum = 0;
    for (const double s : raw) sum += s;
    const double mean = sum / double(n);
    double ssd = 0;
    for (const double s : raw) ssd += (s - mean) * (s - mean);
    double stddev = std::sqrt(ssd / double(n));

    std::vector<double> sorted = raw;
    std::sort(sorted.begin(), sorted.end());
    double lo = percentile(sorted, 2.5), hi = percentile(sorted, 97.5);

    // Map the statistics through the first bootstrap model's transform and
    // clip; the stddev follows the map's local slope.
    const Model &ref = models_[0];
    constexpr double delta = 0.01;
    const double slope = (ref.finish(mean + delta) - ref.finish(mean - delta)) / (2.0 * delta);

    score->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
    score->bootstrap.bagging_score = ref.finish(mean);
    score->bootstrap.stddev = stddev * slope;
    score->bootstrap.ci.p95.lo = ref.finish(lo);
    score->bootstrap.ci.p95.hi = ref.finish(hi);
    if (each) *each = std::move(own);
    return 0;
}

}  // namespace vmaf
