#version 450
// Integer motion: the SAD of the blurred difference between the previous and the
// current reference luma (the twin of motion_cpu.cpp's blurred_sad()), and the
// current luma kept for the frames after it.
//
// The CPU blurs the difference of the two pictures, not each picture: the
// vertical pass rounds the filtered difference, so blurring the pictures
// separately would round differently. The previous luma therefore stays raw, in
// the feature's history buffer (binding 1), and both pictures are read here;
// each workgroup also copies its rows of the current luma into the history.
//
// One workgroup per row (more when the picture has more rows than a dispatch
// has workgroups). Unless the frame only keeps its luma, the row is walked in
// steps of one column per thread:
//   1. the vertical pass of the difference at the step's columns and a halo of
//      kRadius columns either side (mirrored at the picture's edges, as the
//      CPU mirrors them), rounded and shifted, into shared memory;
//   2. the horizontal pass, rounded, and its absolute value into the thread's
//      row sum.
// The row sum is 32-bit and wraps, as libvmaf's does; addition modulo 2^32 does
// not depend on the order, so the threads' sums add up to the CPU's row sum
// exactly. One 32-bit sum per row goes to the results; the host adds the rows.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require

#include "motion_tables.glsl"

layout(local_size_x_id = 0) in;                     // a power of two, at least 2 * kRadius
layout(constant_id = 1) const uint kSampleBytes = 1;  // 1: 8-bit input, 2: deeper
layout(constant_id = 2) const int kVerticalShift = 8;  // motion::vertical_shift(bpc)
layout(constant_id = 3) const bool kWideSum = false;   // motion::wide_vertical_sum(bpc)

const int kRadius = kMotionFilterWidth / 2;
const uint kHalo = uint(2 * kRadius);  // extra vertical-pass columns per step

// The engine's planes (the current reference luma) and this feature's history
// (the previous ones), each seen as 8- or 16-bit samples, and as words to copy.
layout(std430, set = 0, binding = 0) readonly buffer Planes8 { uint8_t v[]; } planes8;
layout(std430, set = 0, binding = 0) readonly buffer Planes16 { uint16_t v[]; } planes16;
layout(std430, set = 0, binding = 0) readonly buffer Planes32 { uint v[]; } planes32;
layout(std430, set = 0, binding = 1) readonly buffer History8 { uint8_t v[]; } history8;
layout(std430, set = 0, binding = 1) readonly buffer History16 { uint16_t v[]; } history16;
layout(std430, set = 0, binding = 1) writeonly buffer History32 { uint v[]; } history32;
layout(std430, set = 0, binding = 2) writeonly buffer Rows { uint sums[]; } rows;

// Offsets in 32-bit words: planes and rows start on whole words.
layout(push_constant) uniform Params {
    uint cur;             // the current luma in binding 0
    uint prev;            // the luma to compare with in binding 1
    uint keep;            // where the current luma goes in binding 1
    uint stride;          // words from row to row (all three)
    uint width, height;   // samples
    uint rows_per_group;
    uint compare;         // 0: only keep the luma (nothing to compare with)
    uint out_index;       // where row 0's sum goes in `sums`
} p;

const uint kSamplesPerWord = 4 / kSampleBytes;

shared int vertical[gl_WorkGroupSize.x + kHalo];
shared uint lane_sum[gl_WorkGroupSize.x];

// Mirror an index into [0, size): -1 -> 1, size -> size - 2 (motion::mirror).
int mirror(int i, int size)
{
    if (i < 0) return -i;
    if (i >= size) return 2 * size - i - 2;
    return i;
}

// prev - cur at sample `at`, counted from the start of each luma plane.
int difference(uint at)
{
    const uint prev_at = p.prev * kSamplesPerWord + at;
    const uint cur_at = p.cur * kSamplesPerWord + at;
    if (kSampleBytes == 1) return int(history8.v[prev_at]) - int(planes8.v[cur_at]);
    return int(history16.v[prev_at]) - int(planes16.v[cur_at]);
}

// The vertical pass at column x of row y, rounded and shifted. A product of a
// tap and a difference fits 32 bits at any depth; their sum does up to 12 bits.
int vertical_pass(uint x, int y)
{
    if (kWideSum) {
        int64_t acc = 0;
        for (int k = 0; k < kMotionFilterWidth; k++) {
            const uint at = uint(mirror(y - kRadius + k, int(p.height))) * p.stride * kSamplesPerWord + x;
            acc += int64_t(kMotionFilter[k] * difference(at));
        }
        return int((acc + (int64_t(1) << (kVerticalShift - 1))) >> kVerticalShift);
    }
    int acc = 0;
    for (int k = 0; k < kMotionFilterWidth; k++) {
        const uint at = uint(mirror(y - kRadius + k, int(p.height))) * p.stride * kSamplesPerWord + x;
        acc += kMotionFilter[k] * difference(at);
    }
    return (acc + (1 << (kVerticalShift - 1))) >> kVerticalShift;
}

// The horizontal pass at the step's column `lane`: its taps are vertical[lane ..
// lane + 2 kRadius]. Each product fits 32 bits (|vertical| < 2^16, taps < 2^15),
// their sum needs 33.
int horizontal_pass(uint lane)
{
    int64_t acc = 0;
    for (int k = 0; k < kMotionFilterWidth; k++) acc += int64_t(kMotionFilter[k] * vertical[lane + k]);
    return int((acc + (int64_t(1) << (kMotionHorizontalShift - 1))) >> kMotionHorizontalShift);
}

uint row_sad(int y)
{
    const uint lane = gl_LocalInvocationID.x;
    const uint step = gl_WorkGroupSize.x;
    const int w = int(p.width);
    uint sum = 0;
    for (uint x0 = 0; x0 < p.width; x0 += step) {
        // Slot s holds the column x0 - kRadius + s, mirrored into the picture;
        // slots past the last column's halo are never read.
        for (uint s = lane; s < step + kHalo; s += step) {
            const int c = int(x0 + s) - kRadius;
            if (c < w + kRadius) vertical[s] = vertical_pass(uint(mirror(c, w)), y);
        }
        barrier();
        if (x0 + lane < p.width) sum += uint(abs(horizontal_pass(lane)));
        barrier();
    }
    return sum;
}

// The workgroup's lanes' sums, modulo 2^32, in lane 0.
uint reduce(uint v)
{
    const uint lane = gl_LocalInvocationID.x;
    lane_sum[lane] = v;
    barrier();
    for (uint half_ = gl_WorkGroupSize.x / 2; half_ > 0; half_ /= 2) {
        if (lane < half_) lane_sum[lane] += lane_sum[lane + half_];
        barrier();
    }
    const uint total = lane_sum[0];
    barrier();  // lane_sum is reused by the next row
    return total;
}

// Row y of the current luma into the history, padding and all.
void keep_row(uint y)
{
    for (uint i = gl_LocalInvocationID.x; i < p.stride; i += gl_WorkGroupSize.x)
        history32.v[p.keep + y * p.stride + i] = planes32.v[p.cur + y * p.stride + i];
}

void main()
{
    const uint row0 = gl_WorkGroupID.x * p.rows_per_group;
    const uint rows_here = min(p.rows_per_group, p.height - row0);
    for (uint r = 0; r < rows_here; r++) {
        const uint y = row0 + r;
        // The rows this reads around y belong to the previous luma's slot,
        // never to the one being written.
        keep_row(y);
        if (p.compare == 0) continue;
        const uint total = reduce(row_sad(int(y)));
        if (gl_LocalInvocationID.x == 0) rows.sums[p.out_index + y] = total;
    }
}
