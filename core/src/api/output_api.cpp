// SPDX-License-Identifier: BSD-2-Clause-Patent
// vmaf_write_output: the C entry point of the writers.
#include <cerrno>
#include <cmath>
#include <cstring>
#include <exception>
#include <new>

#include "api/export.h"
#include "context/context.h"
#include "output/writer.h"
#include "util/log.h"
#include "os/os.h"

namespace {

vmaf::OutputInfo context_output_info(VmafContext *vmaf)
{
    const vmaf::Context &ctx = vmaf->ctx;
    vmaf::OutputInfo info;
    info.version = vmaf_version();
    info.fps = ctx.frames_per_second();
    info.width = ctx.width();
    info.height = ctx.height();
    info.subsample = ctx.config().n_subsample;
    const unsigned pic_cnt = ctx.picture_count();
    // Pool over every frame handed in; vmaf_feature_score_pooled skips the
    // subsampled-out ones and fails when a computed frame lacks the score.
    info.pool = [vmaf, pic_cnt](const std::string &name, VmafPoolingMethod method, double *v) {
        if (!pic_cnt) return -EINVAL;
        return vmaf_feature_score_pooled(vmaf, name.c_str(), method, v, 0, pic_cnt - 1);
    };
    return info;
}

}  // namespace

VMAF_EXPORT int vmaf_write_output(VmafContext *vmaf, const char *output_path,
                                  enum VmafOutputFormat fmt)
{
    if (!vmaf || !output_path) return -EINVAL;
    if (fmt <= VMAF_OUTPUT_FORMAT_NONE || fmt > VMAF_OUTPUT_FORMAT_SUB) return -EINVAL;
    std::FILE *f = vmaf::os::open_file(output_path, "wb");  // "\n" as it is on Windows too
    if (!f) {
        const int err = errno;
        vmaf::log(VMAF_LOG_LEVEL_ERROR, "could not open %s: %s\n", output_path, std::strerror(err));
        return -EINVAL;  // libvmaf's code whenever the file cannot be opened
    }
    int ret;
    try {
        ret = vmaf::write_output(f, fmt, vmaf->ctx.collector(), context_output_info(vmaf));
    } catch (const std::bad_alloc &) {
        ret = -ENOMEM;
    } catch (const std::exception &e) {
        vmaf::log(VMAF_LOG_LEVEL_ERROR, "internal error: %s\n", e.what());
        ret = -EINVAL;
    }
    if (std::fclose(f) != 0 && !ret) ret = -EIO;
    if (ret == -EIO) vmaf::log(VMAF_LOG_LEVEL_ERROR, "could not write %s\n", output_path);
    return ret;
}
