// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "util/file.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#if defined(_WIN32)
#error "util/file.cpp: the Windows branch is not written yet"
#else
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace vmaf {

#if !defined(_WIN32)

namespace {

const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "something else";
}

int close_keep(int fd, int err)
{
    ::close(fd);
    return err;
}

}  // namespace

int read_regular_file(const std::string &path, size_t max_bytes, std::string *out, std::string *why)
{
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of
    // waiting for one; the type check below then refuses it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        const int e = errno;
        *why = std::strerror(e);
        return -e;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        *why = std::strerror(e);
        return close_keep(fd, -e);
    }
    if (!S_ISREG(st.st_mode)) {
        *why = std::string("is ") + kind_of(st.st_mode) + ", not a regular file";
        return close_keep(fd, -EINVAL);
    }
    if (st.st_size < 0 || uint64_t(st.st_size) > max_bytes) {
        *why = "has " + std::to_string((long long)st.st_size) + " bytes, more than the " + std::to_string(max_bytes) +
               " such a file may have";
        return close_keep(fd, -EFBIG);
    }
    // A regular file never blocks; reads go on to the end, which a file that
    // grows meanwhile may push past the bound: stop there.
    std::string data;
    data.resize(size_t(st.st_size));
    size_t done = 0;
    for (;;) {
        if (done == data.size()) {
            if (data.size() > max_bytes) {
                *why = "has grown past the " + std::to_string(max_bytes) + " bytes such a file may have";
                return close_keep(fd, -EFBIG);
            }
            data.resize(data.size() + 4096);
        }
        const ssize_t n = ::read(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int e = errno;
            *why = std::strerror(e);
            return close_keep(fd, -e);
        }
        if (n == 0) break;
        done += size_t(n);
    }
    ::close(fd);
    if (done > max_bytes) {
        *why = "has grown past the " + std::to_string(max_bytes) + " bytes such a file may have";
        return -EFBIG;
    }
    data.resize(done);
    *out = std::move(data);
    return 0;
}

namespace {

// mkdir -p of an absolute path, each new part 0700; 0 or a negative errno.
int make_dirs(const std::string &dir)
{
    for (size_t pos = 1; pos <= dir.size(); pos++) {
        if (pos != dir.size() && dir[pos] != '/') continue;
        const std::string part = dir.substr(0, pos);
        if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return -errno;
    }
    return 0;
}

}  // namespace

int private_directory(const std::string &dir, bool create, std::string *why)
{
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0) {
        int e = errno;
        if (e == ENOENT && create) {
            if (int m = make_dirs(dir)) {
                *why = std::strerror(-m);
                return m == -EPERM ? -EACCES : m;
            }
            if (::lstat(dir.c_str(), &st) == 0) e = 0;
            else e = errno;
        }
        if (e) {
            *why = std::strerror(e);
            return e == EPERM ? -EACCES : -e;
        }
    }
    if (S_ISLNK(st.st_mode)) {
        *why = "is a symbolic link (the cache directory must be a directory itself)";
        return -EPERM;
    }
    if (!S_ISDIR(st.st_mode)) {
        *why = std::string("is ") + kind_of(st.st_mode) + ", not a directory";
        return -EPERM;
    }
    if (st.st_uid != ::geteuid()) {
        *why = "is owned by user " + std::to_string(unsigned(st.st_uid)) + ", not by this process's user " +
               std::to_string(unsigned(::geteuid()));
        return -EPERM;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        char mode[8];
        std::snprintf(mode, sizeof(mode), "%04o", unsigned(st.st_mode & 07777));
        *why = std::string("has mode ") + mode + ": others may write into it (chmod go-w to use it)";
        return -EPERM;
    }
    return 0;
}

int replace_file(const std::string &path, std::string_view data)
{
    std::string tmp = path + ".XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) return -errno;
    size_t done = 0;
    int err = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            err = n < 0 ? errno : EIO;
            break;
        }
        done += size_t(n);
    }
    if (::close(fd) != 0 && !err) err = errno;
    if (!err && std::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
    if (err) {
        ::unlink(tmp.c_str());
        return -err;
    }
    return 0;
}

unsigned remove_stale_temporaries(const std::string &dir, std::string_view prefix, std::string_view suffix,
                                  unsigned min_age_s)
{
    DIR *d = ::opendir(dir.c_str());
    if (!d) return 0;
    const time_t now = std::time(nullptr);
    unsigned removed = 0;
    while (const dirent *e = ::readdir(d)) {
        const std::string_view name(e->d_name);
        // PREFIX ... SUFFIX . six characters
        if (name.size() < prefix.size() + suffix.size() + 7) continue;
        if (name.substr(0, prefix.size()) != prefix) continue;
        const size_t dot = name.size() - 7;
        if (name[dot] != '.' || name.substr(dot - suffix.size(), suffix.size()) != suffix) continue;
        const std::string path = dir + "/" + std::string(name);
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
        if (now - st.st_mtime < time_t(min_age_s)) continue;  // a process may be writing it now
        if (::unlink(path.c_str()) == 0) removed++;
    }
    ::closedir(d);
    return removed;
}

#endif

}  // namespace vmaf
