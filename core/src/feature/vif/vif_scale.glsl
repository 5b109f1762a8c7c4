// SPDX-License-Identifier: BSD-2-Clause-Patent
// One scale of integer VIF (the twin of vif_cpu.cpp's statistic() and halve()),
// included by vif_scale0..3.comp, each of which defines VIF_SCALE so that the
// window, the tile and every loop are compile-time constants (fully unrolled,
// taps folded into immediates).
//
// A workgroup owns a tile of kTW x kTH pixels of this scale (64x16 with 256
// threads at scales 0 and 1, 32x8 with 64 threads at 2 and 3: vif_gpu_layout.h):
//
//   1. load the tile and its mirrored halo, reference and distorted packed in
//      one 32-bit word per sample (both are at most 16 bits); tiles away from
//      the picture's edges are read in whole words;
//   2. vertical window sums, four rows per thread so each loaded sample serves
//      four outputs: the means and the three second moments, shifted as the CPU
//      does, into shared memory; meanwhile, when there is a next scale, the
//      vertical pass of the halving filter at even rows;
//   3. horizontal window sums, four adjacent pixels per thread from 128-bit
//      shared loads; the local variances and covariance, and the cheap
//      per-pixel terms (below the noise floor, and the denominator's log2);
//      the halving filter's horizontal pass at even columns writes the next
//      scale's 16-bit samples;
//   4. pixels that need the gain (most of them, in textured areas) go to a
//      queue in shared memory, which all threads then drain together, so the
//      long integer arithmetic of vif_gain.glsl runs without divergence; at
//      scale 0 with the double gain step, each thread computes its own pixels'
//      gain instead (kGainQueue);
//   5. the workgroup's integer sums go to its slot of the partials buffer; the
//      host adds the slots (vif_vk.cpp) and finishes with the CPU's code.
//
// One dispatch serves kLimits gain limits (vif_enhn_gain_limit; up to
// kVifMaxLimits): the limit enters only at the end of a pixel's gain step, so
// everything up to the gain g and numer1 is computed once, and each limit adds
// its own Σ log2(numer2) - log2(numer1), the only sum that depends on it
// (vif_gpu_layout.h's parts()).
//
// Every value is an integer, every sum exact: the result does not depend on
// how pixels are split among threads and workgroups.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_control_flow_attributes : require

#include "vif_tables.glsl"
#include "vif_gain.glsl"

// Bytes per input sample at this scale (1 only for 8-bit input at scale 0),
// and the vertical pass's rounding shifts (vif::mean_shift, vif::moment_shift).
layout(constant_id = 0) const uint kSampleBytes = 1;
layout(constant_id = 1) const uint kMeanShift = 8;
layout(constant_id = 2) const uint kMomentShift = 0;
// How many gain limits (push constants) this dispatch serves, 1..kVifMaxLimits.
layout(constant_id = 3) const uint kLimits = 1;

const int kW = kVifFilterWidth[VIF_SCALE];
const int kH = kW / 2;
const int kTapsAt = VIF_SCALE * kVifMaxFilterWidth;
// The halving filter into the next scale (the next scale's window).
const bool kHalve = VIF_SCALE + 1 < kVifScales;
const int kNextScale = kHalve ? VIF_SCALE + 1 : VIF_SCALE;
const int kHW = kVifFilterWidth[kNextScale];
const int kHH = kHW / 2;
const int kHalveTapsAt = kNextScale * kVifMaxFilterWidth;

// The tile, kPixelsPerThread per thread in the horizontal pass. Columns carry
// a halo rounded up to whole 16-byte vectors.
const int kTW = int(kVifTileW[VIF_SCALE]), kTH = int(kVifTileH[VIF_SCALE]);
const int kPixelsPerThread = int(kVifPixelsPerThread);
const int kThreads = kTW * kTH / kPixelsPerThread;
const int kHA = (kH + 3) / 4 * 4;
const int kTileRows = kTH + 2 * kH;
const int kTileCols = kTW + 2 * kHA;
const int kVecs = kTileCols / 4;
const int kRowsPerItem = 4;  // vertical pass: output rows per thread and column
const int kThreadsPerRow = kTW / kPixelsPerThread;

layout(std430, set = 0, binding = 0) readonly buffer Planes8 { uint8_t v[]; } planes8;
layout(std430, set = 0, binding = 0) readonly buffer Planes16 { uint16_t v[]; } planes16;
layout(std430, set = 0, binding = 0) readonly buffer Planes32 { uint v[]; } planes32;
// Scales 1-3, reference and distorted, 16-bit samples.
layout(std430, set = 0, binding = 1) buffer Scales { uint16_t v[]; } scales;
layout(std430, set = 0, binding = 1) readonly buffer ScaleWords { uint v[]; } scale_words;
layout(std430, set = 0, binding = 2) readonly buffer Log2 { uint16_t v[]; } log2_table;
layout(std430, set = 0, binding = 3) writeonly buffer Partials { uint v[]; } partials;

layout(push_constant) uniform Params {
    uint in_ref, in_dist, in_stride;  // samples (binding 0 at scale 0, else 1)
    uint width, height;               // of this scale
    uint out_ref, out_dist, out_stride;  // the next scale in binding 1, samples
    uint partial_index;               // this scale's first partial in `partials`
    uint stats;                       // 0: only halve (vif_skip_scale0)
    // Gain limit k < kLimits (vif_enhn_gain_limit) = limit_{hi,lo}[k] * 2^limit_exp[k]
    uint limit_lo[kVifMaxLimits], limit_hi[kVifMaxLimits];
    int limit_exp[kVifMaxLimits];
} p;

layout(local_size_x = kThreads) in;
// The halving pass writes one sample per thread: (kTW / 2) x (kTH / 2) of them.
const int kParts = int(kVifParts);
// The sums each workgroup writes: kParts, and one Σ log2 per further limit.
const uint kGroupParts = kVifParts + kLimits - 1u;

// Packed samples (ref | dist << 16) with their halo; then, once the vertical
// passes are done, the halving filter's vertical sums (kTH / 2 rows).
shared uint tile[kTileRows * kTileCols];
// Vertical sums: [quantity][row][column] with quantities packed means
// (mu1 | mu2 << 16), xx, yy, xy. Then the queue of pixels that need the gain.
const int kQuantities = 4;
shared uvec4 vsum[kQuantities * kTH * kVecs];
shared uint queue_len;
shared uint wg_sums[kParts + int(kVifMaxLimits) - 1];

int mirror(int i, int n)
{
    // Whole-sample mirror (-1 -> 1, n -> n - 2), then a clamp that only
    // matters for samples no valid output reads.
    const int m = i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i);
    return clamp(m, 0, n - 1);
}

uint input_sample(uint at)
{
    if (VIF_SCALE == 0) return kSampleBytes == 1u ? uint(planes8.v[at]) : uint(planes16.v[at]);
    return uint(scales.v[at]);
}

void load_tile(ivec2 origin, uint tid)
{
    const int w = int(p.width), h = int(p.height);
    for (int e = int(tid); e < kTileRows * kTileCols; e += kThreads) {
        const int r = e / kTileCols, c = e - r * kTileCols;
        const uint at = uint(mirror(origin.y + r, h)) * p.in_stride + uint(mirror(origin.x + c, w));
        tile[e] = input_sample(p.in_ref + at) | (input_sample(p.in_dist + at) << 16);
    }
}

// The same for a tile whose halo needs no mirror: whole words of both
// pictures, four 8-bit or two 16-bit samples each, where the planes and rows
// start on words (kHA is a multiple of 4, so the tile's columns then do too).
const uint kWordSamples = VIF_SCALE == 0 ? 4u / kSampleBytes : 2u;
const uint kWordBits = 32u / kWordSamples;

bool words_inside(ivec2 origin)
{
    return (p.in_ref | p.in_dist | p.in_stride) % kWordSamples == 0u && origin.x >= 0 && origin.y >= 0 &&
           origin.x + kTileCols <= int(p.width) && origin.y + kTileRows <= int(p.height);
}

uint input_word(uint at) { return VIF_SCALE == 0 ? planes32.v[at] : scale_words.v[at]; }

void load_tile_words(ivec2 origin, uint tid)
{
    const int kWords = kTileCols / int(kWordSamples);
    for (int e = int(tid); e < kTileRows * kWords; e += kThreads) {
        const int r = e / kWords, word = e - r * kWords;
        const uint at = (uint(origin.y + r) * p.in_stride + uint(origin.x)) / kWordSamples + uint(word);
        const uint a = input_word(p.in_ref / kWordSamples + at), b = input_word(p.in_dist / kWordSamples + at);
        [[unroll]] for (int k = 0; k < int(kWordSamples); k++) {
            const int bit = int(kWordBits) * k;
            tile[r * kTileCols + int(kWordSamples) * word + k] =
                bitfieldExtract(a, bit, int(kWordBits)) | (bitfieldExtract(b, bit, int(kWordBits)) << 16);
        }
    }
}

uint tap(int k) { return kVifFilter[kTapsAt + k]; }
uint halve_tap(int k) { return kVifFilter[kHalveTapsAt + k]; }
uint rounding(uint shift) { return shift == 0u ? 0u : 1u << (shift - 1u); }

void store_vsum(int quantity, int row, int col, uint v)
{
    const int i = (quantity * kTH + row) * kTileCols + col;
    vsum[i >> 2][i & 3] = v;
}

// Vertical window sums of one tile column, rows r0 .. r0 + kRowsPerItem - 1.
void vertical_stats(int col, int r0)
{
    uint m1[kRowsPerItem], m2[kRowsPerItem];
    uint xx32[kRowsPerItem], yy32[kRowsPerItem], xy32[kRowsPerItem];
    uint64_t xx64[kRowsPerItem], yy64[kRowsPerItem], xy64[kRowsPerItem];
    [[unroll]] for (int o = 0; o < kRowsPerItem; o++) {
        m1[o] = m2[o] = xx32[o] = yy32[o] = xy32[o] = 0u;
        xx64[o] = yy64[o] = xy64[o] = 0ul;
    }
    // 8-bit samples square into 16 bits: 32-bit window sums are exact. Deeper
    // samples square into 32 bits and sum into 48.
    const bool narrow = kMomentShift == 0u;
    [[unroll]] for (int j = 0; j < kRowsPerItem + 2 * kH; j++) {
        const uint s = tile[(r0 + j) * kTileCols + col];
        const uint x = s & 0xffffu, y = s >> 16;
        const uint xx = x * x, yy = y * y, xy = x * y;
        [[unroll]] for (int o = 0; o < kRowsPerItem; o++) {
            const int k = j - o;
            if (k < 0 || k >= kW) continue;
            const uint f = tap(k);
            m1[o] += f * x;
            m2[o] += f * y;
            if (narrow) {
                xx32[o] += f * xx;
                yy32[o] += f * yy;
                xy32[o] += f * xy;
            } else {
                xx64[o] += uint64_t(f) * uint64_t(xx);
                yy64[o] += uint64_t(f) * uint64_t(yy);
                xy64[o] += uint64_t(f) * uint64_t(xy);
            }
        }
    }
    const uint mr = rounding(kMeanShift);
    const uint64_t sr = uint64_t(rounding(kMomentShift));
    [[unroll]] for (int o = 0; o < kRowsPerItem; o++) {
        const int row = r0 + o;
        store_vsum(0, row, col, ((m1[o] + mr) >> kMeanShift) | (((m2[o] + mr) >> kMeanShift) << 16));
        store_vsum(1, row, col, narrow ? xx32[o] : uint((xx64[o] + sr) >> kMomentShift));
        store_vsum(2, row, col, narrow ? yy32[o] : uint((yy64[o] + sr) >> kMomentShift));
        store_vsum(3, row, col, narrow ? xy32[o] : uint((xy64[o] + sr) >> kMomentShift));
    }
}

// The halving filter's vertical pass at tile row 2 * i (packed, 16-bit each).
uint vertical_halve(int i, int col)
{
    uint a = 0u, b = 0u;
    [[unroll]] for (int k = 0; k < kHW; k++) {
        const uint s = tile[(2 * i + kH - kHH + k) * kTileCols + col];
        a += halve_tap(k) * (s & 0xffffu);
        b += halve_tap(k) * (s >> 16);
    }
    const uint r = rounding(kMeanShift);
    return ((a + r) >> kMeanShift) | (((b + r) >> kMeanShift) << 16);
}

// (a * b + 2^31) >> 32.
uint mul_q32(uint a, uint b)
{
    uint hi, lo;
    umulExtended(a, b, hi, lo);
    return hi + (lo >> 31);
}

uint log2_q11(uint64_t v)
{
    const int k = vif_msb64(v) - 15;
    return uint(log2_table.v[uint(v >> k) - kVifLog2First]) + kVifLog2One * uint(k);
}

// The double σ1² + eps (vif::gain_eps_ulps).
VifDouble gain_divisor(uint s1)
{
    const int b = findMSB(s1);
    return VifDouble((uint64_t(s1) << (52 - b)) + uint64_t(kVifGainEpsUlps[b - kVifGainEpsFirstBit]), b - 52);
}

// The gain step's values: integers throughout (VifDouble), or doubles after
// the division (VIF_GAIN_FP64); vif_gain.glsl.
#ifdef VIF_GAIN_FP64
#define Gain double
#define GainBase VifGainBaseF64
#define gain_of vif_to_double
#define gain_base vif_gain_base_f64
#define capped vif_capped_f64
#define numer2 vif_numer2_f64
bool same_gain(double a, double b) { return a == b; }
#else
#define Gain VifDouble
#define GainBase VifGainBase
#define gain_of(v) (v)
#define gain_base vif_gain_base
#define capped vif_capped
#define numer2 vif_numer2
bool same_gain(VifDouble a, VifDouble b) { return a.m == b.m && a.e == b.e; }
#endif

// One pixel's gain step (s1 >= σn², s2 > 0, s12 > 0): its log2(numer2) -
// log2(numer1) for each limit, added to num_log.
void gain_terms(uint s1, uint s2, uint s12, Gain limit[kVifMaxLimits], inout uint num_log[kVifMaxLimits])
{
    const GainBase b = gain_base(s2, s12, gain_divisor(s1));
    const uint log_numer1 = log2_q11(uint64_t(b.numer1));
    Gain gc = capped(b.g, limit[0]);
    uint term = log2_q11(numer2(gc, s1, b.numer1)) - log_numer1;
    num_log[0] += term;
    [[unroll]] for (int k = 1; k < int(kVifMaxLimits); k++) {
        if (uint(k) >= kLimits) break;
        // The same capped gain (neither limit caps it, or equal limits),
        // the same term.
        const Gain ck = capped(b.g, limit[k]);
        if (!same_gain(ck, gc)) {
            gc = ck;
            term = log2_q11(numer2(gc, s1, b.numer1)) - log_numer1;
        }
        num_log[k] += term;
    }
}

// Whether pixels that need the gain go through the queue (step 4). With the
// double gain step, scale 0, where most of a frame's pixels are and most of
// them need the gain, does better computing it where the pixel is: the queue's
// atomics, stores and barriers cost more there than the divergence it saves
// (docs/performance.md). The integer step, several times longer, keeps it.
#ifdef VIF_GAIN_FP64
const bool kGainQueue = VIF_SCALE > 0;
#else
const bool kGainQueue = true;
#endif

// The horizontal pass reads kNV vectors of a vertical-sum row: the windows of
// a thread's four adjacent pixels.
const int kNV = (2 * kHA + kPixelsPerThread) / 4;

// Horizontal window sums of the low and high 16-bit halves of the values
// around output o (tile column x0 + o + kHA). Mirrored taps are folded: one
// multiply per pair, the add on the other integer pipe. Partial sums may wrap;
// the true sums fit 32 bits, so the results are exact.
uvec2 window_halves(uint v[kNV * 4], int o)
{
    const int c = o + kHA;
    uint lo = tap(kH) * (v[c] & 0xffffu), hi = tap(kH) * (v[c] >> 16);
    [[unroll]] for (int k = 0; k < kH; k++) {
        const uint a = v[c - kH + k], b = v[c + kH - k];
        lo += tap(k) * ((a & 0xffffu) + (b & 0xffffu));
        hi += tap(k) * ((a >> 16) + (b >> 16));
    }
    return uvec2(lo, hi);
}

void main()
{
    const uint tid = gl_LocalInvocationID.x;
    const ivec2 at = ivec2(gl_WorkGroupID.xy) * ivec2(kTW, kTH);
    if (tid < kGroupParts) wg_sums[tid] = 0u;
    if (kGainQueue && tid == 0u) queue_len = 0u;
    const ivec2 origin = at - ivec2(kHA, kH);  // the tile's first sample, halo included
    if (words_inside(origin)) load_tile_words(origin, tid);
    else load_tile(origin, tid);
    barrier();

    const bool stats = p.stats != 0u;
    if (stats) {
        const int items = kTileCols * (kTH / kRowsPerItem);
        for (int item = int(tid); item < items; item += kThreads) {
            const int chunk = item / kTileCols;
            vertical_stats(item - chunk * kTileCols, chunk * kRowsPerItem);
        }
    }
    const int kHalveItems = kHalve ? (kTH / 2) * kTileCols : 0;
    const int kHalvePerThread = (kHalveItems + kThreads - 1) / kThreads;
    uint halved[kHalvePerThread > 0 ? kHalvePerThread : 1];
    [[unroll]] for (int n = 0; n < kHalvePerThread; n++) {
        const int item = int(tid) + n * kThreads;
        if (item < kHalveItems) {
            const int i = item / kTileCols;
            halved[n] = vertical_halve(i, item - i * kTileCols);
        }
    }
    barrier();
    [[unroll]] for (int n = 0; n < kHalvePerThread; n++) {
        const int item = int(tid) + n * kThreads;
        if (item < kHalveItems) tile[item] = halved[n];
    }
    barrier();

    // The next scale: one sample of each picture per thread.
    if (kHalve) {
        const int i = int(tid) / (kTW / 2), j = int(tid) - i * (kTW / 2);
        const uint oy = uint(at.y / 2 + i), ox = uint(at.x / 2 + j);
        if (ox < p.width / 2u && oy < p.height / 2u) {
            uint a = 0u, b = 0u;
            [[unroll]] for (int k = 0; k < kHW; k++) {
                const uint s = tile[i * kTileCols + 2 * j + kHA - kHH + k];
                a += halve_tap(k) * (s & 0xffffu);
                b += halve_tap(k) * (s >> 16);
            }
            const uint r = rounding(kVifQ16Shift);
            scales.v[p.out_ref + oy * p.out_stride + ox] = uint16_t((a + r) >> kVifQ16Shift);
            scales.v[p.out_dist + oy * p.out_stride + ox] = uint16_t((b + r) >> kVifQ16Shift);
        }
    }

    // Horizontal pass: this thread's four pixels.
    const int row = int(tid) / kThreadsPerRow;
    const int x0 = (int(tid) - row * kThreadsPerRow) * kPixelsPerThread;
    uint mu1[kPixelsPerThread], mu2[kPixelsPerThread];
    uint mom[3][kPixelsPerThread];
    if (stats) {
        uint v[kNV * 4];
        const int base = (0 * kTH + row) * kVecs + x0 / 4;
        [[unroll]] for (int n = 0; n < kNV; n++) {
            const uvec4 q = vsum[base + n];
            v[4 * n] = q.x, v[4 * n + 1] = q.y, v[4 * n + 2] = q.z, v[4 * n + 3] = q.w;
        }
        [[unroll]] for (int o = 0; o < kPixelsPerThread; o++) {
            const uvec2 m = window_halves(v, o);
            mu1[o] = m.x;
            mu2[o] = m.y;
        }
        // Second moments: Q16 with rounding, summed as 16-bit halves so that
        // every sum fits 32 bits (see vif_cpu.cpp).
        [[unroll]] for (int q = 0; q < 3; q++) {
            const int qb = ((q + 1) * kTH + row) * kVecs + x0 / 4;
            [[unroll]] for (int n = 0; n < kNV; n++) {
                const uvec4 t = vsum[qb + n];
                v[4 * n] = t.x, v[4 * n + 1] = t.y, v[4 * n + 2] = t.z, v[4 * n + 3] = t.w;
            }
            [[unroll]] for (int o = 0; o < kPixelsPerThread; o++) {
                const uvec2 m = window_halves(v, o);
                mom[q][o] = m.y + ((m.x + rounding(kVifQ16Shift)) >> kVifQ16Shift);
            }
        }
    }
    if (kGainQueue) barrier();  // vsum is the gain queue from here on

    uint den_lin = 0u, lin_lo = 0u, lin_hi = 0u, den_log = 0u;
    uint num_log[kVifMaxLimits];
    [[unroll]] for (int k = 0; k < int(kVifMaxLimits); k++) num_log[k] = 0u;
    Gain limit[kVifMaxLimits];
    [[unroll]] for (int k = 0; k < int(kVifMaxLimits); k++)
        limit[k] = gain_of(VifDouble((uint64_t(p.limit_hi[k]) << 32) | uint64_t(p.limit_lo[k]), p.limit_exp[k]));
    if (stats) {
        [[unroll]] for (int o = 0; o < kPixelsPerThread; o++) {
            const uint x = uint(at.x + x0 + o), y = uint(at.y + row);
            if (x >= p.width || y >= p.height) continue;
            const int s1 = int(mom[0][o] - mul_q32(mu1[o], mu1[o]));
            const int s2 = max(int(mom[1][o] - mul_q32(mu2[o], mu2[o])), 0);
            const int s12 = int(mom[2][o] - mul_q32(mu1[o], mu2[o]));
            if (s1 < kVifSigmaNsq) {
                den_lin += 1u;
                lin_lo += uint(s2) & 0xffffu;
                lin_hi += uint(s2) >> 16;
                continue;
            }
            den_log += log2_q11(uint64_t(uint(s1) + uint(kVifSigmaNsq))) - uint(kVifLog2SigmaNsq);
            if (s12 > 0 && s2 > 0) {
                if (!kGainQueue) {
                    gain_terms(uint(s1), uint(s2), uint(s12), limit, num_log);
                } else {
                    const uint slot = atomicAdd(queue_len, 1u);
                    vsum[slot] = uvec4(uint(s1), uint(s2), uint(s12), 0u);
                }
            }
        }
    }
    if (kGainQueue) barrier();

    const uint queued = kGainQueue ? queue_len : 0u;
    for (uint i = tid; i < queued; i += uint(kThreads)) {
        const uvec4 e = vsum[i];
        gain_terms(e.x, e.y, e.z, limit, num_log);
    }

    // Per pixel each term is below 2^17, and a tile has at most 1024 pixels:
    // the workgroup's sums fit 32 bits (σ2² is summed as two 16-bit halves).
    if (den_lin != 0u) atomicAdd(wg_sums[kVifPartDenLin], den_lin);
    if (lin_lo != 0u) atomicAdd(wg_sums[kVifPartLinLo], lin_lo);
    if (lin_hi != 0u) atomicAdd(wg_sums[kVifPartLinHi], lin_hi);
    if (num_log[0] != 0u) atomicAdd(wg_sums[kVifPartNumLog], num_log[0]);
    [[unroll]] for (int k = 1; k < int(kVifMaxLimits); k++)
        if (uint(k) < kLimits && num_log[k] != 0u) atomicAdd(wg_sums[kParts + k - 1], num_log[k]);
    if (den_log != 0u) atomicAdd(wg_sums[kVifPartDenLog], den_log);
    barrier();
    if (tid < kGroupParts) {
        const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
        partials.v[p.partial_index + group * kGroupParts + tid] = wg_sums[tid];
    }
}
