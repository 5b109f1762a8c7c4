// SPDX-License-Identifier: BSD-2-Clause-Patent
// The library's one reader of the environment (docs/environment.md lists every
// variable and what it accepts). Values are parsed strictly: a number is
// decimal digits only and never wraps; a switch is one of a few words; a value
// that is none of those is said once per process, whatever the log level, and
// the variable's default is kept (or, where the caller fails on it, the caller
// says so).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace vmaf {

// The variable's value; null when unset ("" when set to nothing). Every read of
// the environment in the library goes through here.
const char *env_get(const char *name);

// `text` as a decimal number of at most `max`: digits only (no sign, space or
// prefix), at most 20 of them, no overflow. false, leaving *out alone, otherwise.
bool parse_decimal(std::string_view text, uint64_t max, uint64_t *out);

// An on/off switch: unset or "" gives `fallback`; "1", "on", "true", "yes" on;
// "0", "off", "false", "no" off (case-insensitive). Anything else is a warning
// (once per process, naming the variable, the value and the words) and gives
// `fallback`.
bool env_switch(const char *name, bool fallback);

// Which of `values` (case-sensitive) the variable is: its index; -1 when unset
// or ""; -2 when it is set to something else (the caller says so: see
// env_unknown).
int env_choice(const char *name, std::initializer_list<const char *> values);

// The warning for a value env_choice did not know, once per process whatever
// the log level: "NAME=VALUE is not one of A, B, C: EFFECT".
void env_unknown(const char *name, std::initializer_list<const char *> values, const char *effect);

// A number in [min, max]: unset or "" gives `fallback`; anything else (a sign,
// letters, a value out of range) is a warning once per process and gives
// `fallback`.
uint64_t env_number(const char *name, uint64_t min, uint64_t max, uint64_t fallback);

}  // namespace vmaf
