// SPDX-License-Identifier: BSD-2-Clause-Patent
// The body of the opaque VmafFeatureDictionary.
#pragma once

#include "feature/options.h"
#include "libvmaf/feature.h"

struct VmafFeatureDictionary {
    vmaf::Dict entries;
};
