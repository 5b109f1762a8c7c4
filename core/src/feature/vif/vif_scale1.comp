// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Integer VIF, scale 1: see vif_scale.glsl.
#define VIF_SCALE 1
#include "vif_scale.glsl"
