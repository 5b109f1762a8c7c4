// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "util/os.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#ifdef _WIN32
#include <windows.h>
#include <io.h>
#include <malloc.h>
#include <psapi.h>
#else
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace vmaf::os {

#ifdef _WIN32

namespace {

// UTF-8 (else the ANSI code page) to UTF-16; "" for "".
std::wstring widen(const std::string &s)
{
    if (s.empty()) return {};
    for (UINT cp : {UINT(CP_UTF8), UINT(CP_ACP)}) {
        const DWORD flags = cp == CP_UTF8 ? MB_ERR_INVALID_CHARS : 0;
        const int n = MultiByteToWideChar(cp, flags, s.data(), int(s.size()), nullptr, 0);
        if (n <= 0) continue;
        std::wstring w(size_t(n), L'\0');
        MultiByteToWideChar(cp, flags, s.data(), int(s.size()), w.data(), n);
        return w;
    }
    return {};
}

std::string narrow(const wchar_t *w, size_t len)
{
    if (!len) return {};
    const int n = WideCharToMultiByte(CP_UTF8, 0, w, int(len), nullptr, 0, nullptr, nullptr);
    if (n <= 0) return {};
    std::string s(size_t(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, w, int(len), s.data(), n, nullptr, nullptr);
    return s;
}

int errno_of(DWORD e)
{
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND: return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION: return EACCES;
    case ERROR_ALREADY_EXISTS:
    case ERROR_FILE_EXISTS: return EEXIST;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: return ENOSPC;
    case ERROR_DIRECTORY: return ENOTDIR;
    case ERROR_HANDLE_EOF: return 0;
    default: return EIO;
    }
}

}  // namespace

size_t page_size()
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwPageSize ? size_t(si.dwPageSize) : size_t(4096);
}

void *aligned_alloc(size_t align, size_t size) { return _aligned_malloc(size, align); }

void aligned_free(void *p) { _aligned_free(p); }

std::FILE *open_file(const std::string &path, const char *mode)
{
    return _wfopen(widen(path).c_str(), widen(mode).c_str());
}

std::filesystem::path fs_path(const std::string &path) { return std::filesystem::path(widen(path)); }

std::string utf8_path(const std::filesystem::path &path)
{
    const std::wstring &w = path.native();
    return narrow(w.c_str(), w.size());
}

std::string user_cache_dir(const char *app)
{
    const wchar_t *base = _wgetenv(L"LOCALAPPDATA");
    if (!base || !*base) return "";
    std::string dir = narrow(base, wcslen(base));
    for (char &c : dir)
        if (c == '\\') c = '/';
    if (dir.empty()) return "";
    if (dir.back() != '/') dir += '/';
    return dir + app;
}

int make_dirs(const std::string &dir)
{
    std::error_code ec;
    std::filesystem::create_directories(fs_path(dir), ec);
    std::error_code ec2;
    if (std::filesystem::is_directory(fs_path(dir), ec2)) return 0;
    if (!ec) return ENOTDIR;
    return ec.category() == std::generic_category() ? ec.value() : EACCES;
}

int read_file(const std::string &path, std::vector<uint8_t> *out, size_t max)
{
    std::FILE *f = open_file(path, "rb");
    if (!f) return errno ? errno : EIO;
    out->clear();
    uint8_t buf[65536];
    int err = 0;
    for (;;) {
        const size_t n = std::fread(buf, 1, sizeof(buf), f);
        out->insert(out->end(), buf, buf + n);
        if (out->size() > max) {
            err = EFBIG;
            break;
        }
        if (n < sizeof(buf)) {
            if (std::ferror(f)) err = EIO;
            break;
        }
    }
    std::fclose(f);
    return err;
}

int replace_file(const std::string &path, const void *data, size_t size)
{
    // A name of our own beside the file: the process and a counter.
    static std::atomic<unsigned> counter{0};
    const std::string tmp = path + "." + std::to_string(GetCurrentProcessId()) + "." +
                            std::to_string(counter.fetch_add(1)) + ".tmp";
    const std::wstring wtmp = widen(tmp);
    HANDLE h = CreateFileW(wtmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) return errno_of(GetLastError());
    int err = 0;
    size_t done = 0;
    while (done < size) {
        const DWORD chunk = DWORD(std::min<size_t>(size - done, size_t(1) << 30));
        DWORD wrote = 0;
        if (!WriteFile(h, static_cast<const uint8_t *>(data) + done, chunk, &wrote, nullptr) || !wrote) {
            err = errno_of(GetLastError());
            if (!err) err = EIO;
            break;
        }
        done += wrote;
    }
    if (!CloseHandle(h) && !err) err = EIO;
    if (!err && !MoveFileExW(wtmp.c_str(), widen(path).c_str(), MOVEFILE_REPLACE_EXISTING))
        err = errno_of(GetLastError());
    if (err) DeleteFileW(wtmp.c_str());
    return err;
}

int remove_file(const std::string &path)
{
    return DeleteFileW(widen(path).c_str()) ? 0 : errno_of(GetLastError());
}

int make_temp_file(const char *prefix, std::string *path)
{
    wchar_t dir[MAX_PATH + 1];
    const DWORD n = GetTempPathW(MAX_PATH + 1, dir);
    *path = n && n <= MAX_PATH ? narrow(dir, n) : std::string(".\\");
    static std::atomic<unsigned> counter{0};
    const std::string base = *path;
    for (int attempt = 0; attempt < 100; attempt++) {
        const std::string name = base + prefix + std::to_string(GetCurrentProcessId()) + "-" +
                                 std::to_string(counter.fetch_add(1)) + ".tmp";
        HANDLE h = CreateFileW(widen(name).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL,
                               nullptr);
        if (h != INVALID_HANDLE_VALUE) {
            CloseHandle(h);
            *path = name;
            return 0;
        }
        if (GetLastError() != ERROR_FILE_EXISTS) return errno_of(GetLastError());
    }
    return EEXIST;
}

int64_t regular_file_size(std::FILE *f)
{
    HANDLE h = HANDLE(_get_osfhandle(_fileno(f)));
    if (h == INVALID_HANDLE_VALUE || GetFileType(h) != FILE_TYPE_DISK) return -1;
    LARGE_INTEGER size;
    return GetFileSizeEx(h, &size) ? int64_t(size.QuadPart) : -1;
}

int64_t read_at(std::FILE *f, void *dst, size_t n, int64_t offset)
{
    // ReadFile at an offset (in OVERLAPPED) also moves the file pointer of the
    // handle it reads through, under the stream's position: so it reads through
    // a handle of its own, opened again from the stream's (its own pointer).
    HANDLE stream = HANDLE(_get_osfhandle(_fileno(f)));
    HANDLE h = stream == INVALID_HANDLE_VALUE
                   ? INVALID_HANDLE_VALUE
                   : ReOpenFile(stream, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, 0);
    if (h == INVALID_HANDLE_VALUE) {
        errno = stream == INVALID_HANDLE_VALUE ? EBADF : errno_of(GetLastError());
        return -1;
    }
    OVERLAPPED ov{};
    ov.Offset = DWORD(uint64_t(offset) & 0xffffffffu);
    ov.OffsetHigh = DWORD(uint64_t(offset) >> 32);
    DWORD got = 0;
    const DWORD want = DWORD(std::min<size_t>(n, size_t(1) << 30));
    const bool ok = ReadFile(h, dst, want, &got, &ov);
    const DWORD e = ok ? 0 : GetLastError();
    CloseHandle(h);
    if (!ok && e != ERROR_HANDLE_EOF) {
        errno = errno_of(e);
        return -1;
    }
    return ok ? int64_t(got) : 0;
}

int seek(std::FILE *f, int64_t offset, int whence) { return _fseeki64(f, offset, whence); }

uint64_t resident_bytes()
{
    PROCESS_MEMORY_COUNTERS c{};
    c.cb = sizeof(c);
    return K32GetProcessMemoryInfo(GetCurrentProcess(), &c, sizeof(c)) ? uint64_t(c.WorkingSetSize) : 0;
}

int open_handles()
{
    DWORD n = 0;
    return GetProcessHandleCount(GetCurrentProcess(), &n) ? int(n) : -1;
}

std::string get_env(const char *name)
{
    const wchar_t *v = _wgetenv(widen(name).c_str());
    return v ? narrow(v, wcslen(v)) : std::string();
}

void unset_env(const char *name) { _putenv_s(name, ""); }  // "" removes it there

bool is_terminal(std::FILE *f) { return _isatty(_fileno(f)) != 0; }

#else  // POSIX

size_t page_size()
{
    const long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? size_t(p) : size_t(4096);
}

void *aligned_alloc(size_t align, size_t size) { return std::aligned_alloc(align, size); }

void aligned_free(void *p) { std::free(p); }

std::FILE *open_file(const std::string &path, const char *mode) { return std::fopen(path.c_str(), mode); }

std::filesystem::path fs_path(const std::string &path) { return std::filesystem::path(path); }

std::string utf8_path(const std::filesystem::path &path) { return path.string(); }

std::string user_cache_dir(const char *app)
{
    // An absolute XDG_CACHE_HOME only, as the XDG base directory specification says.
    const char *xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/') return std::string(xdg) + "/" + app;
    const char *home = std::getenv("HOME");
    if (home && home[0] == '/') return std::string(home) + "/.cache/" + app;
    return "";
}

int make_dirs(const std::string &dir)
{
    for (size_t pos = 1; pos <= dir.size(); pos++) {
        if (pos != dir.size() && dir[pos] != '/') continue;
        const std::string part = dir.substr(0, pos);
        if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return errno;
    }
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0) return errno;
    return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

int read_file(const std::string &path, std::vector<uint8_t> *out, size_t max)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    out->clear();
    uint8_t buf[65536];
    int err = 0;
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            err = errno;
            break;
        }
        if (n == 0) break;
        out->insert(out->end(), buf, buf + n);
        if (out->size() > max) {
            err = EFBIG;
            break;
        }
    }
    ::close(fd);
    return err;
}

int replace_file(const std::string &path, const void *data, size_t size)
{
    std::string tmp = path + ".XXXXXX";
    const int fd = mkstemp(tmp.data());
    if (fd < 0) return errno;
    size_t done = 0;
    int err = 0;
    while (done < size) {
        const ssize_t n = ::write(fd, static_cast<const uint8_t *>(data) + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            err = n < 0 ? errno : EIO;
            break;
        }
        done += size_t(n);
    }
    if (::close(fd) != 0 && !err) err = errno;
    if (!err && std::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
    if (err) ::unlink(tmp.c_str());
    return err;
}

int remove_file(const std::string &path) { return std::remove(path.c_str()) == 0 ? 0 : errno; }

int make_temp_file(const char *prefix, std::string *path)
{
    const char *dir = std::getenv("TMPDIR");
    *path = std::string(dir && *dir ? dir : "/tmp");
    std::string name = *path + "/" + prefix + "XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0) return errno;
    ::close(fd);
    *path = name;
    return 0;
}

int64_t regular_file_size(std::FILE *f)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    return int64_t(st.st_size);
}

int64_t read_at(std::FILE *f, void *dst, size_t n, int64_t offset)
{
    for (;;) {
        const ssize_t k = pread(fileno(f), dst, n, off_t(offset));
        if (k < 0 && errno == EINTR) continue;
        return int64_t(k);
    }
}

int seek(std::FILE *f, int64_t offset, int whence) { return fseeko(f, off_t(offset), whence); }

uint64_t resident_bytes()
{
    std::FILE *f = std::fopen("/proc/self/statm", "r");
    unsigned long long size = 0, resident = 0;
    if (f) {
        if (std::fscanf(f, "%llu %llu", &size, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return uint64_t(resident) * uint64_t(page_size());
}

int open_handles()
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    int n = 0;
    while (const dirent *e = readdir(d))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n - 1;  // the directory's own
}

std::string get_env(const char *name)
{
    const char *v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

void unset_env(const char *name) { unsetenv(name); }

bool is_terminal(std::FILE *f) { return isatty(fileno(f)) != 0; }

#endif

}  // namespace vmaf::os
