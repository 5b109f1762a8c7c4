// Resampling of a float plane to another size (libvmaf's vif_scale_frame_s):
// float_vif's vif_prescale and float_motion's half-size second scale. Same size
// in and out is a plain copy.
#pragma once

#include <cstddef>
#include <string_view>

#include "feature/float_vif/float_vif_filter.h"

namespace vmaf::float_vif {

enum class ScaleMethod { Nearest, Bilinear, Bicubic, Lanczos4 };

// "nearest", "bilinear", "bicubic", "lanczos4"; false for anything else.
bool parse_scale_method(std::string_view s, ScaleMethod *out);

// Write src resampled to dst_w x dst_h into dst (rows of dst_stride floats).
// Bilinear needs dst_w <= kBilinearMaxWidth.
void scale_plane(ScaleMethod m, PlaneView src, float *dst, int dst_w, int dst_h, std::ptrdiff_t dst_stride);

}  // namespace vmaf::float_vif
