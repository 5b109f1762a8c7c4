// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// SSIM's per-pixel terms over one pair of planes and their sums (ssim_engine.cpp's
// Engine::ssim with ssim_kernel.h's window_sum, window_sum_product, column_sum
// and pixel_terms, operation for operation): the 11x11 Gaussian window applied
// separably where it lies wholly inside the plane.
//
// A workgroup walks down `tiles` tiles of kTW x kTH outputs (narrow and tall,
// so that the horizontal pass redoes few rows and the shared memory stays
// small): it loads the tile's inputs with their window margins into shared
// memory, does the horizontal pass (five planes of window sums) into shared
// memory, then each thread the vertical pass and the terms of two outputs,
// adding l c s, l, c and s into its own double sums. At the end a fixed tree
// adds the threads' sums (all four at once) and the workgroup writes four
// doubles, into the results (the host adds the workgroups' in order) or into
// the partials for ssim_sum.comp.
#include "ssim_common.glsl"

const int kThreads = kSsimTermsThreads;
const int kTW = kSsimTileW, kTH = kSsimTileH;
const int kIW = kTW + kSsimWindow - 1, kIH = kTH + kSsimWindow - 1;

layout(local_size_x = kThreads) in;

layout(push_constant) uniform Params {
    uint in_ref, in_dist, in_stride;  // samples (raw) or floats (scratch)
    int width, height;                // the plane's
    int out_w, out_h;                 // width - 10, height - 10
    uint tiles;                       // tiles per workgroup, down a column
    uint partial_index;               // where the workgroups' sums start (doubles)
    uint to_partials;                 // 1: in the partials buffer, 0: in the results
} p;

// The input tiles (reference, then distorted) as float bits; after the last
// tile, the reduction's tree (four doubles a thread, ssim_vk.cpp checks that
// they fit).
const int kInTile = kIH * kIW;
shared uint in_bits[2 * kInTile];
shared float hsum[5][kIH * kTW];

double tree_get(uint i)
{
    return packDouble2x32(uvec2(in_bits[2u * i], in_bits[2u * i + 1u]));
}

void tree_set(uint i, double v)
{
    const uvec2 w = unpackDouble2x32(v);
    in_bits[2u * i] = w.x;
    in_bits[2u * i + 1u] = w.y;
}

// The four sums of all threads, each by the same fixed tree. Called after a
// barrier that ends all use of the input tiles.
dvec4 reduce(dvec4 v, uint tid)
{
    for (uint k = 0u; k < 4u; k++) tree_set(4u * tid + k, v[k]);
    barrier();
    for (uint half_ = uint(kThreads) / 2u; half_ > 0u; half_ /= 2u) {
        if (tid < half_)
            for (uint k = 0u; k < 4u; k++) {
                precise double s = tree_get(4u * tid + k) + tree_get(4u * (tid + half_) + k);
                tree_set(4u * tid + k, s);
            }
        barrier();
    }
    return dvec4(tree_get(0u), tree_get(1u), tree_get(2u), tree_get(3u));
}

void main()
{
    const uint tid = gl_LocalInvocationIndex;
    const float c1 = uintBitsToFloat(kSsimC1Bits), c2 = uintBitsToFloat(kSsimC2Bits),
                c3 = uintBitsToFloat(kSsimC3Bits);
    precise double acc_lcs = 0.0, acc_l = 0.0, acc_c = 0.0, acc_s = 0.0;
    const int x0 = int(gl_WorkGroupID.x) * kTW;

    for (uint t = 0u; t < p.tiles; t++) {
        const int y0 = (int(gl_WorkGroupID.y * p.tiles + t)) * kTH;
        if (y0 >= p.out_h) break;  // uniform across the workgroup

        for (uint i = tid; i < uint(kIH * kIW); i += uint(kThreads)) {
            const int r = int(i) / kIW, c = int(i) - r * kIW;
            // Positions past the plane only feed outputs that are not counted.
            const uint y = uint(min(y0 + r, p.height - 1)), x = uint(min(x0 + c, p.width - 1));
            const uint at = y * p.in_stride + x;
            in_bits[i] = floatBitsToUint(load_sample(p.in_ref + at));
            in_bits[kInTile + int(i)] = floatBitsToUint(load_sample(p.in_dist + at));
        }
        barrier();

        // Horizontal pass: the window sums of ref, dist, ref^2, dist^2 and
        // ref dist along each input row.
        for (uint i = tid; i < uint(kIH * kTW); i += uint(kThreads)) {
            const int r = int(i) / kTW, c = int(i) - r * kTW;
            const int at = r * kIW + c;
            precise double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;
            for (int k = 0; k < kSsimWindow; k++) {
                const float tap = gauss_tap(k);
                const float a = uintBitsToFloat(in_bits[at + k]), b = uintBitsToFloat(in_bits[kInTile + at + k]);
                precise float p0 = a * tap;
                precise float p1 = b * tap;
                precise float aa = a * a;
                precise float bb = b * b;
                precise float ab = a * b;
                precise float p2 = aa * tap;
                precise float p3 = bb * tap;
                precise float p4 = ab * tap;
                s0 += to_double_bits(p0);  // exact, as double(p0)
                s1 += to_double_bits(p1);
                s2 += double(p2);
                s3 += double(p3);
                s4 += double(p4);
            }
            hsum[0][i] = to_float(s0);
            hsum[1][i] = to_float(s1);
            hsum[2][i] = to_float(s2);
            hsum[3][i] = to_float(s3);
            hsum[4][i] = to_float(s4);
        }
        barrier();

        // Vertical pass and the terms: outputs tid, tid + kThreads, ... of the tile.
        for (uint j = tid; j < uint(kTW * kTH); j += uint(kThreads)) {
            const int r = int(j) / kTW, c = int(j) - r * kTW;
            if (x0 + c >= p.out_w || y0 + r >= p.out_h) continue;
            float m[5];
            for (int q = 0; q < 5; q++) {
                precise double s = 0.0;
                for (int k = 0; k < kSsimWindow; k++) {
                    precise float pr = hsum[q][(r + k) * kTW + c] * gauss_tap(k);
                    s += double(pr);
                }
                m[q] = to_float(s);
            }
            const float mu1 = m[0], mu2 = m[1];
            precise float mu11 = mu1 * mu1;
            precise float mu22 = mu2 * mu2;
            precise float mu12 = mu1 * mu2;
            precise float var1 = m[2] - mu11;
            precise float var2 = m[3] - mu22;
            precise float cov = m[4] - mu12;
            var1 = 0.0 > var1 ? 0.0 : var1;
            var2 = 0.0 > var2 ? 0.0 : var2;
            precise float vv = var1 * var2;
            const float sigma12 = sqrt_rn(vv);
            precise float l_den = (mu11 + mu22) + c1;
            precise float c_den = (var1 + var2) + c2;
            precise double l_num = 2.0 * double(mu1) * double(mu2) + double(c1);
            precise double c_num = 2.0 * double(sigma12) + double(c2);
            const double l = div_rn_d(l_num, double(l_den));
            const double cc = div_rn_d(c_num, double(c_den));
            const float cov_c = (cov < 0.0 && sigma12 <= 0.0) ? 0.0 : cov;
            precise float s_num = cov_c + c3;
            precise float s_den = sigma12 + c3;
            const double s = double(div_rn(s_num, s_den));
            precise double lcs = l * cc * s;
            acc_lcs += lcs;
            acc_l += l;
            acc_c += cc;
            acc_s += s;
        }
        barrier();
    }

    const dvec4 t = reduce(dvec4(acc_lcs, acc_l, acc_c, acc_s), tid);
    const double t0 = t.x, t1 = t.y, t2 = t.z, t3 = t.w;
    if (tid == 0u) {
        const uint at = p.partial_index + 4u * (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
        if (p.to_partials != 0u) {
            partials.v[at] = t0;
            partials.v[at + 1u] = t1;
            partials.v[at + 2u] = t2;
            partials.v[at + 3u] = t3;
        } else {
            results.v[at] = t0;
            results.v[at + 1u] = t1;
            results.v[at + 2u] = t2;
            results.v[at + 3u] = t3;
        }
    }
}
