// SPDX-License-Identifier: BSD-2-Clause-Patent
// Shared helpers of the fuzz targets: a reader that turns the fuzzer's bytes
// into structured values, and an in-memory file for APIs that take a path.
// Built both as libFuzzer targets (-Dfuzzing=true, clang) and, with
// replay_main.cpp, as plain programs that replay the corpus (any compiler).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <sys/mman.h>
#include <unistd.h>

namespace fuzz {

// Consumes the input from the front; every read succeeds (zeros once the
// input is used up), so a target never has to check for the end.
class Input {
public:
    Input(const uint8_t *data, size_t size) : p_(data), n_(size) {}

    size_t left() const { return n_; }
    bool empty() const { return n_ == 0; }

    uint8_t u8()
    {
        if (!n_) return 0;
        n_--;
        return *p_++;
    }
    uint16_t u16() { return uint16_t(u8() | (u8() << 8)); }
    uint32_t u32() { return uint32_t(u16()) | (uint32_t(u16()) << 16); }
    uint64_t u64() { return uint64_t(u32()) | (uint64_t(u32()) << 32); }
    bool flag() { return u8() & 1; }
    // A value in [0, n) (n > 0).
    unsigned pick(unsigned n) { return n <= 256 ? u8() % n : u32() % n; }
    // Any double, NaN and infinities included.
    double any_double()
    {
        const uint64_t bits = u64();
        double d;
        std::memcpy(&d, &bits, sizeof(d));
        return d;
    }

    // Bytes up to the next NUL (not included) or the end.
    std::string_view cstr()
    {
        const auto *nul = static_cast<const uint8_t *>(std::memchr(p_, 0, n_));
        const size_t len = nul ? size_t(nul - p_) : n_;
        std::string_view s(reinterpret_cast<const char *>(p_), len);
        p_ += len;
        n_ -= len;
        if (nul) {
            p_++;
            n_--;
        }
        return s;
    }
    // Bytes up to the next newline (not included) or the end.
    std::string_view line()
    {
        const auto *nl = static_cast<const uint8_t *>(std::memchr(p_, '\n', n_));
        const size_t len = nl ? size_t(nl - p_) : n_;
        std::string_view s(reinterpret_cast<const char *>(p_), len);
        p_ += len;
        n_ -= len;
        if (nl) {
            p_++;
            n_--;
        }
        return s;
    }
    // The next n bytes (fewer at the end).
    std::string_view bytes(size_t n)
    {
        n = std::min(n, n_);
        std::string_view s(reinterpret_cast<const char *>(p_), n);
        p_ += n;
        n_ -= n;
        return s;
    }
    std::string_view rest() { return bytes(n_); }

private:
    const uint8_t *p_;
    size_t n_;
};

// A file that lives in memory (memfd), reachable by path as /proc/self/fd/N,
// or a temporary file where memfd is not available. One per target, rewritten
// for every input.
class MemFile {
public:
    MemFile()
    {
        fd_ = memfd_create("vmaf-fuzz", 0);
        if (fd_ >= 0) {
            path_ = "/proc/self/fd/" + std::to_string(fd_);
            if (access(path_.c_str(), R_OK) == 0) return;
            close(fd_);
        }
        const char *tmp = std::getenv("TMPDIR");
        path_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/vmaf-fuzz-XXXXXX";
        fd_ = mkstemp(path_.data());
        if (fd_ < 0) {
            std::perror("vmaf fuzz: no temporary file");
            std::abort();
        }
        unlink_ = true;
    }
    ~MemFile()
    {
        close(fd_);
        if (unlink_) unlink(path_.c_str());
    }
    MemFile(const MemFile &) = delete;
    MemFile &operator=(const MemFile &) = delete;

    // Replace the content; returns the path.
    const char *write(std::string_view data)
    {
        if (ftruncate(fd_, 0) != 0 || pwrite(fd_, data.data(), data.size(), 0) != ssize_t(data.size())) {
            std::perror("vmaf fuzz: cannot write the temporary file");
            std::abort();
        }
        return path_.c_str();
    }
    // The current content (for checks on what a writer produced).
    std::string read() const
    {
        std::string s;
        char buf[65536];
        for (off_t off = 0;;) {
            const ssize_t n = pread(fd_, buf, sizeof(buf), off);
            if (n <= 0) break;
            s.append(buf, size_t(n));
            off += n;
        }
        return s;
    }
    const char *path() const { return path_.c_str(); }

private:
    int fd_ = -1;
    std::string path_;
    bool unlink_ = false;
};

// Stop on a broken invariant in a way the fuzzer reports as a crash.
[[noreturn]] inline void fail(const char *what)
{
    std::fprintf(stderr, "vmaf fuzz: %s\n", what);
    std::abort();
}

}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
