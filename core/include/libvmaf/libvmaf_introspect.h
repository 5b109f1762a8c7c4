// SPDX-License-Identifier: BSD-2-Clause-Patent
/* libvmaf-vk: looking into a context, a model and the feature registry.
 * Extensions of this library (not in Netflix libvmaf): what a benchmark or a
 * tool reports besides the scores, such as the names of the stored scores and
 * which extractor computes a model's feature. The Vulkan side of it (GPU time,
 * profile, where each feature ran) is in <libvmaf/libvmaf_vulkan.h>.
 *
 * Errors are negative errno values, each with a log line saying why: -EINVAL
 * for a NULL argument, -ERANGE for an index past the end, -ENOENT for a name
 * that is not known. */
#ifndef LIBVMAF_LIBVMAF_INTROSPECT_H
#define LIBVMAF_LIBVMAF_INTROSPECT_H

#include <stddef.h>

#include "libvmaf/libvmaf.h"
#include "libvmaf/model.h"
#include "libvmaf/picture.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Another reference to a picture's storage: `dst` (whose previous contents are
 * overwritten, not released) describes the same planes as `src`, and the storage
 * lives until both are released with vmaf_picture_unref(). A caller handing the
 * same frame to vmaf_read_pictures() more than once (which takes a reference)
 * keeps its own this way, without a copy.
 *
 * @return 0; -EINVAL when an argument is NULL or `src` holds no picture.
 */
int vmaf_picture_ref(VmafPicture *dst, const VmafPicture *src);

/**
 * The number of scores a context stores so far, each under its output name
 * ("psnr_y", "integer_adm2", a model's "vmaf"), in the order of
 * vmaf_feature_score_name() and of the output's listing.
 *
 * @return 0; -EINVAL when an argument is NULL.
 */
int vmaf_feature_score_count(VmafContext *vmaf, unsigned *count);

/**
 * The output name of the stored score number `index` (0 to the count less one),
 * copied into `name` (`size` bytes, with its terminating NUL).
 *
 * @return 0; -EINVAL when an argument is NULL or `size` is 0; -ERANGE when
 *         `index` is not below vmaf_feature_score_count()'s; -ENOSPC when the
 *         name does not fit (`name` then holds as much as fits, terminated).
 */
int vmaf_feature_score_name(VmafContext *vmaf, unsigned index, char *name, size_t size);

/**
 * The extractor that vmaf_use_feature() would register for `name`: an
 * extractor's own name ("float_ssim"), else the extractor providing a feature of
 * that name, under its full or its output name ("VMAF_integer_feature_adm2_score",
 * "integer_adm2").
 *
 * @param extractor receives the extractor's name (static storage of the library).
 * @return 0; -EINVAL when an argument is NULL; -ENOENT when no extractor has or
 *         provides that name (`*extractor` is then NULL).
 */
int vmaf_feature_extractor_name(const char *name, const char **extractor);

/**
 * The number of features a model's score is computed from.
 *
 * @return 0; -EINVAL when an argument is NULL.
 */
int vmaf_model_feature_count(const VmafModel *model, unsigned *count);

/**
 * The extractor computing a model's feature number `index`, in the model's order.
 *
 * @param extractor receives the extractor's name (static storage of the library),
 *                  or NULL when no extractor of this library provides the feature.
 * @return 0; -EINVAL when an argument is NULL; -ERANGE when `index` is not below
 *         vmaf_model_feature_count()'s.
 */
int vmaf_model_feature_extractor(const VmafModel *model, unsigned index, const char **extractor);

#ifdef __cplusplus
}
#endif

#endif /* LIBVMAF_LIBVMAF_INTROSPECT_H */
