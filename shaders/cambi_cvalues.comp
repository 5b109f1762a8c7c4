#version 450
// CAMBI, step 4 (per scale): the c-value of every sample, and the histogram
// of their upper 16 bits.
//
// A workgroup owns kCols adjacent columns and `rows` rows of the scale; each
// thread owns one column and keeps, in shared memory, the window histogram of
// its sample: per band value, the count of masked samples of that value in
// the (2 pad + 1)^2 window around it (clipped to the picture). It fills the
// histogram for its first row, then slides it down a row at a time (the row
// leaving and the row entering), which costs 2 (2 pad + 1) updates per
// sample instead of a window's worth. Histogram words are laid out
// value-major, so the threads of a workgroup touch distinct columns.
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

const uint kCols = gl_WorkGroupSize.x;
const uint kBatch = 8u;
shared uint16_t hist[kBand * kCols];
shared uint top[kTopBins];

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

uint key_at(uint x, uint y) { return uint(work.v[p.key_offset + y * p.width + x]); }

// Adds `delta` to the counts of row y's keys within pad of column x.
void add_row(uint lane, uint x, uint y, uint16_t delta)
{
    const uint lo = x >= p.pad ? x - p.pad : 0u, hi = min(x + p.pad + 1u, p.width);
    const uint base = p.key_offset + y * p.width;
    for (uint c = lo; c < hi; c++) {
        const uint k = uint(work.v[base + c]);
        if (k != kNoKey) hist[k * kCols + lane] += delta;
    }
}

// Moves the window from rows [y - 1 - pad, y - 1 + pad] to [y - pad, y + pad].
void slide(uint lane, uint x, uint y)
{
    const uint lo = x >= p.pad ? x - p.pad : 0u, hi = min(x + p.pad + 1u, p.width);
    const bool has_sub = y >= p.pad + 1u, has_add = y + p.pad < p.height;
    const uint sub = p.key_offset + (has_sub ? y - p.pad - 1u : 0u) * p.width;
    const uint add = p.key_offset + (has_add ? y + p.pad : 0u) * p.width;
    // kBatch columns' keys are loaded before their updates, so the loads
    // overlap (the shared-memory updates may alias and stay in order).
    for (uint c0 = lo; c0 < hi; c0 += kBatch) {
        uint ks[kBatch], ka[kBatch];
        [[unroll]] for (uint j = 0u; j < kBatch; j++) {
            const uint c = c0 + j;
            ks[j] = has_sub && c < hi ? uint(work.v[sub + c]) : kNoKey;
            ka[j] = has_add && c < hi ? uint(work.v[add + c]) : kNoKey;
        }
        [[unroll]] for (uint j = 0u; j < kBatch; j++) {
            if (ks[j] == ka[j]) continue;
            if (ks[j] != kNoKey) hist[ks[j] * kCols + lane] -= uint16_t(1);
            if (ka[j] != kNoKey) hist[ka[j] * kCols + lane] += uint16_t(1);
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
    const uint x = gl_WorkGroupID.x * kCols + lane;
    const uint y0 = gl_WorkGroupID.y * p.rows;
    const uint y1 = min(y0 + p.rows, p.height);
    for (uint i = lane; i < kTopBins; i += kCols) top[i] = 0u;
    barrier();

    if (x < p.width) {
        for (uint v = 0u; v < p.band_size; v++) hist[v * kCols + lane] = uint16_t(0);
        const uint first = y0 >= p.pad ? y0 - p.pad : 0u, last = min(y0 + p.pad + 1u, p.height);
        for (uint y = first; y < last; y++) add_row(lane, x, y, uint16_t(1));
        for (uint y = y0; y < y1; y++) {
            if (y > y0) slide(lane, x, y);
            const float c = c_value(lane, key_at(x, y));
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
