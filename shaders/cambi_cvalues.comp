#version 450
// CAMBI, step 4 (per scale): the c-value of every sample, and the histogram
// of their upper 16 bits.
//
// A workgroup owns kCols adjacent columns and `rows` rows of the scale; each
// thread owns one column and keeps, in shared memory, the window histogram of
// its sample: per band value, the count of masked samples of that value in
// the (2 pad + 1)^2 window around it (clipped to the picture). Histogram words
// are laid out value-major, so the threads touch distinct columns.
//
// Moving down a row, one row leaves the window and one enters. The workgroup
// loads both rows' keys over its span (its columns and pad more on each side)
// once, together, and marks the span positions where they differ (in the
// others the counts do not change: most of a picture, as unmasked samples
// have no key and flat areas repeat theirs); each thread then updates its
// histogram for the marked positions within pad of its column only. The
// first row's window is filled the same way, a row entering at a time. The
// next step's keys are loaded while this step is applied, and one barrier a
// step separates publishing the keys from using them.
//
// The c-value is the CPU's (cambi_kernels.h: c_value) operation for
// operation: an integer product made float and multiplied by the float
// reciprocal, the largest over the visible steps; `precise` keeps the
// compiler from fusing or reordering, and float products and conversions are
// correctly rounded, so the floats are bit-identical.
#include "cambi_common.glsl"
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0) in;                 // kCols
layout(constant_id = 1) const uint kBand = 1;   // histogram entries per column (>= band size)
layout(constant_id = 2) const uint kPadLimit = kMaxPad;  // the largest window's half-side here

const uint kCols = gl_WorkGroupSize.x;
const uint kSpan = kCols + 2u * kPadLimit;
const uint kSpanWords = (kSpan + 31u) / 32u;
shared uint16_t hist[kBand * kCols];
shared uint top[kTopBins];
// A step's keys over the span (leaving | entering << 16), two steps' worth,
// and the bit sets of the positions where they differ, three steps' worth: so
// one barrier per step suffices (a thread is never more than one step ahead
// of another, and step n + 1 clears the set of step n + 2, last read in step
// n - 1).
shared uint step_keys[2 * kSpan];
shared uint step_bits[3 * kSpanWords];

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
} p;

// A step: row `sub` leaves the window and row `add` enters (either may be
// absent). Its keys are loaded into registers (kPerLane span positions per
// thread) one step ahead of their use, so the loads overlap the previous
// step's updates.
const uint kPerLane = 9u;  // (8 + 2 * 32) / 8: enough for every kCols and pad
struct StepKeys {
    uint keys[kPerLane];  // leaving | entering << 16
};

// The rows of step n: the first row's window is filled a row at a time
// (steps 0 .. fill - 1), then each step moves it down a row.
void step_rows(uint n, uint fill, uint fill_first, uint y0, out bool has_sub, out uint sub, out bool has_add,
               out uint add)
{
    if (n < fill) {
        has_sub = false;
        sub = 0u;
        has_add = true;
        add = fill_first + n;
        return;
    }
    const uint y = y0 + 1u + (n - fill);
    has_sub = y >= p.pad + 1u;
    sub = has_sub ? y - p.pad - 1u : 0u;
    has_add = y + p.pad < p.height;
    add = has_add ? y + p.pad : 0u;
}

StepKeys load_step(uint lane, int x0, uint n, uint fill, uint fill_first, uint y0)
{
    bool has_sub, has_add;
    uint sub, add;
    step_rows(n, fill, fill_first, y0, has_sub, sub, has_add, add);
    const uint span = kCols + 2u * p.pad;
    const int first = x0 - int(p.pad);
    StepKeys k;
    [[unroll]] for (uint i = 0u; i < kPerLane; i++) {
        const uint j = lane + i * kCols;
        const int c = first + int(j);
        uint ks = kNoKey, ka = kNoKey;
        if (j < span && c >= 0 && c < int(p.width)) {
            if (has_sub) ks = uint(work.v[p.key_offset + sub * p.width + uint(c)]);
            if (has_add) ka = uint(work.v[p.key_offset + add * p.width + uint(c)]);
        }
        k.keys[i] = ks | (ka << 16);
    }
    return k;
}

// Publishes step n's keys: into key buffer n % 2, and the positions where
// they differ into bit set n % 3; clears set (n + 1) % 3 for the next step.
void publish_step(uint lane, StepKeys k, uint n)
{
    const uint span = kCols + 2u * p.pad;
    const uint keys_at = (n & 1u) * kSpan, bits_at = (n % 3u) * kSpanWords;
    [[unroll]] for (uint i = 0u; i < kPerLane; i++) {
        const uint j = lane + i * kCols;
        if (j >= span) break;
        step_keys[keys_at + j] = k.keys[i];
        if ((k.keys[i] & 0xffffu) != (k.keys[i] >> 16)) atomicOr(step_bits[bits_at + (j >> 5)], 1u << (j & 31u));
    }
    const uint next_bits = ((n + 1u) % 3u) * kSpanWords;
    for (uint i = lane; i < kSpanWords; i += kCols) step_bits[next_bits + i] = 0u;
}

// After the barrier that publishes step n: this thread's updates, from the
// marked span positions lane .. lane + 2 pad (those within pad of its column).
void update_histogram(uint lane, uint n)
{
    const uint keys_at = (n & 1u) * kSpan, bits_at = (n % 3u) * kSpanWords;
    const uint lo = lane, hi = lane + 2u * p.pad;
    for (uint w = lo >> 5; w <= (hi >> 5); w++) {
        uint m = step_bits[bits_at + w];
        if (w == (lo >> 5)) m &= ~0u << (lo & 31u);
        if (w == (hi >> 5) && (hi & 31u) != 31u) m &= (2u << (hi & 31u)) - 1u;
        while (m != 0u) {
            const uint j = w * 32u + uint(findLSB(m));
            m &= m - 1u;
            const uint keys = step_keys[keys_at + j];
            const uint ks = keys & 0xffffu, ka = keys >> 16;
            if (ks != kNoKey) hist[ks * kCols + lane] -= uint16_t(1);
            if (ka != kNoKey) hist[ka * kCols + lane] += uint16_t(1);
        }
    }
}

float reciprocal(uint n) { return uintBitsToFloat(consts.v[kConstReciprocal + n]); }

float c_value(uint lane, uint key)
{
    if (key == kNoKey) return 0.0;
    const int compact = int(key);
    const int value = compact + int(p.band_base) + int(p.num_diffs);
    const uint p0 = uint(hist[key * kCols + lane]);
    precise float c = 0.0;
    for (uint d = 0u; d < p.num_diffs; d++) {
        if (value > int(consts.v[kConstTvi + d]) || value + int(d) + 1 <= p.vlt_luma) continue;
        const int up = min(compact + int(d) + 1, int(p.band_size) - 1), down = compact - int(d) - 1;
        const uint p1 = uint(hist[uint(up) * kCols + lane]);
        const uint p2 = down >= 0 ? uint(hist[uint(down) * kCols + lane]) : 0u;
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
    const int x0 = int(gl_WorkGroupID.x * kCols);
    const uint x = uint(x0) + lane;
    const uint y0 = gl_WorkGroupID.y * p.rows;
    const uint y1 = min(y0 + p.rows, p.height);
    for (uint i = lane; i < kTopBins; i += kCols) top[i] = 0u;
    for (uint i = lane; i < 3u * kSpanWords; i += kCols) step_bits[i] = 0u;
    for (uint v = 0u; v < p.band_size; v++) hist[v * kCols + lane] = uint16_t(0);
    barrier();

    // Steps 0 .. fill - 1 fill the first row's window; after step fill - 1 + r
    // the window is row y0 + r's, whose c-values follow.
    const uint fill_first = y0 >= p.pad ? y0 - p.pad : 0u;
    const uint fill = min(y0 + p.pad + 1u, p.height) - fill_first;
    const uint steps = fill + (y1 - y0) - 1u;
    StepKeys next = load_step(lane, x0, 0u, fill, fill_first, y0);
    for (uint n = 0u; n < steps; n++) {
        publish_step(lane, next, n);
        if (n + 1u < steps) next = load_step(lane, x0, n + 1u, fill, fill_first, y0);
        const bool row = n + 1u >= fill;
        const uint y = y0 + (n + 1u - fill);
        const uint key = row && x < p.width ? uint(work.v[p.key_offset + y * p.width + x]) : kNoKey;
        barrier();
        update_histogram(lane, n);
        if (row && x < p.width) {
            const float c = c_value(lane, key);
            cvalues.v[p.cvalue_offset + y * p.width + x] = c;
            if (c != 0.0) {
                const uint bin = (floatBitsToUint(c) >> 16) - kTopBase;
                if (bin < kTopBins)
                    atomicAdd(top[bin], 1u);
                else
                    atomicOr(counts.v[kErrorAt], kErrorCValue);
            }
        }
    }
    barrier();
    for (uint i = lane; i < kTopBins; i += kCols)
        if (top[i] != 0u) atomicAdd(counts.v[top_index(p.slot, i)], top[i]);
}
