// SPDX-License-Identifier: BSD-2-Clause-Patent
/* volk's loader code for a program that links the shared library, whose own
 * volk is hidden in it: the caller device then loads its entry points here
 * (volkInitialize() opens the loader at run time; nothing links libvulkan). */
#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <volk.c>
