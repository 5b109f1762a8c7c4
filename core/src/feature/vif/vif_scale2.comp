// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Integer VIF, scale 2: see vif_scale.glsl.
#define VIF_SCALE 2
#include "vif_scale.glsl"
