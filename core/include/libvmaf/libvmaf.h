// SPDX-License-Identifier: BSD-2-Clause-Patent
/* libvmaf-vk: the main C API.
 * Source-compatible with libvmaf 3.x <libvmaf/libvmaf.h>: programs written
 * against Netflix libvmaf build against this header unchanged.
 *
 * Errors are negative errno values (-EINVAL, -ENOMEM, -ENOENT, ...); 0 is success. */
#ifndef LIBVMAF_LIBVMAF_H
#define LIBVMAF_LIBVMAF_H

#include <stdint.h>
#include <stdio.h>

#include "libvmaf/model.h"
#include "libvmaf/picture.h"
#include "libvmaf/feature.h"

#ifdef __cplusplus
extern "C" {
#endif

enum VmafLogLevel {
    VMAF_LOG_LEVEL_NONE = 0,
    VMAF_LOG_LEVEL_ERROR,
    VMAF_LOG_LEVEL_WARNING,
    VMAF_LOG_LEVEL_INFO,
    VMAF_LOG_LEVEL_DEBUG,
};

enum VmafOutputFormat {
    VMAF_OUTPUT_FORMAT_NONE = 0,
    VMAF_OUTPUT_FORMAT_XML,
    VMAF_OUTPUT_FORMAT_JSON,
    VMAF_OUTPUT_FORMAT_CSV,
    VMAF_OUTPUT_FORMAT_SUB,
};

enum VmafPoolingMethod {
    VMAF_POOL_METHOD_UNKNOWN = 0,
    VMAF_POOL_METHOD_MIN,
    VMAF_POOL_METHOD_MAX,
    VMAF_POOL_METHOD_MEAN,
    VMAF_POOL_METHOD_HARMONIC_MEAN,
    VMAF_POOL_METHOD_NB
};

typedef struct VmafConfiguration {
    enum VmafLogLevel log_level;
    unsigned n_threads;    /**< frame threads; 0 or 1 runs on the caller's thread */
    unsigned n_subsample;  /**< compute every n-th frame only; 0 or 1 computes all */
    uint64_t cpumask;      /**< accepted for compatibility; SIMD is chosen at run time */
    uint64_t gpumask;      /**< nonzero disables GPU backends for this context */
} VmafConfiguration;

typedef struct VmafContext VmafContext;

/** Create a context. Returns 0 or a negative errno. */
int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg);

/** Register every feature extractor `model` needs, with the model's options. */
int vmaf_use_features_from_model(VmafContext *vmaf, VmafModel *model);

int vmaf_use_features_from_model_collection(VmafContext *vmaf,
                                            VmafModelCollection *model_collection);

/**
 * Register a feature extractor by name ("psnr", "vif", "adm", "motion", or a
 * provided feature name such as "integer_adm2"). `opts_dict` is consumed.
 */
int vmaf_use_feature(VmafContext *vmaf, const char *feature_name,
                     VmafFeatureDictionary *opts_dict);

/** Store an externally computed score under `feature_name` at `index`. */
int vmaf_import_feature_score(VmafContext *vmaf, const char *feature_name,
                              double value, unsigned index);

/**
 * Hand one reference/distorted picture pair to the context, which takes
 * ownership of both (it unrefs them when done). Indices may arrive in any
 * order but must be unique. Call with ref == dist == NULL to flush: this
 * waits for outstanding frames and finishes temporal features.
 */
int vmaf_read_pictures(VmafContext *vmaf, VmafPicture *ref, VmafPicture *dist,
                       unsigned index);

int vmaf_score_at_index(VmafContext *vmaf, VmafModel *model, double *score,
                        unsigned index);

int vmaf_score_at_index_model_collection(VmafContext *vmaf,
                                         VmafModelCollection *model_collection,
                                         VmafModelCollectionScore *score,
                                         unsigned index);

int vmaf_feature_score_at_index(VmafContext *vmaf, const char *feature_name,
                                double *score, unsigned index);

/** Pool the model's per-frame scores over [index_low, index_high]. */
int vmaf_score_pooled(VmafContext *vmaf, VmafModel *model,
                      enum VmafPoolingMethod pool_method, double *score,
                      unsigned index_low, unsigned index_high);

int vmaf_score_pooled_model_collection(VmafContext *vmaf,
                                       VmafModelCollection *model_collection,
                                       enum VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore *score,
                                       unsigned index_low, unsigned index_high);

int vmaf_feature_score_pooled(VmafContext *vmaf, const char *feature_name,
                              enum VmafPoolingMethod pool_method, double *score,
                              unsigned index_low, unsigned index_high);

typedef struct VmafPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    unsigned pic_cnt;
} VmafPictureConfiguration;

/** Preallocate a pool of `pic_cnt` pictures; vmaf_fetch_preallocated_picture takes one. */
int vmaf_preallocate_pictures(VmafContext *vmaf,
                              VmafPictureConfiguration cfg);

/** Take a picture from the pool, waiting until one is free. */
int vmaf_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

/**
 * libvmaf-vk: vmaf_fetch_preallocated_picture() with a limit on the wait, for
 * callers that must not block forever on an exhausted pool (every picture held
 * by the caller or by frames in flight). timeout_ms 0: do not wait, -EBUSY when
 * no picture is free; > 0: -ETIMEDOUT after that many milliseconds; < 0: wait
 * as long as it takes (vmaf_fetch_preallocated_picture()).
 */
int vmaf_fetch_preallocated_picture_timeout(VmafContext *vmaf, VmafPicture *pic, int timeout_ms);

/** Free the context; waits for any frames still in flight. */
int vmaf_close(VmafContext *vmaf);

/** Write per-frame and pooled scores of every feature and model used. */
int vmaf_write_output(VmafContext *vmaf, const char *output_path,
                      enum VmafOutputFormat fmt);

const char *vmaf_version(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBVMAF_LIBVMAF_H */
