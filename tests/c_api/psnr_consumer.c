/* A plain C consumer of the installed library: it includes only the installed
 * headers, is built with `pkg-config --cflags --libs libvmaf`, and checks a
 * closed-form PSNR through the libvmaf 3.x API. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <libvmaf/libvmaf.h>

static int fill(VmafPicture *p, unsigned v)
{
    for (unsigned pl = 0; pl < 3; pl++)
        memset(p->data[pl], (int)v, (size_t)p->stride[pl] * p->h[pl]);
    return 0;
}

int main(void)
{
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
    printf("libvmaf %s: mean psnr_y %.6f\n", vmaf_version(), mean);
    return vmaf_close(vmaf) ? 10 : 0;
}
