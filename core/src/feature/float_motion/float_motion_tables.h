// SPDX-License-Identifier: BSD-2-Clause-Patent
// Constants of float motion (behaviour of libvmaf's float_motion.c, motion.c
// and motion_tools.h), of the CPU extractor, which has no Vulkan twin.
#pragma once

namespace vmaf::float_motion {

inline constexpr const char *kMotionName = "VMAF_feature_motion_score";
inline constexpr const char *kMotion2Name = "VMAF_feature_motion2_score";
inline constexpr const char *kMotion3Name = "VMAF_feature_motion3_score";

// Blur kernels (doubles rounded to float). motion_filter_size 1 selects the
// identity, 3 the 3-tap kernel, anything else the default 5-tap one.
inline constexpr float kFilter5[5] = {float(0.054488685), float(0.244201342), float(0.402619947),
                                      float(0.244201342), float(0.054488685)};
inline constexpr float kFilter3[3] = {float(0.166378498), float(0.667243004), float(0.166378498)};
inline constexpr float kFilter5Identity[5] = {0.0f, 0.0f, 1.0f, 0.0f, 0.0f};
inline constexpr int kDefaultFilterSize = 5;

// Pixels enter as (sample - 128) on the 8-bit scale.
inline constexpr float kPixelOffset = -128.0f;

inline constexpr double kDefaultMaxVal = 10000.0;

// The optional second scale is the blurred plane resized (bilinear) to
// (int)(size * 0.5 + 0.5); libvmaf's bilinear tables cap its width.
inline constexpr double kScale1Factor = 0.5;
inline constexpr int kBilinearMaxWidth = 7680;

// libvmaf lays its float planes out with rows padded to 32 bytes; the second
// scale of a chroma plane reads them with the chroma width's padding.
inline constexpr unsigned kRowAlignBytes = 32;
inline constexpr unsigned padded_floats(unsigned w)
{
    const unsigned bytes = w * unsigned(sizeof(float));
    return (bytes % kRowAlignBytes ? bytes + kRowAlignBytes - bytes % kRowAlignBytes : bytes) /
           unsigned(sizeof(float));
}

// motion3: score * factor + (1 - factor) * min(offset, score).
inline double blend(double score, double factor, double offset)
{
    return score * factor + (1 - factor) * (offset < score ? offset : score);
}

}  // namespace vmaf::float_motion
