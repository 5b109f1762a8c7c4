// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Integer VIF, scale 0: see vif_scale.glsl.
#define VIF_SCALE 0
#include "vif_scale.glsl"
