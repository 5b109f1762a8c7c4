// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "os/os.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

#ifdef _WIN32
#include <windows.h>
#include <aclapi.h>
#include <sddl.h>
#include <io.h>
#include <malloc.h>
#include <psapi.h>
#else
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace vmaf::os {

namespace {

// The rest of read_regular_file() on either system: a regular file of `size`
// bytes (at most max_bytes) read to its end through `read` (which reads up to
// `want` bytes at `dst` into *got, 0 at the end, or fails with a negative
// errno and the reason in *why). A file that grows meanwhile may push the
// reads past the bound: they stop there.
template <class Read>
int read_to_end(size_t size, size_t max_bytes, Read read, std::string *out, std::string *why)
{
    const auto grown = [&] {
        *why = "has grown past the " + std::to_string(max_bytes) + " bytes such a file may have";
        return -EFBIG;
    };
    std::string data;
    data.resize(size);
    size_t done = 0;
    for (;;) {
        if (done == data.size()) {
            if (data.size() > max_bytes) return grown();
            data.resize(data.size() + 4096);
        }
        size_t got = 0;
        if (int err = read(data.data() + done, data.size() - done, &got)) return err;
        if (got == 0) break;
        done += got;
    }
    if (done > max_bytes) return grown();
    data.resize(done);
    *out = std::move(data);
    return 0;
}

}  // namespace

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

namespace {

// What a handle's GetFileType says it is, for messages.
const char *kind_of_type(DWORD type)
{
    switch (type) {
    case FILE_TYPE_CHAR: return "a character device";
    case FILE_TYPE_PIPE: return "a pipe";
    default: return "something else";
    }
}

int close_keep(HANDLE h, int err)
{
    CloseHandle(h);
    return err;
}

// A negative errno and its text in *why, from GetLastError's `e`.
int fail(DWORD e, std::string *why)
{
    int err = errno_of(e);
    if (!err) err = EIO;
    *why = std::strerror(err);
    return -err;
}

}  // namespace

int read_regular_file(const std::string &path, size_t max_bytes, std::string *out, std::string *why)
{
    const std::wstring wpath = widen(path);
    // A directory cannot be opened as a file (ERROR_ACCESS_DENIED): said as what it is.
    const DWORD attrs = GetFileAttributesW(wpath.c_str());
    if (attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_DIRECTORY)) {
        *why = "is a directory, not a regular file";
        return -EINVAL;
    }
    // Opening a named pipe never waits (a busy one fails with ERROR_PIPE_BUSY);
    // the type check below refuses it, a device (NUL, CON, COM1) too.
    HANDLE h = CreateFileW(wpath.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) return fail(GetLastError(), why);
    const DWORD type = GetFileType(h);
    if (type != FILE_TYPE_DISK) {
        *why = std::string("is ") + kind_of_type(type) + ", not a regular file";
        return close_keep(h, -EINVAL);
    }
    LARGE_INTEGER size;
    if (!GetFileSizeEx(h, &size)) return close_keep(h, fail(GetLastError(), why));
    if (size.QuadPart < 0 || uint64_t(size.QuadPart) > max_bytes) {
        *why = "has " + std::to_string((long long)size.QuadPart) + " bytes, more than the " +
               std::to_string(max_bytes) + " such a file may have";
        return close_keep(h, -EFBIG);
    }
    const int err = read_to_end(size_t(size.QuadPart), max_bytes, [&](char *dst, size_t want, size_t *got) {
        DWORD n = 0;
        if (!ReadFile(h, dst, DWORD(std::min<size_t>(want, size_t(1) << 30)), &n, nullptr)) {
            const DWORD e = GetLastError();
            if (e != ERROR_HANDLE_EOF) return fail(e, why);
        }
        *got = n;
        return 0;
    }, out, why);
    CloseHandle(h);
    return err;
}

namespace {

// The principals a user's private directory may belong to and be writable
// by: the user, SYSTEM and the Administrators group, as OpenSSH for Windows
// judges ~/.ssh. Fills `user` (the token's) and compares.
class TrustedSids
{
public:
    TrustedSids()
    {
        HANDLE token = nullptr;
        if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
            DWORD len = 0;
            GetTokenInformation(token, TokenUser, nullptr, 0, &len);
            user_.resize(len);
            if (!len || !GetTokenInformation(token, TokenUser, user_.data(), len, &len)) user_.clear();
            CloseHandle(token);
        }
        DWORD n = sizeof(system_);
        if (!CreateWellKnownSid(WinLocalSystemSid, nullptr, system_, &n)) system_[0] = 0;
        n = sizeof(admins_);
        if (!CreateWellKnownSid(WinBuiltinAdministratorsSid, nullptr, admins_, &n)) admins_[0] = 0;
    }
    bool ok() const { return !user_.empty(); }
    PSID user() const { return reinterpret_cast<const TOKEN_USER *>(user_.data())->User.Sid; }
    bool trusted(PSID sid) const
    {
        return EqualSid(sid, user()) || (system_[0] && EqualSid(sid, PSID(system_))) ||
               (admins_[0] && EqualSid(sid, PSID(admins_)));
    }

private:
    std::vector<unsigned char> user_;
    mutable unsigned char system_[SECURITY_MAX_SID_SIZE] = {};
    mutable unsigned char admins_[SECURITY_MAX_SID_SIZE] = {};
};

std::string sid_text(PSID sid)
{
    LPWSTR text = nullptr;
    if (!ConvertSidToStringSidW(sid, &text)) return "an unknown account";
    std::string out = narrow(text, wcslen(text));
    LocalFree(text);
    return out;
}

// The Windows half of private_directory's checks: the directory's owner is the
// user (or SYSTEM, or Administrators, which own what an elevated process of
// the user makes), and no entry of its ACL lets anyone else add or change
// files in it. A missing ACL (everyone may do everything) fails.
int trusted_by_acl(const std::wstring &wdir, std::string *why)
{
    const TrustedSids sids;
    if (!sids.ok()) return fail(GetLastError(), why);
    PSID owner = nullptr;
    PACL dacl = nullptr;
    PSECURITY_DESCRIPTOR sd = nullptr;
    const DWORD e = GetNamedSecurityInfoW(wdir.c_str(), SE_FILE_OBJECT,
                                          OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, &owner, nullptr,
                                          &dacl, nullptr, &sd);
    if (e != ERROR_SUCCESS) return fail(e, why);
    int err = 0;
    if (!owner || !sids.trusted(owner)) {
        *why = "is owned by " + (owner ? sid_text(owner) : std::string("no one")) +
               ", not by this process's user " + sid_text(sids.user());
        err = -EPERM;
    } else if (!dacl) {
        *why = "has no access control list (everyone may write into it)";
        err = -EPERM;
    } else {
        // Rights that let a principal put, replace or remove files in the
        // directory, or take it over.
        const ACCESS_MASK writes = FILE_ADD_FILE | FILE_ADD_SUBDIRECTORY | FILE_DELETE_CHILD | FILE_WRITE_DATA |
                                   FILE_APPEND_DATA | FILE_WRITE_ATTRIBUTES | FILE_WRITE_EA | DELETE | WRITE_DAC |
                                   WRITE_OWNER | GENERIC_WRITE | GENERIC_ALL;
        for (DWORD i = 0; i < dacl->AceCount && !err; i++) {
            void *ace = nullptr;
            if (!GetAce(dacl, i, &ace)) continue;
            const ACE_HEADER *h = static_cast<const ACE_HEADER *>(ace);
            if (h->AceType != ACCESS_ALLOWED_ACE_TYPE) continue;  // denials and audits grant nothing
            if (h->AceFlags & INHERIT_ONLY_ACE) continue;          // applies to children only
            const ACCESS_ALLOWED_ACE *a = static_cast<const ACCESS_ALLOWED_ACE *>(ace);
            PSID sid = PSID(const_cast<DWORD *>(&a->SidStart));
            if ((a->Mask & writes) && !sids.trusted(sid)) {
                *why = "may be written by " + sid_text(sid) + " (its access control list lets others than the user, "
                       "SYSTEM and Administrators add or change files)";
                err = -EPERM;
            }
        }
    }
    LocalFree(sd);
    return err;
}

}  // namespace

int private_directory(const std::string &dir, bool create, std::string *why)
{
    const std::wstring wdir = widen(dir);
    DWORD attrs = GetFileAttributesW(wdir.c_str());
    if (attrs == INVALID_FILE_ATTRIBUTES) {
        const DWORD e = GetLastError();
        if ((e != ERROR_FILE_NOT_FOUND && e != ERROR_PATH_NOT_FOUND) || !create) return fail(e, why);
        std::error_code ec;
        std::filesystem::create_directories(fs_path(dir), ec);
        attrs = GetFileAttributesW(wdir.c_str());
        if (attrs == INVALID_FILE_ATTRIBUTES) {
            if (!ec) return fail(GetLastError(), why);
            const std::error_condition c = ec.default_error_condition();
            const int err = c.category() == std::generic_category() && c.value() ? c.value() : EACCES;
            *why = std::strerror(err);
            return -err;
        }
    }
    if (attrs & FILE_ATTRIBUTE_REPARSE_POINT) {
        *why = "is a reparse point (a junction or a symbolic link; the cache directory must be a directory itself)";
        return -EPERM;
    }
    if (!(attrs & FILE_ATTRIBUTE_DIRECTORY)) {
        *why = "is a file, not a directory";
        return -EPERM;
    }
    return trusted_by_acl(wdir, why);
}

int replace_file(const std::string &path, std::string_view data)
{
    // path.XXXXXX as mkstemp makes on POSIX systems (remove_stale_temporaries
    // knows that shape): six letters or digits from the process, a counter and
    // the clock, a new name tried when one is taken.
    static std::atomic<unsigned> counter{0};
    static const char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    std::string tmp;
    std::wstring wtmp;
    HANDLE h = INVALID_HANDLE_VALUE;
    for (int attempt = 0; attempt < 100 && h == INVALID_HANDLE_VALUE; attempt++) {
        uint64_t v = (uint64_t(GetCurrentProcessId()) << 32) ^ (uint64_t(counter.fetch_add(1)) * 2654435761u) ^
                     uint64_t(GetTickCount64());
        tmp = path + ".";
        for (int i = 0; i < 6; i++, v /= 36) tmp += kDigits[v % 36];
        wtmp = widen(tmp);
        h = CreateFileW(wtmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
        if (h == INVALID_HANDLE_VALUE && GetLastError() != ERROR_FILE_EXISTS) {
            const int err = errno_of(GetLastError());
            return -(err ? err : EIO);
        }
    }
    if (h == INVALID_HANDLE_VALUE) return -EEXIST;
    int err = 0;
    size_t done = 0;
    while (done < data.size()) {
        const DWORD chunk = DWORD(std::min<size_t>(data.size() - done, size_t(1) << 30));
        DWORD wrote = 0;
        if (!WriteFile(h, data.data() + done, chunk, &wrote, nullptr) || !wrote) {
            err = errno_of(GetLastError());
            if (!err) err = EIO;
            break;
        }
        done += wrote;
    }
    if (!CloseHandle(h) && !err) err = EIO;
    if (!err && !MoveFileExW(wtmp.c_str(), widen(path).c_str(), MOVEFILE_REPLACE_EXISTING)) {
        err = errno_of(GetLastError());
        if (!err) err = EIO;
    }
    if (err) {
        DeleteFileW(wtmp.c_str());
        return -err;
    }
    return 0;
}

unsigned remove_stale_temporaries(const std::string &dir, std::string_view prefix, std::string_view suffix,
                                  unsigned min_age_s)
{
    WIN32_FIND_DATAW fd;
    HANDLE find = FindFirstFileW(widen(dir + "/*").c_str(), &fd);
    if (find == INVALID_HANDLE_VALUE) return 0;
    FILETIME now_ft;
    GetSystemTimeAsFileTime(&now_ft);
    const auto ticks = [](const FILETIME &t) { return (uint64_t(t.dwHighDateTime) << 32) | t.dwLowDateTime; };
    const uint64_t now = ticks(now_ft);  // 100 ns units
    unsigned removed = 0;
    do {
        if (fd.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)) continue;
        const std::string n = narrow(fd.cFileName, wcslen(fd.cFileName));
        const std::string_view name(n);
        // PREFIX ... SUFFIX . six characters
        if (name.size() < prefix.size() + suffix.size() + 7) continue;
        if (name.substr(0, prefix.size()) != prefix) continue;
        const size_t dot = name.size() - 7;
        if (name[dot] != '.' || name.substr(dot - suffix.size(), suffix.size()) != suffix) continue;
        const uint64_t modified = ticks(fd.ftLastWriteTime);
        if (now < modified || now - modified < uint64_t(min_age_s) * 10000000u) continue;  // may be written now
        if (DeleteFileW(widen(dir + "/" + n).c_str())) removed++;
    } while (FindNextFileW(find, &fd));
    FindClose(find);
    return removed;
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

bool find_env(const char *name, std::string *value)
{
    const wchar_t *v = _wgetenv(widen(name).c_str());
    if (!v) return false;
    *value = narrow(v, wcslen(v));
    return true;
}


bool is_terminal(std::FILE *f) { return _isatty(_fileno(f)) != 0; }

long process_id()
{
    return long(GetCurrentProcessId());
}

int call_around_fork(void (*)(), void (*)())
{
    return 0;  // no fork() on Windows: a new process never inherits this one's state
}

int call_at_exit(void (*fn)())
{
    // In a DLL, atexit() registers with the DLL's own table: the call also
    // comes when the library is unloaded.
    return std::atexit(fn) ? -ENOMEM : 0;
}

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
    // A regular file never blocks.
    const int err = read_to_end(size_t(st.st_size), max_bytes, [&](char *dst, size_t want, size_t *got) {
        ssize_t n;
        do n = ::read(fd, dst, want);
        while (n < 0 && errno == EINTR);
        if (n < 0) {
            const int e = errno;
            *why = std::strerror(e);
            return -e;
        }
        *got = size_t(n);
        return 0;
    }, out, why);
    ::close(fd);
    return err;
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

bool find_env(const char *name, std::string *value)
{
    const char *v = std::getenv(name);
    if (!v) return false;
    *value = v;
    return true;
}


bool is_terminal(std::FILE *f) { return isatty(fileno(f)) != 0; }

long process_id()
{
    return long(::getpid());
}

int call_around_fork(void (*prepare)(), void (*after)())
{
    return -::pthread_atfork(prepare, after, after);
}

int call_at_exit(void (*fn)())
{
    // In a shared library atexit() registers with the library's own handle:
    // the call also comes when the library is unloaded.
    return std::atexit(fn) ? -ENOMEM : 0;
}

#endif

}  // namespace vmaf::os
