// SPDX-License-Identifier: BSD-2-Clause-Patent
// VmafFeatureDictionary: the C face of vmaf::Dict.
#include <cerrno>
#include <new>

#include "api/dictionary.h"
#include "api/export.h"
#include "api/guarded.h"

VMAF_EXPORT int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key,
                                            const char *val)
{
    return vmaf::api::guarded(__func__, [&] {
        // An empty key is stored, as libvmaf does (an extractor then refuses it).
        if (!dict || !key || !val) return -EINVAL;
        if (!*dict) {
            *dict = new (std::nothrow) VmafFeatureDictionary;
            if (!*dict) return -ENOMEM;
        }
        for (auto &[k, v] : (*dict)->entries)
            if (k == key) {
                v = val;
                return 0;
            }
        (*dict)->entries.emplace_back(key, val);
        return 0;
    });
}

VMAF_EXPORT int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict)
{
    return vmaf::api::guarded(__func__, [&] {
        if (!dict) return -EINVAL;
        delete *dict;
        *dict = nullptr;
        return 0;
    });
}
