// SPDX-License-Identifier: BSD-2-Clause-Patent
/* A plain C consumer of the installed library: it includes only the installed
 * headers, is built with `pkg-config --cflags --libs libvmaf`, and checks a
 * closed-form PSNR through the libvmaf 3.x API. It also checks the version macros
 * and one function of libvmaf_vulkan.h (the VA-API import, whose object opens
 * libva at run time: a static link needs only what Libs.private names). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/libvmaf_introspect.h>
#include <libvmaf/libvmaf_vulkan.h>
#include <libvmaf/version.h>

/* libvmaf's integer version macros, usable by the preprocessor; run.sh passes
 * the version pkg-config reports, and the two must agree. */
#if !defined(VMAF_API_VERSION_MAJOR) || !defined(VMAF_API_VERSION_MINOR) || !defined(VMAF_API_VERSION_PATCH)
#error "libvmaf/version.h lacks VMAF_API_VERSION_MAJOR/_MINOR/_PATCH"
#endif
#if VMAF_API_VERSION_MAJOR != EXPECT_MAJOR || VMAF_API_VERSION_MINOR != EXPECT_MINOR || \
    VMAF_API_VERSION_PATCH != EXPECT_PATCH
#error "libvmaf/version.h and pkg-config disagree on the version"
#endif

static int fill(VmafPicture *p, unsigned v)
{
    for (unsigned pl = 0; pl < 3; pl++)
        memset(p->data[pl], (int)v, (size_t)p->stride[pl] * p->h[pl]);
    return 0;
}

int main(void)
{
    /* vmaf_version() starts with the same MAJOR.MINOR.PATCH. */
    char want[32];
    snprintf(want, sizeof(want), "%d.%d.%d", VMAF_API_VERSION_MAJOR, VMAF_API_VERSION_MINOR,
             VMAF_API_VERSION_PATCH);
    if (strncmp(vmaf_version(), want, strlen(want))) {
        fprintf(stderr, "vmaf_version() %s, headers %s\n", vmaf_version(), want);
        return 11;
    }
    /* The VA-API import (its object brings dlopen into a static link) refuses a NULL context. */
    if (vmaf_vulkan_import_va_surface(NULL, VMAF_VULKAN_IMPORT_REFERENCE, NULL, 0, 0) != -EINVAL) return 12;

    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_ERROR, .n_threads = 2 };
    VmafContext *vmaf = NULL;
    if (vmaf_init(&vmaf, cfg)) return 1;
    if (vmaf_use_feature(vmaf, "psnr", NULL)) return 2;
    if (vmaf_use_feature(vmaf, "nonexistent", NULL) != -EINVAL) return 3;

    for (unsigned i = 0; i < 4; i++) {
        VmafPicture ref, dist;
        if (vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, 96, 64)) return 4;
        if (vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV420P, 8, 96, 64)) return 4;
        fill(&ref, 100);
        fill(&dist, 100 + i + 1);
        if (vmaf_read_pictures(vmaf, &ref, &dist, i)) return 5;
    }
    if (vmaf_read_pictures(vmaf, NULL, NULL, 0)) return 6;

    for (unsigned i = 0; i < 4; i++) {
        double s;
        const double d = i + 1.0;
        if (vmaf_feature_score_at_index(vmaf, "psnr_y", &s, i)) return 7;
        if (fabs(s - 10.0 * log10(255.0 * 255.0 / (d * d))) > 1e-9) {
            fprintf(stderr, "frame %u: psnr_y %f\n", i, s);
            return 8;
        }
    }
    double mean;
    if (vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MEAN, &mean, 0, 3)) return 9;
    // The installed introspection header: psnr's three scores, by name.
    unsigned count = 0;
    char name[32];
    if (vmaf_feature_score_count(vmaf, &count) || count != 3) return 13;
    for (unsigned i = 0; i < count; i++) {
        if (vmaf_feature_score_name(vmaf, i, name, sizeof name)) return 14;
        if (strcmp(name, "psnr_y") && strcmp(name, "psnr_cb") && strcmp(name, "psnr_cr")) return 15;
    }
    printf("libvmaf %s: mean psnr_y %.6f\n", vmaf_version(), mean);
    return vmaf_close(vmaf) ? 10 : 0;
}
