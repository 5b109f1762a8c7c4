// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Integer ADM, scale 0 (the picture in, 16-bit bands): see adm_scale.glsl.
#define ADM_NARROW 1
#include "adm_scale.glsl"
