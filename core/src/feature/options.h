// SPDX-License-Identifier: BSD-2-Clause-Patent
// Typed, validated options of one feature extractor, and the output-name
// suffix libvmaf derives from non-default options ("_egl_1").
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace vmaf {

// Ordered key/value pairs as the user gave them (VmafFeatureDictionary's body).
using Dict = std::vector<std::pair<std::string, std::string>>;

enum class OptType { Bool, Int, Double, String };

struct OptionSpec {
    const char *name;     // key in the dictionary ("vif_enhn_gain_limit")
    const char *alias;    // short key used in output names ("egl"), or nullptr
    OptType type;
    double def, min, max; // bools: 0/1; unused for strings
    bool feature_param;   // changes the computed score, so it tags output names
    const char *help;
    // String options: the default, and the accepted values ("a|b|c"), or
    // nullptr for any text.
    const char *text_def = nullptr;
    const char *choices = nullptr;
};

class FeatureOptions {
public:
    // Validate `user` against `specs`: unknown keys, unparsable values and values
    // outside [min, max] fail with -EINVAL and a message in *err.
    static int parse(std::span<const OptionSpec> specs, const Dict &user,
                     FeatureOptions *out, std::string *err);

    double number(const char *name) const;  // Int and Double options
    bool flag(const char *name) const;      // Bool options
    const std::string &text(const char *name) const;  // String options
    bool is_set(const char *name) const;              // given by the caller

    // "_egl_1" style suffix: non-default feature params, sorted by option name,
    // alias (or name) then value printed with %g; bools add "_alias" alone.
    std::string name_suffix() const;

    // Canonical "key=value:key=value" of all options, for de-duplicating extractors.
    std::string canonical() const;

    // Whether `o` (options of the same extractor) has the same value of every
    // option but `name`.
    bool same_except(const FeatureOptions &o, const char *name) const;

private:
    struct Value { const OptionSpec *spec; double v; bool set; std::string s; };
    const Value &find(const char *name) const;
    std::vector<Value> values_;
};

}  // namespace vmaf
