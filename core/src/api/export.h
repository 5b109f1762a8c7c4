// Marks the C ABI entry points: everything else in the library is hidden.
#pragma once

#define VMAF_EXPORT extern "C" __attribute__((visibility("default")))
