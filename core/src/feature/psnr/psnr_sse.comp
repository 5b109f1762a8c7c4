// SPDX-License-Identifier: BSD-2-Clause-Patent
#version 450
// PSNR: the exact sum of squared differences of one plane of two pictures.
//
// Each workgroup covers a band of `rows_per_group` rows and writes one 64-bit
// partial sum; the host adds the partials of a plane (a few hundred at most: a
// band holds thousands of samples). Integer arithmetic only, so the result is
// the CPU's to the last bit.
//
// Samples are read as whole 32-bit words (four 8-bit or two 16-bit samples, in
// memory order); samples past the row's width in its last word are padding and
// are skipped.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x_id = 0) in;                   // a power of two
layout(constant_id = 1) const uint kBytesPerSample = 1;  // 1: 8-bit input, 2: deeper

const uint kSamplesPerWord = 4 / kBytesPerSample;
const uint kSampleBits = 8 * kBytesPerSample;
const uint kSampleMask = (1u << kSampleBits) - 1u;

layout(std430, set = 0, binding = 0) readonly buffer Planes { uint words[]; } planes;
layout(std430, set = 0, binding = 1) writeonly buffer Partials { uint64_t sums[]; } partials;

layout(push_constant) uniform Params {
    uint ref_word;        // first word of the reference plane
    uint dist_word;       // first word of the distorted plane
    uint stride_words;    // words from one row to the next (both planes)
    uint width;           // samples in a row
    uint height;          // rows in the plane
    uint rows_per_group;
    uint out_index;       // where this plane's partials start in `sums`
} p;

shared uint64_t lane_sum[gl_WorkGroupSize.x];

// Squared differences of the first `n` samples of two words. One square fits 32
// bits at any depth and four 8-bit ones together do too, so 8-bit words are
// summed in 32 bits; two 16-bit squares may not fit, so deeper ones in 64.
uint64_t word_sse(uint a, uint b, uint n)
{
    uint64_t wide = 0;
    uint narrow = 0;
    for (uint k = 0; k < n; k++) {
        const int ea = int((a >> (k * kSampleBits)) & kSampleMask);
        const int eb = int((b >> (k * kSampleBits)) & kSampleMask);
        const uint e = uint(abs(ea - eb));
        if (kBytesPerSample == 1) narrow += e * e;
        else wide += uint64_t(e * e);
    }
    return wide + uint64_t(narrow);
}

void main()
{
    const uint lane = gl_LocalInvocationID.x;
    const uint row0 = gl_WorkGroupID.x * p.rows_per_group;
    const uint rows = min(p.rows_per_group, p.height - row0);
    const uint row_words = (p.width + kSamplesPerWord - 1) / kSamplesPerWord;
    const uint last_samples = p.width - (row_words - 1) * kSamplesPerWord;

    uint64_t acc = 0;
    for (uint r = 0; r < rows; r++) {
        const uint at0 = (row0 + r) * p.stride_words;
        for (uint c = lane; c < row_words; c += gl_WorkGroupSize.x) {
            const uint at = at0 + c;
            const uint n = c == row_words - 1 ? last_samples : kSamplesPerWord;
            acc += word_sse(planes.words[p.ref_word + at], planes.words[p.dist_word + at], n);
        }
    }

    lane_sum[lane] = acc;
    barrier();
    for (uint half_ = gl_WorkGroupSize.x / 2; half_ > 0; half_ /= 2) {
        if (lane < half_) lane_sum[lane] += lane_sum[lane + half_];
        barrier();
    }
    if (lane == 0) partials.sums[p.out_index + gl_WorkGroupID.x] = lane_sum[0];
}
