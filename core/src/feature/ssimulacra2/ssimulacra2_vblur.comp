// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// ssimulacra2: the recursive Gaussian down the columns of the five planes of
// one channel of `temp` (mu1, mu2, sigma11, sigma22, sigma12 before the column
// blur: planes c, 3 + c, 6 + c, 9 + c, 12 + c), at every scale (one grid for
// all the scales, each scale's workgroups after the one before), then the SSIM
// and edge-difference maps' terms of each pixel, which the blurred values give
// at once, without storing them (the pixel's XYB from the frame's copy of the
// XYB planes, which the next frame's rgb does not write). The recursion: y_n =
// n2 s - d1 y_{n-1} - y_{n-2} for each of the three terms, s the sum of the
// rows N + 1 up and N - 1 down (zero outside), as ssimulacra2_kernels_tmpl.h's
// blur_column_step; the maps' terms as its ssim_terms and edge_terms. A
// workgroup takes 8 columns of one channel (gl_WorkGroupID.y): small
// workgroups, many to a multiprocessor, so that one's meeting overlaps
// another's recursions. Each of the 15 recursions of a column (5 planes, 3
// terms) runs in an invocation of its own (invocation / 8 = plane * 3 + term),
// its inputs loaded kBatch rows at a time, a batch ahead. Every kBatch
// rows the recursions meet in shared memory: invocation j * 8 + x adds each
// plane's three terms at row j of the batch, column x (o0 + (o1 + o2), the
// CPU's order), and adds the pixel's terms in double to its six sums (in
// shared memory, which spares each invocation twelve registers). At the
// end each column's eight sums (rows j, j + 8, ... for j = 0 to 7) are added
// in the order of j, and the six totals of column x of channel c are written
// as doubles at result (k.sum_base[scale] + x) * 18 + c * 6: SSIM d and d^4,
// artifact and its 4th power, detail lost and its 4th power. The host adds the
// columns in order.
#extension GL_EXT_control_flow_attributes : require
#include "ssimulacra2_common.glsl"

const uint kColumns = 8;  // columns of a workgroup (ssimulacra2_vk.cpp's kBlurColumns)
const uint kPlanes = 5;
const uint kTerms = 3;
const int kBatch = 8;      // rows between the recursions' meetings
const uint kMappers = uint(kBatch) * kColumns;  // invocations adding the maps' terms
layout(local_size_x = 120) in;  // kColumns * kPlanes * kTerms

layout(std430, set = 0, binding = 1) restrict readonly buffer Temp { float v[]; } temp;
layout(std430, set = 0, binding = 2) restrict readonly buffer Xyb { float v[]; } xyb;  // the frame's copy
layout(std430, set = 0, binding = 3) restrict writeonly buffer Results { double v[]; } results;

// Recursion r's output of row j of the batch, column x, at (r * kBatch + j) * kColumns + x.
shared float part[kPlanes * kTerms * uint(kBatch) * kColumns];
shared double sums[6 * kMappers];

// The three terms of plane m's output at row j, column x of the batch.
float blurred_at(uint m, uint j, uint x)
{
    const uint r = m * kTerms;
    precise float v = part[(r * uint(kBatch) + j) * kColumns + x] +
                      (part[((r + 1) * uint(kBatch) + j) * kColumns + x] +
                       part[((r + 2) * uint(kBatch) + j) * kColumns + x]);
    return v;
}

// What the batch of steps n0 to n0 + kBatch - 1 reads, read a batch ahead
// (main()): the rows N + 1 up and N - 1 down of each step from the plane at
// `base` (0 where a row is outside the plane, or for an invocation past the
// last column; those are not added); and (read_pixel()) a mapper's pixel of
// row n of channel c's two XYB planes, its column at `at` (0 outside).
void read_batch(int n0, uint base, bool mine, out float top[kBatch], out float bottom[kBatch])
{
    const int N = k.radius, ysize = int(s_h);
    [[unroll]] for (int j = 0; j < kBatch; j++) {
        const int t = n0 + j - N - 1, bo = n0 + j + N - 1;
        top[j] = mine && t >= 0 && t < ysize ? temp.v[base + uint(t) * s_w] : 0.0;
        bottom[j] = mine && bo < ysize ? temp.v[base + uint(bo) * s_w] : 0.0;
    }
}

void read_pixel(int n, bool mapper, uint at, uint c, uint P, out float img1, out float img2)
{
    img1 = 0.0;
    img2 = 0.0;
    if (mapper && n >= 0 && n < int(s_h)) {
        const uint i = at + uint(n) * s_w;
        img1 = xyb.v[c * P + i];
        img2 = xyb.v[(3 + c) * P + i];
    }
}

void main()
{
    const uint lid = gl_LocalInvocationID.x, col = lid % kColumns, rec = lid / kColumns;
    const uint m = rec / kTerms, term = rec % kTerms, c = gl_WorkGroupID.y;
    const uint group = p.group_base + gl_WorkGroupID.x, s = scale_of(group, false);
    use_scale(s);
    const uint x = (group - k.column_groups[s]) * kColumns + col, P = scratch_plane();
    // Invocations past the last column keep to the barriers and store nothing.
    const bool mine = x < s_w;
    const uint base = s_at + (m * 3 + c) * P + (mine ? x : 0u);
    const int N = k.radius, ysize = int(s_h);
    const float n2 = k.n2[term], neg_d1 = -k.d1[term];
    precise float a = 0.0, b = 0.0;
    if (lid < kMappers)
        for (uint q = 0; q < 6; q++) sums[q * kMappers + lid] = 0.0lf;
    // Each batch's inputs (read_batch(), read_pixel()) are read during the
    // batch before (and the first batch's before the loop), so that the
    // reads are under way while the recursions and the maps' terms use the
    // values read before them.
    float top[kBatch], bottom[kBatch], img1, img2;
    const bool mapper = lid < kMappers && mine;
    const uint xyb_base = k.xyb_at[s] + x;
    read_batch(-N + 1, base, mine, top, bottom);
    read_pixel(-N + 1 + int(rec), mapper, xyb_base, c, P, img1, img2);
    for (int n0 = -N + 1; n0 < ysize; n0 += kBatch) {
        const int n1 = n0 + kBatch;  // the next batch's first step
        float next_top[kBatch], next_bottom[kBatch], next_img1, next_img2;
        read_batch(n1, base, mine, next_top, next_bottom);
        read_pixel(n1 + int(rec), mapper, xyb_base, c, P, next_img1, next_img2);
        for (int j = 0; j < kBatch; j++) {
            const int n = n0 + j;
            if (n >= ysize) break;
            const int t = n - N - 1, bo = n + N - 1;
            precise float s = 0.0;
            if (bo < ysize) s = bottom[j];
            if (t >= 0) s = top[j] + s;
            precise float y = madd(n2, s, madd(neg_d1, a, -b));
            b = a;
            a = y;
            part[(rec * uint(kBatch) + uint(j)) * kColumns + col] = y;
        }
        barrier();
        const int n = n0 + int(rec);  // a mapper's row (rec < kBatch)
        if (mapper && n >= 0 && n < ysize) {
            const float mu1 = blurred_at(0, rec, col), mu2 = blurred_at(1, rec, col);
            const float s11 = blurred_at(2, rec, col), s22 = blurred_at(3, rec, col);
            const float s12 = blurred_at(4, rec, col);
            precise float mu11 = mu1 * mu1, mu22 = mu2 * mu2, mu12 = mu1 * mu2;
            precise float dm = mu1 - mu2;
            precise float dm2 = dm * dm;
            precise float num_m = float(1.0lf - double(dm2));
            precise float num_s = 2.0 * (s12 - mu12) + k.c2;
            precise float denom_s = (s11 - mu11) + (s22 - mu22) + k.c2;
            precise float nm = num_m * num_s;
            precise float q = div_once(nm, denom_s);
            precise double v = 1.0lf - double(q);
            v = max(v, 0.0lf);
            sums[0 * kMappers + lid] += v;
            v *= v;
            v *= v;
            sums[1 * kMappers + lid] += v;

            precise float e2 = abs(img2 - mu2), e1 = abs(img1 - mu1);
            precise double d1 = (1.0lf + double(e2)) / (1.0lf + double(e1)) - 1.0lf;
            precise double ar = max(d1, 0.0lf);
            sums[2 * kMappers + lid] += ar;
            ar *= ar;
            ar *= ar;
            sums[3 * kMappers + lid] += ar;
            precise double l = max(-d1, 0.0lf);
            sums[4 * kMappers + lid] += l;
            l *= l;
            l *= l;
            sums[5 * kMappers + lid] += l;
        }
        barrier();
        top = next_top;
        bottom = next_bottom;
        img1 = next_img1;
        img2 = next_img2;
    }
    barrier();
    if (lid >= kColumns || !mine) return;
    const uint at = p.out_word + (k.sum_base[s] + x) * 18 + c * 6;
    for (uint q = 0; q < 6; q++) {
        precise double t = sums[q * kMappers + col];
        for (uint j = 1; j < uint(kBatch); j++) t += sums[q * kMappers + j * kColumns + col];
        results.v[at + q] = t;
    }
}
