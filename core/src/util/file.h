// SPDX-License-Identifier: BSD-2-Clause-Patent
// Files the library reads and writes of its own accord (the pipeline cache, model
// files): only regular files are opened, never more than a bound is read, and a
// cache directory is used only when it is the user's alone. The system calls
// live in file.cpp alone, one branch per platform.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace vmaf {

// The whole of `path` into *out when it is a regular file of at most
// `max_bytes`. The open never blocks (a FIFO is refused, not waited on) and the
// type is checked on the open file. Returns 0, or a negative errno with *why
// saying what it is: -EINVAL for what is not a regular file ("is a FIFO,
// not a regular file"; a device, a directory), -EFBIG for a file over the bound, the
// open's own error otherwise (-ENOENT, -EACCES, ...).
int read_regular_file(const std::string &path, size_t max_bytes, std::string *out, std::string *why);

// Whether `dir` may hold the user's cache: a directory itself (not a link to
// one), owned by the user running the process, that no one else may write
// into (no group or other write permission), as OpenSSH asks of ~/.ssh. With
// `create`, a directory that is not there is made (mode 0700, its parents
// too). Returns 0; -EPERM when it is there but fails those checks (*why says
// which); another negative errno when it cannot be looked at or made (-ENOENT
// when it is not there and not made; -ENOTDIR, -EACCES, ...).
int private_directory(const std::string &dir, bool create, std::string *why);

// Writes `data` to a temporary file `path`.XXXXXX in the same directory and
// renames it over `path`, so a reader sees the old file or the new one whole.
// Returns 0 or a negative errno (the temporary file is removed).
int replace_file(const std::string &path, std::string_view data);

// Removes the temporary files replace_file leaves when a process dies between
// writing and renaming: the regular files of `dir` named PREFIX...SUFFIX.XXXXXX
// (six characters after the dot), owned by the user and not modified for
// `min_age_s` seconds. Returns how many it removed.
unsigned remove_stale_temporaries(const std::string &dir, std::string_view prefix, std::string_view suffix,
                                  unsigned min_age_s);

}  // namespace vmaf
