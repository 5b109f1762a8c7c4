// The body of the opaque VmafFeatureDictionary.
#pragma once

#include "feature/options.h"
#include "libvmaf/feature.h"

struct VmafFeatureDictionary {
    vmaf::Dict entries;
};
