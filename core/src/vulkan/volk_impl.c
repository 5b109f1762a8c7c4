// SPDX-License-Identifier: BSD-2-Clause-Patent
/* volk's loader code, compiled into the library (the distribution ships it as a
 * source file next to volk.h). With VK_NO_PROTOTYPES nothing links libvulkan:
 * volkInitialize() dlopens it at run time. The library is built with hidden
 * visibility, so volk's global function pointers are not exported. */
#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <volk.c>
