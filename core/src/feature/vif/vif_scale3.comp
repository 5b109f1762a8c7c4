// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Integer VIF, scale 3: see vif_scale.glsl.
#define VIF_SCALE 3
#include "vif_scale.glsl"
