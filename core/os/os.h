// SPDX-License-Identifier: BSD-2-Clause-Patent
// What differs between POSIX systems and Windows, in one place below both the
// library and the programs (core/os, its own static library; ADR 0085):
// memory pages, files named by UTF-8 paths, the files the library reads and
// writes of its own accord (regular files only, a bound on their size, a cache
// directory that is the user's alone), the user's cache directory, the
// environment, the process (its id, fork and exit hooks). The
// rest of the library and the programs is written once against these (the
// programs' arguments: tools/io/utf8_args.h; docs/windows.md). It includes
// nothing of core/src or core/tools.
//
// Paths are UTF-8 strings everywhere. On Windows they are turned into UTF-16
// for the system here (a string that is not valid UTF-8 is taken in the
// process's ANSI code page, as a Windows libvmaf client may pass), and either
// separator works; on POSIX systems they are bytes, as always.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace vmaf::os {

// The size of a memory page (4096 when the system does not say).
size_t page_size();

// `size` bytes aligned to `align` (a power of two that divides size), or null;
// released with aligned_free.
void *aligned_alloc(size_t align, size_t size);
void aligned_free(void *p);

// fopen of a UTF-8 path; null with errno set on failure. Modes are fopen's; on
// Windows add "b" for bytes as written ("w" there turns "\n" into "\r\n").
std::FILE *open_file(const std::string &path, const char *mode);

// The filesystem path of a UTF-8 path, and back.
std::filesystem::path fs_path(const std::string &path);
std::string utf8_path(const std::filesystem::path &path);

// The user's cache directory for `app` ("" when none is known), with '/' as
// separator: $XDG_CACHE_HOME/app (when absolute), else $HOME/.cache/app; on
// Windows %LOCALAPPDATA%/app.
std::string user_cache_dir(const char *app);

// The whole of `path` into *out when it is a regular file of at most
// `max_bytes`: what the library reads of its own accord (the pipeline cache,
// model files). The open never blocks (a FIFO or a named pipe is refused, not
// waited on) and the type is checked on the open file (on Windows: a disk
// file, GetFileType). Returns 0, or a negative errno with *why saying what it
// is: -EINVAL for what is not a regular file ("is a FIFO, not a regular file";
// a device, a directory), -EFBIG for a file over the bound, the open's own
// error otherwise (-ENOENT, -EACCES, ...).
int read_regular_file(const std::string &path, size_t max_bytes, std::string *out, std::string *why);

// Whether `dir` may hold the user's cache: a directory itself (not a link to
// one; on Windows not a reparse point: a junction or a symbolic link). On
// POSIX systems it must also be owned by the user running the process and no
// one else may write into it (no group or other write permission), as OpenSSH
// asks of ~/.ssh; on Windows it must be owned by the user (or SYSTEM or
// Administrators) and its ACL may let no one else add or change files in it,
// as OpenSSH for Windows asks (docs/windows.md). With `create`, a
// directory that is not there is made (mode 0700 where modes exist, its
// parents too). Returns 0; -EPERM when it is there but fails those checks
// (*why says which); another negative errno when it cannot be looked at or
// made (-ENOENT when it is not there and not made; -ENOTDIR, -EACCES, ...).
int private_directory(const std::string &dir, bool create, std::string *why);

// Writes `data` to a temporary file `path`.XXXXXX in the same directory and
// renames it over `path`, so a reader sees the old file or the new one whole.
// Returns 0 or a negative errno (the temporary file is removed).
int replace_file(const std::string &path, std::string_view data);

// Removes the temporary files replace_file leaves when a process dies between
// writing and renaming: the regular files of `dir` named PREFIX...SUFFIX.XXXXXX
// (six characters after the dot), owned by the user (not looked at on
// Windows) and not modified for `min_age_s` seconds. Returns how many it
// removed.
unsigned remove_stale_temporaries(const std::string &dir, std::string_view prefix, std::string_view suffix,
                                  unsigned min_age_s);

// Removes the file at `path`; 0 or an errno.
int remove_file(const std::string &path);

// A new empty file named `prefix`... in the temporary directory ($TMPDIR, else
// /tmp; on Windows GetTempPath's), its path in *path; 0 or an errno (*path
// then names the directory).
int make_temp_file(const char *prefix, std::string *path);

// The size of the regular file open as `f`; -1 for anything else (a pipe).
int64_t regular_file_size(std::FILE *f);

// Reads up to `n` bytes at `offset` of the file open as `f` without moving its
// position (safe from several threads at once); the bytes read, fewer at the
// file's end, or -1 with errno set.
int64_t read_at(std::FILE *f, void *dst, size_t n, int64_t offset);

// fseek to an offset past 2 GiB; 0 or -1 with errno set.
int seek(std::FILE *f, int64_t offset, int whence);

// This process's resident memory in bytes (0 when unknown), and its open file
// descriptors (on Windows: handles of any kind; -1 when unknown): for the
// benchmark's soak mode.
uint64_t resident_bytes();
int open_handles();

// The variable `name` of this process's environment as UTF-8 (on Windows read
// as UTF-16: getenv there gives the ANSI code page); "" when unset.
std::string get_env(const char *name);

// The same, telling unset (false) from set to "" (true, *value "").
bool find_env(const char *name, std::string *value);

// Whether `f` is a terminal.
bool is_terminal(std::FILE *f);

// This process's id (a child made by fork() has another).
long process_id();

// Calls `prepare` in the thread that forks, before the fork, and `after` in
// both processes after it (pthread_atfork): a lock taken in `prepare` and let
// go in `after` is never inherited held. Windows has no fork: nothing is
// registered there and it returns 0. Returns 0 or a negative errno.
int call_around_fork(void (*prepare)(), void (*after)());

// Calls `fn` when the process exits normally (or this library is unloaded),
// before the destructors of the libraries loaded before the call (a Vulkan
// driver's among them). Returns 0 or a negative errno.
int call_at_exit(void (*fn)());

}  // namespace vmaf::os
