// SPDX-License-Identifier: BSD-2-Clause-Patent
// What differs between POSIX systems and Windows in the library, in one place:
// memory pages, files named by UTF-8 paths, the user's cache directory. The
// rest of the library and the programs is written once against these (the
// programs' arguments: tools/io/utf8_args.h; docs/windows.md).
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

// mkdir -p of a directory (mode 0700 where modes exist); 0 or an errno.
int make_dirs(const std::string &dir);

// The whole file at `path` into *out, at most `max` bytes (EFBIG past that); 0
// or an errno.
int read_file(const std::string &path, std::vector<uint8_t> *out, size_t max);

// Writes `data` to a new file beside `path` and renames it over `path`: a
// reader sees the old file or the new one, never a mix. 0 or an errno.
int replace_file(const std::string &path, const void *data, size_t size);

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

// Removes the variable `name` from this process's environment.
void unset_env(const char *name);

// Whether `f` is a terminal.
bool is_terminal(std::FILE *f);

}  // namespace vmaf::os
