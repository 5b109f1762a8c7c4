// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Integer VIF, scale 2, the gain step's last operations in double (devices with
// shaderFloat64): see vif_scale.glsl and vif_gain.glsl.
#define VIF_SCALE 2
#define VIF_GAIN_FP64
#include "vif_scale.glsl"
