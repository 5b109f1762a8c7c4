// SPDX-License-Identifier: BSD-2-Clause-Patent
/* libvmaf-vk: feature extractor options.
 * Source-compatible with libvmaf 3.x <libvmaf/feature.h>. */
#ifndef LIBVMAF_FEATURE_H
#define LIBVMAF_FEATURE_H

#ifdef __cplusplus
extern "C" {
#endif

/** An ordered key/value list of extractor options ("vif_enhn_gain_limit" -> "1.0"). */
typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/** Set `key` to `val`, creating *dict when NULL. Returns 0 or a negative errno. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key,
                                const char *val);

/** Free *dict and set it to NULL. */
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#ifdef __cplusplus
}
#endif

#endif /* LIBVMAF_FEATURE_H */
