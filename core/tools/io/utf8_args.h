// SPDX-License-Identifier: BSD-2-Clause-Patent
// The program's arguments as UTF-8, so that paths of any language reach
// os/os.h's file functions: on Windows from the wide command line (argv
// there is in the ANSI code page, which cannot hold every name); elsewhere
// argv as it is.
#pragma once

#include <string>
#include <vector>

#ifdef _WIN32
#include <windows.h>
#include <shellapi.h>
#endif

namespace vmaf::io {

// Keep it alive while argv() is in use.
class Utf8Args {
public:
    Utf8Args(int argc, char **argv)
    {
#ifdef _WIN32
        int n = 0;
        wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
        if (w && n == argc) {
            for (int i = 0; i < n; i++) {
                const int len = WideCharToMultiByte(CP_UTF8, 0, w[i], -1, nullptr, 0, nullptr, nullptr);
                std::string s(size_t(len > 0 ? len : 1), '\0');
                if (len > 0) WideCharToMultiByte(CP_UTF8, 0, w[i], -1, s.data(), len, nullptr, nullptr);
                s.resize(s.size() - 1);  // the terminating NUL
                args_.push_back(std::move(s));
            }
        }
        if (w) LocalFree(w);
#endif
        if (args_.empty())
            for (int i = 0; i < argc; i++) args_.emplace_back(argv[i]);
        for (auto &a : args_) ptrs_.push_back(a.data());
        ptrs_.push_back(nullptr);
    }
    int argc() const { return int(ptrs_.size()) - 1; }
    char **argv() { return ptrs_.data(); }

private:
    std::vector<std::string> args_;
    std::vector<char *> ptrs_;
};

}  // namespace vmaf::io
