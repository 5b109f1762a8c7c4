// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// Integer motion: the SAD of the blurred difference between the previous and the
// current reference luma (the twin of motion_cpu.cpp's blurred_sad()), and the
// current luma kept for the frames after it.
//
// The CPU blurs the difference of the two pictures, not each picture: the
// vertical pass rounds the filtered difference, so blurring the pictures
// separately would round differently. The previous luma therefore stays raw, in
// the feature's history buffer (binding 1), and both pictures are read here;
// each workgroup also copies its tile of the current luma into the history.
//
// A workgroup of 256 threads owns a tile of kTW x kTH outputs:
//   1. the difference under the tile and a margin of kRadius samples all round,
//      mirrored at the picture's edges as the CPU mirrors them (the mirror of a
//      row and of a column are independent, so the vertical pass of a mirrored
//      column is the CPU's vertical pass at that column), into shared memory;
//      8-bit tiles away from the edges read whole words of both pictures;
//   2. the vertical pass of the tile's rows at every loaded column, rounded and
//      shifted, into shared memory, four rows per thread;
//   3. the horizontal pass, rounded, of four adjacent outputs per thread, and
//      their absolute values into the tile row's sum.
// Row sums are 32-bit and wrap, as libvmaf's do; addition modulo 2^32 does not
// depend on the order, so the tiles' sums of a row (added by motion_rows.comp)
// are the CPU's row sum exactly.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_control_flow_attributes : require

#include "motion_tables.glsl"

layout(constant_id = 1) const uint kSampleBytes = 1;  // 1: 8-bit input, 2: deeper
layout(constant_id = 2) const int kVerticalShift = 8;  // motion::vertical_shift(bpc)
layout(constant_id = 3) const bool kWideSum = false;   // motion::wide_vertical_sum(bpc)

const int kRadius = kMotionFilterWidth / 2;
const int kTW = int(kMotionTileW), kTH = int(kMotionTileH);
const int kThreads = 256;
const int kPerThread = kTW * kTH / kThreads;  // adjacent outputs of one row
const int kCols = kTW + 2 * kRadius, kRows = kTH + 2 * kRadius;
const int kRowsPerItem = 4;  // vertical pass: output rows per thread and column

layout(local_size_x = kThreads) in;

// The engine's planes (the current reference luma) and this feature's history
// (the previous ones), each seen as 8- or 16-bit samples, and as words to copy.
layout(std430, set = 0, binding = 0) readonly buffer Planes8 { uint8_t v[]; } planes8;
layout(std430, set = 0, binding = 0) readonly buffer Planes16 { uint16_t v[]; } planes16;
layout(std430, set = 0, binding = 0) readonly buffer Planes32 { uint v[]; } planes32;
layout(std430, set = 0, binding = 1) readonly buffer History8 { uint8_t v[]; } history8;
layout(std430, set = 0, binding = 1) readonly buffer History16 { uint16_t v[]; } history16;
layout(std430, set = 0, binding = 1) writeonly buffer History32 { uint v[]; } history32;
layout(std430, set = 0, binding = 1) readonly buffer HistoryWords { uint v[]; } history_words;
// Each tile row's sum: [row][tile column].
layout(std430, set = 0, binding = 2) writeonly buffer Tiles { uint sums[]; } tiles;

// Offsets in 32-bit words: planes start on whole words.
layout(push_constant) uniform Params {
    uint cur;             // the current luma in binding 0
    uint prev;            // the luma to compare with in binding 1
    uint keep;            // where the current luma goes in binding 1
    uint stride;          // words from row to row (all three)
    uint width, height;   // samples
    uint compare;         // 0: only keep the luma (nothing to compare with)
} p;

const uint kSamplesPerWord = 4 / kSampleBytes;

shared int diff[kRows * kCols];
shared int vertical[kTH * kCols];
shared uint row_sum[kTH];

// Mirror an index into [0, size): -1 -> 1, size -> size - 2 (motion::mirror),
// then into the picture for the margin no output reads.
int mirror(int i, int size)
{
    const int m = i < 0 ? -i : (i >= size ? 2 * size - i - 2 : i);
    return clamp(m, 0, size - 1);
}

// prev - cur at sample `at`, counted from the start of each luma plane.
int difference(uint at)
{
    const uint prev_at = p.prev * kSamplesPerWord + at;
    const uint cur_at = p.cur * kSamplesPerWord + at;
    if (kSampleBytes == 1) return int(history8.v[prev_at]) - int(planes8.v[cur_at]);
    return int(history16.v[prev_at]) - int(planes16.v[cur_at]);
}

// The difference under the tile, from whole words: the tile's columns and its
// margin rounded out to words, which must lie inside the picture (no mirror).
const int kWordMargin = (kRadius + 3) / 4 * 4;
const int kLoadWords = (kTW + 2 * kWordMargin) / 4;

bool words_inside(ivec2 at, int w, int h)
{
    return kSampleBytes == 1 && at.x >= kWordMargin && at.x + kTW + kWordMargin <= w && at.y >= kRadius &&
           at.y + kTH + kRadius <= h;
}

void load_words(ivec2 at, uint tid)
{
    const uint first = uint(at.x - kWordMargin) / 4u;
    for (int i = int(tid); i < kRows * kLoadWords; i += kThreads) {
        const int r = i / kLoadWords, word = i - r * kLoadWords;
        const uint at_word = uint(at.y - kRadius + r) * p.stride + first + uint(word);
        const uint a = history_words.v[p.prev + at_word], b = planes32.v[p.cur + at_word];
        [[unroll]] for (int k = 0; k < 4; k++) {
            const int c = 4 * word + k - (kWordMargin - kRadius);
            if (c >= 0 && c < kCols)
                diff[r * kCols + c] = int((a >> (8 * k)) & 0xffu) - int((b >> (8 * k)) & 0xffu);
        }
    }
}

// The tile's rows of the current luma into the history, word by word; the last
// tile of a row takes the row's padding too.
void keep_tile(ivec2 at, uint tid)
{
    const uint w0 = uint(at.x) / kSamplesPerWord;
    const uint w1 = uint(at.x + kTW) >= p.width ? p.stride : uint(at.x + kTW) / kSamplesPerWord;
    const uint words = w1 - w0;
    const uint rows = min(uint(kTH), p.height - uint(at.y));
    for (uint i = tid; i < rows * words; i += uint(kThreads)) {
        const uint r = i / words, at_word = (uint(at.y) + r) * p.stride + w0 + (i - r * words);
        history32.v[p.keep + at_word] = planes32.v[p.cur + at_word];
    }
}

void main()
{
    const uint tid = gl_LocalInvocationID.x;
    const ivec2 at = ivec2(gl_WorkGroupID.xy) * ivec2(kTW, kTH);
    const int w = int(p.width), h = int(p.height);
    if (p.compare != 0u) {
        if (tid < uint(kTH)) row_sum[tid] = 0u;
        if (words_inside(at, w, h)) {
            load_words(at, tid);
        } else {
            for (int i = int(tid); i < kRows * kCols; i += kThreads) {
                const int r = i / kCols, c = i - r * kCols;
                const uint y = uint(mirror(at.y - kRadius + r, h)), x = uint(mirror(at.x - kRadius + c, w));
                diff[i] = difference(y * p.stride * kSamplesPerWord + x);
            }
        }
        barrier();

        // A product of a tap and a difference fits 32 bits at any depth; their
        // sum does up to 12 bits (kWideSum beyond). Each thread takes four rows
        // of a column, so that each difference it reads serves several outputs.
        for (int i = int(tid); i < kTH / kRowsPerItem * kCols; i += kThreads) {
            const int chunk = i / kCols, c = i - chunk * kCols, r0 = chunk * kRowsPerItem;
            int d[kRowsPerItem + kMotionFilterWidth - 1];
            [[unroll]] for (int j = 0; j < kRowsPerItem + kMotionFilterWidth - 1; j++)
                d[j] = diff[(r0 + j) * kCols + c];
            [[unroll]] for (int o = 0; o < kRowsPerItem; o++) {
                int v;
                if (kWideSum) {
                    int64_t acc = 0;
                    [[unroll]] for (int k = 0; k < kMotionFilterWidth; k++)
                        acc += int64_t(kMotionFilter[k] * d[o + k]);
                    v = int((acc + (int64_t(1) << (kVerticalShift - 1))) >> kVerticalShift);
                } else {
                    int acc = 0;
                    [[unroll]] for (int k = 0; k < kMotionFilterWidth; k++) acc += kMotionFilter[k] * d[o + k];
                    v = (acc + (1 << (kVerticalShift - 1))) >> kVerticalShift;
                }
                vertical[(r0 + o) * kCols + c] = v;
            }
        }
        barrier();

        // Each product fits 32 bits (|vertical| < 2^16, taps < 2^15), their sum
        // needs 33.
        const int r = int(tid) / (kTW / kPerThread);
        const int c0 = (int(tid) - r * (kTW / kPerThread)) * kPerThread;
        uint sum = 0u;
        if (at.y + r < h) {
            [[unroll]] for (int o = 0; o < kPerThread; o++) {
                if (at.x + c0 + o >= w) break;
                int64_t acc = 0;
                [[unroll]] for (int k = 0; k < kMotionFilterWidth; k++)
                    acc += int64_t(kMotionFilter[k] * vertical[r * kCols + c0 + o + k]);
                sum += uint(abs(int((acc + (int64_t(1) << (kMotionHorizontalShift - 1))) >> kMotionHorizontalShift)));
            }
        }
        if (sum != 0u) atomicAdd(row_sum[r], sum);
    }
    keep_tile(at, tid);
    if (p.compare == 0u) return;
    barrier();
    if (tid < uint(kTH) && at.y + int(tid) < h)
        tiles.sums[(uint(at.y) + tid) * gl_NumWorkGroups.x + gl_WorkGroupID.x] = row_sum[tid];
}
