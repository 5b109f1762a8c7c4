#version 450
// Compiles every generated table header, so a malformed one fails the build even
// before a kernel includes it. Add each new <feature>_tables.glsl here.
#include "adm_tables.glsl"
#include "cambi_tables.glsl"
#include "ciede_tables.glsl"
#include "motion_tables.glsl"
#include "ssim_tables.glsl"
#include "psnr_hvs_tables.glsl"
#include "vif_tables.glsl"

layout(local_size_x = 1) in;
layout(std430, binding = 0) writeonly buffer Out { int v[]; } o;

void main()
{
    o.v[0] = kMotionFilter[kMotionFilterWidth / 2] >> kMotionHorizontalShift;
}
