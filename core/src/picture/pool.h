// SPDX-License-Identifier: BSD-2-Clause-Patent
// A fixed set of host pictures recycled between fetches
// (vmaf_preallocate_pictures / vmaf_fetch_preallocated_picture).
#pragma once

#include <memory>

#include "libvmaf/picture.h"

namespace vmaf {

class PicturePool {
public:
    // Allocates `count` pictures' storage up front.
    static int create(VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                      unsigned count, std::unique_ptr<PicturePool> *out);
    ~PicturePool();

    // Hand out a free picture, waiting until one is unreferenced.
    int fetch(VmafPicture *pic);
    // Wait at most timeout_ms (0: not at all, -EBUSY; >0: -ETIMEDOUT; <0: forever).
    int fetch(VmafPicture *pic, int timeout_ms);

private:
    struct Shared;
    explicit PicturePool(std::shared_ptr<Shared> s) : shared_(std::move(s)) {}
    std::shared_ptr<Shared> shared_;  // outlives the pool while pictures are out
};

}  // namespace vmaf
