// SPDX-License-Identifier: BSD-2-Clause-Patent
// Everything written to stderr (where the library logs) while a StderrCapture
// lives, for tests that check a log line.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>

namespace vmaf::test {

class StderrCapture {
public:
    StderrCapture()
    {
        std::fflush(stderr);
        file_ = std::tmpfile();
        if (!file_) return;  // nothing captured: text() is empty
        saved_ = dup(2);
        dup2(fileno(file_), 2);
    }
    ~StderrCapture()
    {
        restore();
        if (file_) std::fclose(file_);
    }
    StderrCapture(const StderrCapture &) = delete;
    StderrCapture &operator=(const StderrCapture &) = delete;

    // What was written so far; capturing ends here.
    std::string text()
    {
        restore();
        std::string out;
        if (!file_) return out;
        std::rewind(file_);
        char buf[4096];
        for (size_t n; (n = std::fread(buf, 1, sizeof(buf), file_)) > 0;) out.append(buf, n);
        return out;
    }

private:
    void restore()
    {
        if (saved_ < 0) return;
        std::fflush(stderr);
        dup2(saved_, 2);
        close(saved_);
        saved_ = -1;
    }
    std::FILE *file_ = nullptr;
    int saved_ = -1;
};

}  // namespace vmaf::test
