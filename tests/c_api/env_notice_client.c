// SPDX-License-Identifier: BSD-2-Clause-Patent
/* A client that silences the library (log_level 0, VMAF_LOG_LEVEL_NONE, as
 * GStreamer's vmaf element does by default) and calls vmaf_init N times, closing
 * each context it gets. It includes only <libvmaf/libvmaf.h>.
 *
 *   env_notice_client N [GPUMASK]
 *
 * Prints one line per call: "vmaf_init: RC". Exit status 0. */
#include <stdio.h>
#include <stdlib.h>

#include <libvmaf/libvmaf.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s N [GPUMASK]\n", argv[0]);
        return 2;
    }
    const int n = atoi(argv[1]);
    VmafConfiguration cfg = {
        .log_level = VMAF_LOG_LEVEL_NONE,
        .n_threads = 1,
        .gpumask = argc > 2 ? (uint64_t)strtoull(argv[2], NULL, 0) : 0,
    };
    for (int i = 0; i < n; i++) {
        VmafContext *ctx = NULL;
        const int err = vmaf_init(&ctx, cfg);
        printf("vmaf_init: %d\n", err);
        if (!err) vmaf_close(ctx);
    }
    return 0;
}
