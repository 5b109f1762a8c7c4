// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/options.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace vmaf {

// Whether `text` is one of the '|'-separated `choices`.
static bool is_choice(const char *choices, const std::string &text)
{
    std::string_view rest(choices);
    while (true) {
        const size_t bar = rest.find('|');
        if (rest.substr(0, bar) == text) return true;
        if (bar == std::string_view::npos) return false;
        rest.remove_prefix(bar + 1);
    }
}

static bool parse_value(const OptionSpec &spec, const std::string &text, double *v)
{
    if (spec.type == OptType::Bool) {
        if (text == "true" || text == "1") { *v = 1; return true; }
        if (text == "false" || text == "0") { *v = 0; return true; }
        return false;
    }
    char *end = nullptr;
    errno = 0;
    const double d = std::strtod(text.c_str(), &end);
    if (errno || end == text.c_str() || *end != '\0' || !std::isfinite(d)) return false;
    if (spec.type == OptType::Int && d != std::floor(d)) return false;
    *v = d;
    return true;
}

int FeatureOptions::parse(std::span<const OptionSpec> specs, const Dict &user,
                          FeatureOptions *out, std::string *err)
{
    FeatureOptions o;
    for (const auto &s : specs)
        o.values_.push_back({&s, s.def, false, s.type == OptType::String && s.text_def ? s.text_def : ""});
    for (const auto &[key, text] : user) {
        auto it = std::find_if(o.values_.begin(), o.values_.end(),
                               [&key = key](const Value &v) { return key == v.spec->name; });
        if (it == o.values_.end()) {
            if (err) *err = "unknown option '" + key + "'";
            return -EINVAL;
        }
        if (it->spec->type == OptType::String) {
            if (it->spec->choices && !is_choice(it->spec->choices, text)) {
                if (err) *err = "option '" + key + "': '" + text + "' is not one of " + it->spec->choices;
                return -EINVAL;
            }
            it->s = text;
            it->set = true;
            continue;
        }
        double v;
        if (!parse_value(*it->spec, text, &v)) {
            if (err) *err = "option '" + key + "': cannot parse '" + text + "'";
            return -EINVAL;
        }
        if (it->spec->type != OptType::Bool && (v < it->spec->min || v > it->spec->max)) {
            char buf[160];
            std::snprintf(buf, sizeof(buf), "option '%s': %g is outside [%g, %g]",
                          key.c_str(), v, it->spec->min, it->spec->max);
            if (err) *err = buf;
            return -EINVAL;
        }
        it->v = v;
        it->set = true;
    }
    *out = std::move(o);
    return 0;
}

const FeatureOptions::Value &FeatureOptions::find(const char *name) const
{
    for (const auto &v : values_)
        if (!std::strcmp(v.spec->name, name)) return v;
    std::fprintf(stderr, "libvmaf: internal error: no option %s\n", name);
    std::abort();
}

double FeatureOptions::number(const char *name) const
{
    return find(name).v;
}

const std::string &FeatureOptions::text(const char *name) const
{
    return find(name).s;
}

bool FeatureOptions::is_set(const char *name) const
{
    return find(name).set;
}

bool FeatureOptions::flag(const char *name) const
{
    return number(name) != 0.0;
}

std::string FeatureOptions::name_suffix() const
{
    std::vector<const Value *> tagged;
    for (const auto &v : values_)
        if (v.spec->feature_param && (v.spec->type == OptType::String
                                          ? v.s != (v.spec->text_def ? v.spec->text_def : "")
                                          : v.v != v.spec->def))
            tagged.push_back(&v);
    std::sort(tagged.begin(), tagged.end(), [](const Value *a, const Value *b) {
        return std::strcmp(a->spec->name, b->spec->name) < 0;
    });
    std::string out;
    for (const Value *v : tagged) {
        const char *key = v->spec->alias ? v->spec->alias : v->spec->name;
        out += "_";
        out += key;
        if (v->spec->type == OptType::Bool) continue;
        if (v->spec->type == OptType::String) {
            out += "_" + v->s;
            continue;
        }
        char buf[64];
        if (v->spec->type == OptType::Int)
            std::snprintf(buf, sizeof(buf), "_%d", int(v->v));
        else
            std::snprintf(buf, sizeof(buf), "_%g", v->v);
        out += buf;
    }
    return out;
}

std::string FeatureOptions::canonical() const
{
    std::string out;
    for (const auto &v : values_) {
        if (v.spec->type == OptType::String) {
            out += std::string(v.spec->name) + "=" + v.s + ":";
            continue;
        }
        char buf[96];
        std::snprintf(buf, sizeof(buf), "%s=%.17g:", v.spec->name, v.v);
        out += buf;
    }
    return out;
}

bool FeatureOptions::same_except(const FeatureOptions &o, const char *name) const
{
    if (values_.size() != o.values_.size()) return false;
    for (size_t i = 0; i < values_.size(); i++) {
        const Value &a = values_[i], &b = o.values_[i];
        if (a.spec != b.spec) return false;
        if (std::strcmp(a.spec->name, name) == 0) continue;
        if (a.v != b.v || a.s != b.s) return false;
    }
    return true;
}

}  // namespace vmaf
