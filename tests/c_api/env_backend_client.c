// SPDX-License-Identifier: BSD-2-Clause-Patent
/* A client that never chooses a backend: it includes only <libvmaf/libvmaf.h>
 * (no libvmaf_vulkan.h), as FFmpeg's libvmaf filter, GStreamer's vmaf element
 * and the tools built on them do. VMAF_BACKEND decides where it scores.
 *
 *   env_backend_client REF.y4m DIS.y4m [CONTEXTS [GPUMASK [LOG_LEVEL]]]
 *
 * Scores every frame of the pair with the vmaf_v0.6.1 model (from
 * VMAF_MODEL_DIR) and psnr, in CONTEXTS contexts (default 1) open at the same
 * time, each fed every frame, and prints per frame the first context's scores
 * with 17 significant digits. Exit status: 0; 10 when vmaf_init fails (its
 * negative errno is printed); 20 when the contexts disagree; other nonzero
 * values for other failures. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>

#define MAX_CONTEXTS 4

struct y4m {
    FILE *f;
    unsigned w, h, bpc;
    enum VmafPixelFormat fmt;
};

static int y4m_open(struct y4m *y, const char *path)
{
    char line[512];
    y->f = fopen(path, "rb");
    if (!y->f || !fgets(line, sizeof(line), y->f) || strncmp(line, "YUV4MPEG2 ", 10)) return -1;
    y->w = y->h = 0;
    y->bpc = 8;
    y->fmt = VMAF_PIX_FMT_YUV420P;
    for (char *t = strtok(line + 10, " \n"); t; t = strtok(NULL, " \n")) {
        if (t[0] == 'W') y->w = (unsigned)atoi(t + 1);
        if (t[0] == 'H') y->h = (unsigned)atoi(t + 1);
        if (t[0] == 'C') {
            if (!strncmp(t, "C444", 4)) y->fmt = VMAF_PIX_FMT_YUV444P;
            else if (!strncmp(t, "C422", 4)) y->fmt = VMAF_PIX_FMT_YUV422P;
            else if (!strncmp(t, "C420", 4)) y->fmt = VMAF_PIX_FMT_YUV420P;
            else return -1;
            if (strstr(t, "p10")) y->bpc = 10;
        }
    }
    return y->w && y->h ? 0 : -1;
}

/* One frame into a picture from vmaf_picture_alloc; 1 at the end of the file. */
static int y4m_read(struct y4m *y, VmafPicture *pic)
{
    char line[64];
    if (!fgets(line, sizeof(line), y->f)) return 1;
    if (strncmp(line, "FRAME", 5)) return -1;
    const unsigned bytes = y->bpc > 8 ? 2 : 1;
    for (unsigned p = 0; p < 3; p++) {
        unsigned char *row = pic->data[p];
        for (unsigned r = 0; r < pic->h[p]; r++, row += pic->stride[p])
            if (fread(row, bytes, pic->w[p], y->f) != pic->w[p]) return -1;
    }
    return 0;
}

static const char *const kFeatures[] = {"psnr_y", "integer_vif_scale0", "integer_adm2", "integer_motion2"};
#define N_FEATURES (sizeof(kFeatures) / sizeof(kFeatures[0]))

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s REF.y4m DIS.y4m [CONTEXTS [GPUMASK [LOG_LEVEL]]]\n", argv[0]);
        return 2;
    }
    const unsigned n_ctx = argc > 3 ? (unsigned)atoi(argv[3]) : 1;
    if (n_ctx < 1 || n_ctx > MAX_CONTEXTS) return 2;
    VmafConfiguration cfg = {
        .log_level = argc > 5 ? (enum VmafLogLevel)atoi(argv[5]) : VMAF_LOG_LEVEL_INFO,
        .n_threads = 2,
        .gpumask = argc > 4 ? (uint64_t)strtoull(argv[4], NULL, 0) : 0,
    };
    struct y4m ref, dis;
    if (y4m_open(&ref, argv[1]) || y4m_open(&dis, argv[2]) || ref.w != dis.w || ref.h != dis.h) {
        fprintf(stderr, "cannot read %s and %s\n", argv[1], argv[2]);
        return 3;
    }

    VmafModel *model = NULL;
    VmafModelConfig mcfg = {.name = "vmaf"};
    if (vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1")) return 4;
    VmafContext *ctx[MAX_CONTEXTS] = {0};
    for (unsigned c = 0; c < n_ctx; c++) {
        const int err = vmaf_init(&ctx[c], cfg);
        if (err) {
            printf("vmaf_init: %d\n", err);
            for (unsigned k = 0; k < c; k++) vmaf_close(ctx[k]);
            vmaf_model_destroy(model);
            return 10;
        }
        if (vmaf_use_features_from_model(ctx[c], model) || vmaf_use_feature(ctx[c], "psnr", NULL)) return 5;
    }

    unsigned n = 0;
    for (;; n++) {
        VmafPicture r, d;
        if (vmaf_picture_alloc(&r, ref.fmt, ref.bpc, ref.w, ref.h)) return 6;
        if (vmaf_picture_alloc(&d, dis.fmt, dis.bpc, dis.w, dis.h)) return 6;
        const int a = y4m_read(&ref, &r), b = y4m_read(&dis, &d);
        if (a || b) {
            vmaf_picture_unref(&r);
            vmaf_picture_unref(&d);
            if (a < 0 || b < 0) return 7;
            break;
        }
        for (unsigned c = 0; c < n_ctx; c++) {
            VmafPicture rc = r, dc = d;  /* the last context takes the pictures; the others copies */
            if (c + 1 < n_ctx) {
                if (vmaf_picture_alloc(&rc, ref.fmt, ref.bpc, ref.w, ref.h) ||
                    vmaf_picture_alloc(&dc, dis.fmt, dis.bpc, dis.w, dis.h))
                    return 6;
                for (unsigned p = 0; p < 3; p++) {
                    memcpy(rc.data[p], r.data[p], (size_t)r.stride[p] * r.h[p]);
                    memcpy(dc.data[p], d.data[p], (size_t)d.stride[p] * d.h[p]);
                }
            }
            if (vmaf_read_pictures(ctx[c], &rc, &dc, n)) return 8;
        }
    }
    for (unsigned c = 0; c < n_ctx; c++)
        if (vmaf_read_pictures(ctx[c], NULL, NULL, 0)) return 9;

    int rc = 0;
    for (unsigned i = 0; i < n; i++) {
        double s[MAX_CONTEXTS][N_FEATURES + 1];
        for (unsigned c = 0; c < n_ctx; c++) {
            if (vmaf_score_at_index(ctx[c], model, &s[c][0], i)) return 11;
            for (unsigned k = 0; k < N_FEATURES; k++)
                if (vmaf_feature_score_at_index(ctx[c], kFeatures[k], &s[c][k + 1], i)) return 12;
            if (c && memcmp(s[c], s[0], sizeof(s[0]))) {
                fprintf(stderr, "frame %u: context %u differs from context 0\n", i, c);
                rc = 20;
            }
        }
        printf("%u vmaf %.17g", i, s[0][0]);
        for (unsigned k = 0; k < N_FEATURES; k++) printf(" %s %.17g", kFeatures[k], s[0][k + 1]);
        printf("\n");
    }
    for (unsigned c = 0; c < n_ctx; c++) vmaf_close(ctx[c]);
    vmaf_model_destroy(model);
    fclose(ref.f);
    fclose(dis.f);
    return rc;
}
