// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "util/env.h"

#include <cstdlib>
#include <cstring>
#include <string>

#ifdef _WIN32
#include <mutex>
#include <set>
#endif

#include "util/log.h"
#include "os/os.h"

namespace vmaf {

namespace {

bool same_word(std::string_view a, const char *b)
{
    if (a.size() != std::strlen(b)) return false;
    for (size_t i = 0; i < a.size(); i++) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
        if (c != b[i]) return false;
    }
    return true;
}

std::string listed(std::initializer_list<const char *> values)
{
    std::string s;
    for (const char *v : values) {
        if (!s.empty()) s += ", ";
        s += *v ? v : "\"\"";
    }
    return s;
}

}  // namespace

const char *env_get(const char *name)
{
#ifdef _WIN32
    // getenv there gives the ANSI code page: the value is read as UTF-16
    // (os::find_env) and kept, each distinct value once, for the life of the
    // process, so that the pointer stays valid as getenv's would.
    std::string value;
    if (!os::find_env(name, &value)) return nullptr;
    static std::mutex mutex;
    static std::set<std::string> values;
    const std::lock_guard<std::mutex> lock(mutex);
    return values.insert(std::move(value)).first->c_str();
#else
    return std::getenv(name);
#endif
}

bool parse_decimal(std::string_view text, uint64_t max, uint64_t *out)
{
    if (text.empty() || text.size() > 20) return false;
    uint64_t v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        const uint64_t d = uint64_t(c - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    if (v > max) return false;
    *out = v;
    return true;
}

bool env_switch(const char *name, bool fallback)
{
    const char *v = env_get(name);
    if (!v || !*v) return fallback;
    for (const char *w : {"1", "on", "true", "yes"})
        if (same_word(v, w)) return true;
    for (const char *w : {"0", "off", "false", "no"})
        if (same_word(v, w)) return false;
    log_env(VMAF_LOG_LEVEL_WARNING, "%s=%s is not a switch (1, on, true, yes; 0, off, false, no): taken as %s\n",
            name, v, fallback ? "on" : "off");
    return fallback;
}

int env_choice(const char *name, std::initializer_list<const char *> values)
{
    const char *v = env_get(name);
    if (!v || !*v) return -1;
    int i = 0;
    for (const char *w : values) {
        if (!std::strcmp(v, w)) return i;
        i++;
    }
    return -2;
}

void env_unknown(const char *name, std::initializer_list<const char *> values, const char *effect)
{
    const char *v = env_get(name);
    log_env(VMAF_LOG_LEVEL_WARNING, "%s=%s is not one of %s: %s\n", name, v ? v : "", listed(values).c_str(),
            effect);
}

uint64_t env_number(const char *name, uint64_t min, uint64_t max, uint64_t fallback)
{
    const char *v = env_get(name);
    if (!v || !*v) return fallback;
    uint64_t n = 0;
    if (parse_decimal(v, max, &n) && n >= min) return n;
    log_env(VMAF_LOG_LEVEL_WARNING, "%s=%s is not a number from %llu to %llu: ignored\n", name, v,
            (unsigned long long)min, (unsigned long long)max);
    return fallback;
}

}  // namespace vmaf
