// SPDX-License-Identifier: BSD-2-Clause-Patent
/* libvmaf-vk: VMAF models (libvmaf JSON format).
 * Source-compatible with libvmaf 3.x <libvmaf/model.h>. */
#ifndef LIBVMAF_MODEL_H
#define LIBVMAF_MODEL_H

#include <stdint.h>

#include "feature.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafModel VmafModel;

enum VmafModelFlags {
    VMAF_MODEL_FLAGS_DEFAULT = 0,
    VMAF_MODEL_FLAG_DISABLE_CLIP = (1 << 0),
    VMAF_MODEL_FLAG_ENABLE_TRANSFORM = (1 << 1),
    VMAF_MODEL_FLAG_DISABLE_TRANSFORM = (1 << 2),
};

typedef struct VmafModelConfig {
    const char *name;  /**< name of the score in outputs; NULL means "vmaf" */
    uint64_t flags;    /**< VmafModelFlags */
} VmafModelConfig;

/**
 * Load a model by version name ("vmaf_v0.6.1", "vmaf_4k_v0.6.1", ...).
 * Models are read from the model directory: $VMAF_MODEL_DIR when set,
 * otherwise the directory configured at build time (meson option model_dir).
 */
int vmaf_model_load(VmafModel **model, VmafModelConfig *cfg,
                    const char *version);

/** Load a model from a libvmaf JSON model file. */
int vmaf_model_load_from_path(VmafModel **model, VmafModelConfig *cfg,
                              const char *path);

/** Override the options of one of the model's features (e.g. enhancement-gain limits). */
int vmaf_model_feature_overload(VmafModel *model, const char *feature_name,
                                VmafFeatureDictionary *opts_dict);

void vmaf_model_destroy(VmafModel *model);

/** A set of models whose scores are pooled (bootstrap models). */
typedef struct VmafModelCollection VmafModelCollection;

enum VmafModelCollectionScoreType {
    VMAF_MODEL_COLLECTION_SCORE_UNKNOWN = 0,
    VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP,
};

typedef struct VmafModelCollectionScore {
    enum VmafModelCollectionScoreType type;
    struct {
        double bagging_score;
        double stddev;
        struct {
            struct { double lo, hi; } p95;
        } ci;
    } bootstrap;
} VmafModelCollectionScore;

int vmaf_model_collection_load(VmafModel **model,
                               VmafModelCollection **model_collection,
                               VmafModelConfig *cfg,
                               const char *version);

int vmaf_model_collection_load_from_path(VmafModel **model,
                                         VmafModelCollection **model_collection,
                                         VmafModelConfig *cfg,
                                         const char *path);

int vmaf_model_collection_feature_overload(VmafModel *model,
                                           VmafModelCollection **model_collection,
                                           const char *feature_name,
                                           VmafFeatureDictionary *opts_dict);

void vmaf_model_collection_destroy(VmafModelCollection *model_collection);

#ifdef __cplusplus
}
#endif

#endif /* LIBVMAF_MODEL_H */
