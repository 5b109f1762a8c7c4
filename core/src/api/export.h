// SPDX-License-Identifier: BSD-2-Clause-Patent
// Marks the C ABI entry points: everything else in the library is hidden.
#pragma once

#ifdef _WIN32
// A DLL exports what is marked so and nothing else (the import library lists these).
#define VMAF_EXPORT extern "C" __declspec(dllexport)
#else
#define VMAF_EXPORT extern "C" __attribute__((visibility("default")))
#endif
