// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Integer ADM, scales 1..3 (32-bit bands): see adm_scale.glsl.
#include "adm_scale.glsl"
