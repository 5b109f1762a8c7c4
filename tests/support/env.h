// SPDX-License-Identifier: BSD-2-Clause-Patent
// An environment variable set (or unset, with nullptr) for the lifetime of an
// object, then restored: for the library's VMAF_* switches, read when a state,
// engine or model is made.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace vmaf::test {

class EnvOverride {
public:
    EnvOverride(const char *name, const char *value) : name_(name)
    {
        if (const char *old = std::getenv(name)) old_ = old;
        if (value) setenv(name, value, 1);
        else unsetenv(name);
    }
    ~EnvOverride()
    {
        if (old_) setenv(name_, old_->c_str(), 1);
        else unsetenv(name_);
    }
    EnvOverride(const EnvOverride &) = delete;
    EnvOverride &operator=(const EnvOverride &) = delete;

private:
    const char *name_;
    std::optional<std::string> old_;
};

}  // namespace vmaf::test
