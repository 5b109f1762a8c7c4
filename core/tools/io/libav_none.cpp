// SPDX-License-Identifier: BSD-2-Clause-Patent
// Builds without FFmpeg's libraries: only .y4m and raw .yuv.
#include <cerrno>

#include "io/video_reader.h"

namespace vmaf::io {

bool have_libav() { return false; }

int open_libav(const std::string &path, std::unique_ptr<VideoReader> *, std::string *err, bool)
{
    if (err)
        *err = path + ": this vmaf reads .y4m and raw .yuv only (built without FFmpeg's libraries; see "
                      "docs/cli.md)";
    return -ENOSYS;
}

std::string libav_versions() { return ""; }

}  // namespace vmaf::io
