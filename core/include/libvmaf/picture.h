// SPDX-License-Identifier: BSD-2-Clause-Patent
/* libvmaf-vk: picture storage shared by the CPU and Vulkan backends.
 * Source-compatible with libvmaf 3.x <libvmaf/picture.h>. */
#ifndef LIBVMAF_PICTURE_H
#define LIBVMAF_PICTURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Chroma layout of a picture. Planes are Y, Cb, Cr (4:0:0 has Y only). */
enum VmafPixelFormat {
    VMAF_PIX_FMT_UNKNOWN,
    VMAF_PIX_FMT_YUV420P,
    VMAF_PIX_FMT_YUV422P,
    VMAF_PIX_FMT_YUV444P,
    VMAF_PIX_FMT_YUV400P,
};

typedef struct VmafRef VmafRef;

/**
 * A planar picture. Samples are uint8_t when bpc == 8, otherwise uint16_t
 * holding `bpc` significant bits. `stride` is in bytes.
 * `ref` counts owners; `priv` belongs to the library.
 */
typedef struct VmafPicture {
    enum VmafPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w[3], h[3];
    ptrdiff_t stride[3];
    void *data[3];
    VmafRef *ref;
    void *priv;
} VmafPicture;

/**
 * Allocate a picture of w x h luma samples with `bpc` bits per component
 * (8, 10, 12 or 16). Returns 0 or a negative errno (-EINVAL on bad arguments,
 * -ENOMEM when out of memory).
 */
int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt,
                       unsigned bpc, unsigned w, unsigned h);

/** Drop one reference; the storage is freed with the last one. */
int vmaf_picture_unref(VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* LIBVMAF_PICTURE_H */
