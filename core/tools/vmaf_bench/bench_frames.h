// SPDX-License-Identifier: BSD-2-Clause-Patent
// The frames vmaf_bench scores: a short cycle of reference/distorted pairs held
// in memory, either made up (a moving textured pattern and a blurred, noisy copy
// of it) or read from a pair of .y4m files.
#pragma once

#include <string>
#include <vector>

#include "libvmaf/picture.h"

namespace vmaf::bench {

// Owns its pictures (one reference each).
class FrameCycle {
public:
    FrameCycle() = default;
    ~FrameCycle();
    FrameCycle(const FrameCycle &) = delete;
    FrameCycle &operator=(const FrameCycle &) = delete;

    // `count` pairs of w x h 8-bit 4:2:0 frames. Deterministic: the same
    // arguments give the same samples on every machine.
    int make_synthetic(unsigned w, unsigned h, unsigned count, std::string *err);
    // The first `max_count` frames of both files (fewer when a file is shorter);
    // both must have the same geometry.
    int read_y4m(const std::string &ref_path, const std::string &dist_path, unsigned max_count,
                 std::string *err);

    unsigned size() const { return unsigned(ref_.size()); }
    // The pair that frame `index` of a run uses (the cycle repeats).
    const VmafPicture &ref(unsigned index) const { return ref_[index % ref_.size()]; }
    const VmafPicture &dist(unsigned index) const { return dist_[index % dist_.size()]; }

private:
    void clear();
    std::vector<VmafPicture> ref_, dist_;
};

// Write `count` frames of the synthetic sequence (FrameCycle::make_synthetic's
// frames, without holding them) as two 8-bit 4:2:0 .y4m files.
int write_synthetic_y4m(unsigned w, unsigned h, unsigned count, const std::string &ref_path,
                        const std::string &dist_path, std::string *err);

// Copy the samples of `src` into `dst` (same geometry, any strides).
void copy_picture(const VmafPicture &src, VmafPicture *dst);

}  // namespace vmaf::bench
