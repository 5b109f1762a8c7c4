// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// butteraugli: per pixel, the end of the map of one resolution
// (butteraugli_kernels_tmpl.h's Comparator::level): the reference's blurred
// mask fuzzily eroded (the three smallest of it and its 8 neighbours 3 pixels
// away), the masks' difference added to Y's ac, and
// sqrt(dc MaskDcY + ac MaskY), the mask functions in double.
// Push: a[0] the two blurred masks, a[1] ac (3 planes), a[2] dc (3), b[0] the
// map, w, h.
#include "butteraugli_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

void store_min3(float v, inout float min0, inout float min1, inout float min2)
{
    if (v < min2) {
        if (v < min0) {
            min2 = min1;
            min1 = min0;
            min0 = v;
        } else if (v < min1) {
            min2 = min1;
            min1 = v;
        } else {
            min2 = v;
        }
    }
}

float mask_fn(double delta, double offset, double scaler, double mul)
{
    precise double c = mul / ((scaler * delta) + offset);
    precise double retval = k.global_scale * (1.0lf + c);
    precise double r2 = retval * retval;
    return float(r2);
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= p.w || y >= p.h) return;
    const uint n = p.w * p.h, at = y * p.w + x;
    const uint b0 = p.a[0];
    const uint kStep = 3;
    float min0 = work.v[b0 + at];
    precise float twice = 2.0 * min0;
    float min1 = twice, min2 = twice;
    if (x >= kStep) {
        store_min3(work.v[b0 + at - kStep], min0, min1, min2);
        if (y >= kStep) store_min3(work.v[b0 + at - kStep * p.w - kStep], min0, min1, min2);
        if (y < p.h - kStep) store_min3(work.v[b0 + at + kStep * p.w - kStep], min0, min1, min2);
    }
    if (x < p.w - kStep) {
        store_min3(work.v[b0 + at + kStep], min0, min1, min2);
        if (y >= kStep) store_min3(work.v[b0 + at - kStep * p.w + kStep], min0, min1, min2);
        if (y < p.h - kStep) store_min3(work.v[b0 + at + kStep * p.w + kStep], min0, min1, min2);
    }
    if (y >= kStep) store_min3(work.v[b0 + at - kStep * p.w], min0, min1, min2);
    if (y < p.h - kStep) store_min3(work.v[b0 + at + kStep * p.w], min0, min1, min2);
    precise float val = k.erosion[0] * min0 + k.erosion[1] * min1 + k.erosion[2] * min2;

    precise float diff = work.v[b0 + at] - work.v[b0 + n + at];
    precise float ac1 = work.v[p.a[1] + n + at] + k.mask_to_error * diff * diff;
    const float maskval = mask_fn(double(val), k.mask_y[0], k.mask_y[1], k.mask_y[2]);
    const float dc_maskval = mask_fn(double(val), k.mask_dc_y[0], k.mask_dc_y[1], k.mask_dc_y[2]);
    precise float dc = work.v[p.a[2] + at] * dc_maskval + work.v[p.a[2] + n + at] * dc_maskval +
                       work.v[p.a[2] + 2 * n + at] * dc_maskval;
    precise float acv = work.v[p.a[1] + at] * maskval + ac1 * maskval + work.v[p.a[1] + 2 * n + at] * maskval;
    precise float sum = dc + acv;
    work.v[p.b[0] + at] = sqrt_once(sum);
}
