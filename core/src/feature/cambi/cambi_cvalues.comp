// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// CAMBI, step 4 (per scale): the c-value of every sample.
//
// A workgroup owns kCols adjacent columns and `rows` rows of the scale, and
// keeps, in shared memory, the window histogram of each column's current
// sample: per band value, the count of masked samples of that value in the
// (2 pad + 1)^2 window around it (clipped to the picture). Two columns share
// a 32-bit word (16-bit counts: a window holds at most 4225 samples), words
// laid out value-major.
//
// Moving down a row, one row leaves the window and one enters. The workgroup
// loads both rows' keys over its span (its columns and pad more on each side)
// and splits the span into runs of positions whose (leaving, entering) keys
// are equal: masked areas are flat, unmasked ones have no key, so runs are
// long. A run of keys (s, a) with s != a over positions [r0, r1] takes from
// each column's count of s, and adds to its count of a, the number of run
// positions within pad of the column. The workgroup walks the runs together;
// per run, half its threads apply the leaving key and half the entering one,
// a thread per word (two columns), with one atomic add each (no thread waits
// on a read-modify-write; the counts are exact once every add of a step is
// done, as a sum modulo 2^32 of counts that end in 0 .. 65535). The first
// row's window is filled the same way, two rows entering a step. The next
// step's keys are loaded while this step is applied.
//
// The histograms need only the values present: the narrow pass (kNarrow)
// first takes the range of the keys of the 16x16 tiles under its rows and
// span (the mode step's) and keeps counts for those values only (kBand of
// them, a few KiB of shared memory, so many workgroups share a
// multiprocessor); a workgroup whose keys span more flags itself and leaves,
// and the wide pass, whose histograms hold the whole band (and which may
// take fewer columns a workgroup), runs the flagged blocks.
//
// The c-value is the CPU's (cambi_kernels.h: c_value) operation for
// operation: an integer product made float and multiplied by the float
// reciprocal, the largest over the visible steps; `precise` keeps the
// compiler from fusing or reordering, and float products and conversions are
// correctly rounded, so the floats are bit-identical.
#include "cambi_common.glsl"
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0) in;                 // kCols
layout(constant_id = 1) const uint kBand = 2;   // histogram entries per column
layout(constant_id = 2) const uint kPadLimit = kMaxPad;  // the largest window's half-side here
// 1: the narrow pass (a workgroup whose keys span more than kBand values
// flags itself and leaves); 0: the wide pass (kBand >= the band size; only
// the flagged workgroups run).
layout(constant_id = 3) const uint kNarrow = 0;

const uint kCols = gl_WorkGroupSize.x;
const uint kPairs = kCols / 2u;
const uint kSpan = kCols + 2u * kPadLimit;
const uint kSpanWords = (kSpan + 32u) / 32u;  // span positions and the end sentinel
// Word v * kPairs + i: the counts of value v for columns 2i (low half) and 2i + 1.
shared uint hist[kBand * kPairs];
// A step's keys over the span (leaving | entering << 16), two steps' worth,
// and the bit sets of the positions where a run starts, three steps' worth.
shared uint step_keys[2 * kSpan];
shared uint step_bits[3 * kSpanWords];
shared uint range_lo, range_hi;

layout(push_constant) uniform Params {
    uint key_offset;      // this scale's keys in `work`
    uint width, height;
    uint pad;             // window half-side
    uint rows;            // rows per workgroup
    uint cvalue_offset;   // this scale's c-values in `cvalues`
    uint slot;
    uint band_base, band_size;
    uint num_diffs;
    int vlt_luma;
    uint flag_offset;     // this scale's workgroup flags in `work`
    uint tile_offset;     // this scale's 16x16 tiles' key ranges in `work` (cambi_mode.comp)
    uint flag_stride;     // flags per row of blocks
    uint flag_cols;       // columns per flag (the narrow pass's workgroup width)
} p;

uint lo = 0u, width = 0u;  // the workgroup's histogram: values lo .. lo + width - 1

// A step: row `sub` leaves the window and row `add` enters (either may be
// absent). Its keys are loaded into registers (kPerLane span positions per
// thread, and whether a run starts there) one step ahead of their use, so
// the loads overlap the previous step's updates.
const uint kPerLane = 9u;  // (8 + 2 * 32) / 8: enough for every kCols and pad
struct StepKeys {
    uint keys[kPerLane];  // leaving | entering << 16
    uint starts;          // bit i: a run starts at position lane + i kCols
};

// The rows of step n: the first row's window is filled two rows at a time
// (steps 0 .. fill - 1, both rows entering), then each step moves it down a
// row.
void step_rows(uint n, uint fill, uint fill_first, uint y0, out bool has_sub, out uint sub, out bool has_add,
               out uint add)
{
    if (n < fill) {
        has_sub = true;
        sub = fill_first + 2u * n;
        add = sub + 1u;
        has_add = add < min(y0 + p.pad + 1u, p.height);
        return;
    }
    const uint y = y0 + 1u + (n - fill);
    has_sub = y >= p.pad + 1u;
    sub = has_sub ? y - p.pad - 1u : 0u;
    has_add = y + p.pad < p.height;
    add = has_add ? y + p.pad : 0u;
}

uint keys_at(int c, bool has_sub, uint sub, bool has_add, uint add)
{
    uint ks = kNoKey, ka = kNoKey;
    if (c >= 0 && c < int(p.width)) {
        if (has_sub) ks = uint(work.v[p.key_offset + sub * p.width + uint(c)]);
        if (has_add) ka = uint(work.v[p.key_offset + add * p.width + uint(c)]);
    }
    return ks | (ka << 16);
}

StepKeys load_step(uint lane, int x0, uint n, uint fill, uint fill_first, uint y0)
{
    bool has_sub, has_add;
    uint sub, add;
    step_rows(n, fill, fill_first, y0, has_sub, sub, has_add, add);
    const uint span = kCols + 2u * p.pad;
    const int first = x0 - int(p.pad);
    StepKeys k;
    k.starts = 0u;
    [[unroll]] for (uint i = 0u; i < kPerLane; i++) {
        if (i * kCols >= kSpan) break;
        const uint j = lane + i * kCols;
        k.keys[i] = kNoKey | (kNoKey << 16);
        if (j < span) {
            const int c = first + int(j);
            k.keys[i] = keys_at(c, has_sub, sub, has_add, add);
            if (j == 0u || keys_at(c - 1, has_sub, sub, has_add, add) != k.keys[i]) k.starts |= 1u << i;
        }
    }
    return k;
}

// Publishes step n's keys: into key buffer n % 2, and the run starts (and
// the end of the span) into bit set n % 3; clears set (n + 1) % 3 for the
// next step.
void publish_step(uint lane, StepKeys k, uint n)
{
    const uint span = kCols + 2u * p.pad;
    const uint keys_at = (n & 1u) * kSpan, bits_at = (n % 3u) * kSpanWords;
    [[unroll]] for (uint i = 0u; i < kPerLane; i++) {
        if (i * kCols >= kSpan) break;
        const uint j = lane + i * kCols;
        if (j >= span) break;
        step_keys[keys_at + j] = k.keys[i];
        if ((k.starts & (1u << i)) != 0u) atomicOr(step_bits[bits_at + (j >> 5)], 1u << (j & 31u));
    }
    if (lane == 0u) atomicOr(step_bits[bits_at + (span >> 5)], 1u << (span & 31u));
    const uint next_bits = ((n + 1u) % 3u) * kSpanWords;
    for (uint i = lane; i < kSpanWords; i += kCols) step_bits[next_bits + i] = 0u;
}

// Positions of [r0, r1] within pad of span column c (whose window covers
// positions c .. c + 2 pad).
uint overlap(int r0, int r1, int c)
{
    return uint(max(min(r1, c + 2 * int(p.pad)) - max(r0, c) + 1, 0));
}

// After the barrier that publishes step n: the runs' updates. Thread `lane`
// updates word `lane % kPairs` of each run's leaving key (lane < kPairs) or
// entering key (while filling, both enter).
void update_histogram(uint lane, uint n, bool filling)
{
    const uint keys_at = (n & 1u) * kSpan, bits_at = (n % 3u) * kSpanWords;
    const uint span = kCols + 2u * p.pad;
    const uint pair = lane % kPairs;
    const bool entering = lane >= kPairs;
    const int c = int(2u * pair);
    int r0 = -1;
    uint keys = 0u;  // the run's, loaded when it starts
    for (uint w = 0u; w <= (span >> 5); w++) {
        uint m = step_bits[bits_at + w];
        while (m != 0u) {
            const int q = int(w * 32u + uint(findLSB(m)));
            m &= m - 1u;
            if (r0 >= 0) {
                const uint ks = keys & 0xffffu, ka = keys >> 16;
                const uint key = entering ? ka : ks;
                if ((filling || ks != ka) && key != kNoKey) {
                    const uint d = overlap(r0, q - 1, c) | (overlap(r0, q - 1, c + 1) << 16);
                    if (d != 0u) atomicAdd(hist[(key - lo) * kPairs + pair], entering || filling ? d : 0u - d);
                }
            }
            r0 = q;
            if (uint(q) < span) keys = step_keys[keys_at + uint(q)];
        }
    }
}

uint count(uint lane, uint v)
{
    const uint i = v - lo;  // values outside the workgroup's range have no count
    return i < width ? (hist[i * kPairs + (lane >> 1)] >> ((lane & 1u) << 4)) & 0xffffu : 0u;
}

// A range holding the keys of the workgroup's rows and span (windows
// included): that of the 16x16 tiles that cover them.
void key_range(uint lane, int x0, uint first_row, uint last_row)
{
    if (lane == 0u) {
        range_lo = kNoKey;
        range_hi = 0u;
    }
    barrier();
    const uint c0 = uint(max(x0 - int(p.pad), 0)), c1 = min(uint(x0) + kCols + p.pad, p.width) - 1u;
    const uint tx0 = c0 >> 4, ty0 = first_row >> 4, ntx = (c1 >> 4) - tx0 + 1u;
    const uint n = ntx * ((last_row >> 4) - ty0 + 1u), tiles_w = (p.width + 15u) >> 4;
    uint l = kNoKey, h = 0u;
    for (uint i = lane; i < n; i += kCols) {
        const uint at = p.tile_offset + 2u * ((ty0 + i / ntx) * tiles_w + tx0 + i % ntx);
        l = min(l, uint(work.v[at]));
        h = max(h, uint(work.v[at + 1u]));
    }
    if (l <= h) {
        atomicMin(range_lo, l);
        atomicMax(range_hi, h);
    }
    barrier();
    lo = range_lo;
    width = lo <= range_hi ? range_hi - lo + 1u : 0u;
}

float reciprocal(uint n) { return uintBitsToFloat(consts.v[kConstReciprocal + n]); }

// Up to kHeld steps' TVI limits and weights are held in registers.
const uint kHeld = 8u;
uint held_tvi[kHeld], held_weight[kHeld];

float c_value(uint lane, uint key)
{
    if (key == kNoKey) return 0.0;
    const int compact = int(key);
    const int value = compact + int(p.band_base) + int(p.num_diffs);
    const uint p0 = count(lane, key);
    precise float c = 0.0;
    if (p.num_diffs <= kHeld) {
        [[unroll]] for (uint d = 0u; d < kHeld; d++) {
            if (d >= p.num_diffs) break;
            if (value > int(held_tvi[d]) || value + int(d) + 1 <= p.vlt_luma) continue;
            const int up = min(compact + int(d) + 1, int(p.band_size) - 1), down = compact - int(d) - 1;
            const uint p1 = count(lane, uint(up));
            const uint p2 = down >= 0 ? count(lane, uint(down)) : 0u;
            const uint pm = max(p1, p2);
            precise const float v = float(int(held_weight[d] * p0 * pm)) * reciprocal(pm + p0);
            if (v > c) c = v;
        }
        return c;
    }
    for (uint d = 0u; d < p.num_diffs; d++) {
        if (value > int(consts.v[kConstTvi + d]) || value + int(d) + 1 <= p.vlt_luma) continue;
        const int up = min(compact + int(d) + 1, int(p.band_size) - 1), down = compact - int(d) - 1;
        const uint p1 = count(lane, uint(up));
        const uint p2 = down >= 0 ? count(lane, uint(down)) : 0u;
        const uint pm = max(p1, p2);
        const uint weight = consts.v[kConstWeights + d];
        precise const float v = float(int(weight * p0 * pm)) * reciprocal(pm + p0);
        if (v > c) c = v;
    }
    return c;
}

void main()
{
    const uint lane = gl_LocalInvocationID.x;
    [[unroll]] for (uint d = 0u; d < kHeld; d++) {
        held_tvi[d] = d < p.num_diffs ? consts.v[kConstTvi + d] : 0u;
        held_weight[d] = d < p.num_diffs ? consts.v[kConstWeights + d] : 0u;
    }
    const int x0 = int(gl_WorkGroupID.x * kCols);
    const uint x = uint(x0) + lane;
    const uint y0 = gl_WorkGroupID.y * p.rows;
    const uint y1 = min(y0 + p.rows, p.height);
    const uint fill_first = y0 >= p.pad ? y0 - p.pad : 0u;
    const uint flag = p.flag_offset + gl_WorkGroupID.y * p.flag_stride + uint(x0) / p.flag_cols;
    if (kNarrow != 0u) {
        key_range(lane, x0, fill_first, min(y1 - 1u + p.pad, p.height - 1u));
        const bool wide = width > kBand;
        if (lane == 0u) work.v[flag] = uint16_t(wide ? 1u : 0u);
        if (wide) return;
        if (width == 0u) {  // no keys: every c-value 0
            if (x < p.width)
                for (uint y = y0; y < y1; y++) cvalues.v[p.cvalue_offset + y * p.width + x] = 0.0;
            return;
        }
    } else {
        if (uint(work.v[flag]) == 0u) return;
        width = p.band_size;
    }
    for (uint i = lane; i < 3u * kSpanWords; i += kCols) step_bits[i] = 0u;
    for (uint i = lane; i < width * kPairs; i += kCols) hist[i] = 0u;
    barrier();

    // Steps 0 .. fill - 1 fill the first row's window; after step fill - 1 + r
    // the window is row y0 + r's, whose c-values follow.
    const uint fill = (min(y0 + p.pad + 1u, p.height) - fill_first + 1u) / 2u;
    const uint steps = fill + (y1 - y0) - 1u;
    StepKeys next = load_step(lane, x0, 0u, fill, fill_first, y0);
    for (uint n = 0u; n < steps; n++) {
        publish_step(lane, next, n);
        if (n + 1u < steps) next = load_step(lane, x0, n + 1u, fill, fill_first, y0);
        const bool row = n + 1u >= fill;
        const uint y = y0 + (n + 1u - fill);
        const uint key = row && x < p.width ? uint(work.v[p.key_offset + y * p.width + x]) : kNoKey;
        barrier();
        update_histogram(lane, n, n < fill);
        barrier();
        if (row && x < p.width) cvalues.v[p.cvalue_offset + y * p.width + x] = c_value(lane, key);
    }
}
