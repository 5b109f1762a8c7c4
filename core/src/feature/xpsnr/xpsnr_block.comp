// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// XPSNR: what one block of a plane contributes, in integers (the host weighs
// and sums them with xpsnr_tables.h, as the CPU extractor does).
//
// One workgroup per block, at (gl_WorkGroupID.x, gl_WorkGroupID.y) of the
// plane's block grid. Mode 0 (luma): the block's squared error, its spatial
// activity (sum of |high-pass| over its active area) and its temporal activity
// (2 * sum of |difference| to the first input's previous frames, kept per
// sample in `history`, which this dispatch then moves on); three 64-bit words
// per block. Mode 1: the block's squared error alone, one word per block
// (chroma blocks, and whole planes too small to weight).
//
// The activity is that of the first input of FFmpeg's filter (the distorted
// picture), its samples taken as signed 16-bit numbers as the filter holds
// them; samples outside the picture count as 0.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x_id = 0) in;                          // a power of two
layout(constant_id = 1) const uint kBytesPerSample = 1;  // 1: 8-bit input, 2: deeper
layout(constant_id = 2) const int kBVal = 1;             // 2: 2x2 sums (above 2048x1152)
layout(constant_id = 3) const uint kSecondOrder = 0;     // 1: o - 2 o1 + o2

layout(std430, set = 0, binding = 0) readonly buffer Planes { uint words[]; } planes;
layout(std430, set = 0, binding = 1) buffer History { int s[]; } history;  // o1 plane, then o2 plane
layout(std430, set = 0, binding = 2) writeonly buffer Results { uint64_t v[]; } results;

layout(push_constant) uniform Params {
    uint org_word;      // first word of the distorted plane
    uint rec_word;      // first word of the reference plane
    uint org_stride;    // words from row to row
    uint rec_stride;
    uint width;         // the plane's samples
    uint height;
    uint block_w;       // block size in this plane
    uint block_h;
    uint blocks_x;      // blocks across
    uint mode;          // 0: luma with activity, 1: squared error alone
    uint first;         // 1: the first frame (history reads as 0)
    uint out_index;     // where this plane's results start in `results`
} p;

shared uint64_t s_sse[gl_WorkGroupSize.x];
shared uint64_t s_sa[gl_WorkGroupSize.x];
shared uint64_t s_ta[gl_WorkGroupSize.x];

const uint kSamplesPerWord = 4 / kBytesPerSample;

uint sample_at(uint base, uint stride, uint x, uint y)
{
    const uint w = planes.words[base + y * stride + x / kSamplesPerWord];
    const uint shift = (x % kSamplesPerWord) * 8 * kBytesPerSample;
    return (w >> shift) & ((1u << (8 * kBytesPerSample)) - 1u);
}

// The first input's sample at (x, y) as the filter holds it; 0 outside.
int org(int x, int y)
{
    if (x < 0 || y < 0 || x >= int(p.width) || y >= int(p.height)) return 0;
    const uint v = sample_at(p.org_word, p.org_stride, uint(x), uint(y));
    return kBytesPerSample == 1 ? int(v) : (int(v << 16) >> 16);
}

// Moves sample i of the history on to `o`; returns the temporal difference.
int temporal(uint i, int o)
{
    const uint n = p.width * p.height;
    const int o1 = p.first != 0 ? 0 : history.s[i];
    const int o2 = p.first != 0 ? 0 : history.s[n + i];
    history.s[n + i] = o1;
    history.s[i] = o;
    return kSecondOrder != 0 ? o - 2 * o1 + o2 : o - o1;
}

void main()
{
    const uint lane = gl_LocalInvocationID.x;
    const uint x0 = gl_WorkGroupID.x * p.block_w, y0 = gl_WorkGroupID.y * p.block_h;
    const uint bw = min(p.block_w, p.width - x0), bh = min(p.block_h, p.height - y0);
    const uint blk = gl_WorkGroupID.y * p.blocks_x + gl_WorkGroupID.x;

    uint64_t sse = 0;
    for (uint i = lane; i < bw * bh; i += gl_WorkGroupSize.x) {
        const uint x = x0 + i % bw, y = y0 + i / bw;
        const int e = int(sample_at(p.org_word, p.org_stride, x, y)) - int(sample_at(p.rec_word, p.rec_stride, x, y));
        sse += uint64_t(uint(e * e));
    }

    uint64_t sa = 0, ta = 0;
    // The active area, relative to the block: b_val samples in from the picture's edges.
    const int ax0 = x0 > 0 ? 0 : kBVal, ay0 = y0 > 0 ? 0 : kBVal;
    const int ax1 = x0 + bw < p.width ? int(bw) : int(bw) - kBVal;
    const int ay1 = y0 + bh < p.height ? int(bh) : int(bh) - kBVal;
    const bool measured = p.mode == 0 && ax1 > ax0 && ay1 > ay0;  // uniform over the workgroup
    if (measured && kBVal == 1) {
        const uint aw = uint(ax1 - ax0), ah = uint(ay1 - ay0);
        for (uint i = lane; i < aw * ah; i += gl_WorkGroupSize.x) {
            const int x = int(x0) + ax0 + int(i % aw), y = int(y0) + ay0 + int(i / aw);
            const int f = 12 * org(x, y) - 2 * (org(x - 1, y) + org(x + 1, y) + org(x, y - 1) + org(x, y + 1)) -
                          (org(x - 1, y - 1) + org(x + 1, y - 1) + org(x - 1, y + 1) + org(x + 1, y + 1));
            sa += uint64_t(uint(abs(f)));
        }
        for (uint i = lane; i < bw * bh; i += gl_WorkGroupSize.x) {
            const uint x = x0 + i % bw, y = y0 + i / bw;
            const int o = org(int(x), int(y));
            ta += 2ul * uint64_t(uint(abs(temporal(y * p.width + x, o))));
        }
    } else if (measured) {
        if (ax1 > 12) {  // the filter measures no spatial activity in narrower areas
            const uint cw = uint(ax1 - ax0 + 1) / 2, ch = uint(ay1 - ay0 + 1) / 2;
            for (uint i = lane; i < cw * ch; i += gl_WorkGroupSize.x) {
                const int x = int(x0) + ax0 + 2 * int(i % cw), y = int(y0) + ay0 + 2 * int(i / cw);
                const int f = 12 * (org(x, y) + org(x + 1, y) + org(x, y + 1) + org(x + 1, y + 1)) -
                              3 * (org(x, y - 1) + org(x + 1, y - 1) + org(x, y + 2) + org(x + 1, y + 2)) -
                              3 * (org(x - 1, y) + org(x + 2, y) + org(x - 1, y + 1) + org(x + 2, y + 1)) -
                              2 * (org(x - 1, y - 1) + org(x + 2, y - 1) + org(x - 1, y + 2) + org(x + 2, y + 2)) -
                              (org(x - 1, y - 2) + org(x, y - 2) + org(x + 1, y - 2) + org(x + 2, y - 2) +
                               org(x - 1, y + 3) + org(x, y + 3) + org(x + 1, y + 3) + org(x + 2, y + 3) +
                               org(x - 2, y - 1) + org(x - 2, y) + org(x - 2, y + 1) + org(x - 2, y + 2) +
                               org(x + 3, y - 1) + org(x + 3, y) + org(x + 3, y + 1) + org(x + 3, y + 2));
                sa += uint64_t(uint(abs(f)));
            }
        }
        const uint cw = (bw + 1) / 2, ch = (bh + 1) / 2;
        for (uint i = lane; i < cw * ch; i += gl_WorkGroupSize.x) {
            const uint cx = x0 + 2 * (i % cw), cy = y0 + 2 * (i / cw);
            int t = 0;
            for (uint dy = 0; dy < 2; dy++)
                for (uint dx = 0; dx < 2; dx++) {
                    const uint x = cx + dx, y = cy + dy;
                    if (x < p.width && y < p.height) t += temporal(y * p.width + x, org(int(x), int(y)));
                }
            ta += uint64_t(uint(abs(t)));
        }
        ta *= 2ul;
    }

    s_sse[lane] = sse;
    s_sa[lane] = sa;
    s_ta[lane] = ta;
    barrier();
    for (uint half_ = gl_WorkGroupSize.x / 2; half_ > 0; half_ /= 2) {
        if (lane < half_) {
            s_sse[lane] += s_sse[lane + half_];
            s_sa[lane] += s_sa[lane + half_];
            s_ta[lane] += s_ta[lane + half_];
        }
        barrier();
    }
    if (lane == 0) {
        if (p.mode == 0) {
            results.v[p.out_index + 3 * blk] = s_sse[0];
            results.v[p.out_index + 3 * blk + 1] = s_sa[0];
            results.v[p.out_index + 3 * blk + 2] = s_ta[0];
        } else {
            results.v[p.out_index + blk] = s_sse[0];
        }
    }
}
