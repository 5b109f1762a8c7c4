// Switches read from the environment (for comparisons and tests; documented
// where each is used).
#pragma once

#include <cstdlib>
#include <cstring>

namespace vmaf {

// Whether the variable `name` is set to exactly `value`.
inline bool env_is(const char *name, const char *value)
{
    const char *v = std::getenv(name);
    return v && !std::strcmp(v, value);
}

// A switch that is off unless set, to anything but "" or "0".
inline bool env_on(const char *name)
{
    const char *v = std::getenv(name);
    return v && *v && std::strcmp(v, "0") != 0;
}

// A switch that is on unless set to "0".
inline bool env_off(const char *name) { return env_is(name, "0"); }

}  // namespace vmaf
