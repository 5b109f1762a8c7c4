// SPDX-License-Identifier: BSD-2-Clause-Patent
// One scale of integer ADM (the twin of adm_cpu.cpp's per-scale work), included
// by adm_scale0.comp (16-bit bands, ADM_NARROW) and adm_scale.comp (scales 1..3,
// 32-bit bands). Everything the picture size and the options decide (sizes,
// shifts, rectangles, CSF weights, the gain limit) is a specialization
// constant, so the compiler folds it.
//
// A workgroup of 256 threads owns a tile of kTW x kTH band samples of this
// scale and does all of the scale's work on it in shared memory:
//
//   1. load the input samples under the tile's bands and a margin: the band
//      tile plus one sample all round (the 3x3 masking window) needs input rows
//      and columns 2 (i - 1) - 1 .. 2 (i + kTH) + 2, mirrored at the picture
//      edges exactly as the CPU mirrors them (8- and 16-bit tiles away from
//      the edges read whole words);
//   2. vertical wavelet pass: low and high pass of every loaded column at every
//      band row of the tile and its margin (margin rows outside the band are
//      the mirrored band rows, so everything below simply reads them);
//   3. horizontal pass at every band position of the tile and its margin: the
//      four bands of both pictures; the low-low band of the tile goes to the
//      next scale's input; decoupling into restored (r) and additive (a)
//      parts; the masker's neighbour and centre contributions of both
//      maskers (a for DLM, r for AIM); the neighbour sums go to shared memory,
//      the rest stays in registers; the reference energy;
//   4. masking thresholds from the 3x3 neighbour sums, the masked cubes;
//   5. the nine sums (energy, DLM, AIM; h, v, d) per band row of the tile go to
//      the partials buffer: the CPU shifts every complete band row's sum before
//      adding the rows, so adm_rows.comp first adds each row's tiles.
//
// Every value is an integer and every sum exact: the result does not depend on
// how samples are split among threads and workgroups.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_control_flow_attributes : require

#include "adm_tables.glsl"
#include "adm_exact.glsl"

layout(local_size_x = 256) in;

// ------------------------------------------------------------ constants --

layout(constant_id = 0) const int kInW = 64;         // input plane of this scale
layout(constant_id = 1) const int kInH = 64;
layout(constant_id = 2) const uint kSampleBytes = 1;  // scale 0: 1 or 2; scale 1: 2 (16-bit bands); else 4
// Vertical pass: scale 0 drops kVShift = bpc bits after adding kVRound and
// subtracting kVOffset from the low pass; scales 1..3 drop kVShift with
// rounding. The horizontal pass drops kHShift with rounding.
layout(constant_id = 3) const int kVShift = 8;
layout(constant_id = 4) const uint kVRound = 128u;
layout(constant_id = 5) const uint kVOffset = 0u;
layout(constant_id = 6) const int kHShift = 16;
// The right edge reads past the row in the last band column (adm_kernels.h,
// right_edge_reads_on()); what it reads for the distorted high pass at scales
// 2 and 3 is the previous scale's, kept in its edge slot (kStale >= 0: its
// index in the bound bands' 32-bit view).
layout(constant_id = 7) const bool kEdgeReadsOn = false;
layout(constant_id = 8) const int kStale = -1;
// Keep this scale's distorted low pass of the last band row, input columns
// 0..3, for the next scale (kEdgeOut >= 0: where, in the bound bands' 32-bit view).
layout(constant_id = 9) const int kEdgeOut = -1;
layout(constant_id = 10) const bool kWriteLowLow = true;  // the next scale exists
layout(constant_id = 11) const bool kScore = true;         // false: adm_skip_scale0
layout(constant_id = 12) const bool kAim = true;           // false: adm_skip_aim
layout(constant_id = 13) const uint kWeightH = 0u;          // CSF weights (fixed point)
layout(constant_id = 14) const uint kWeightV = 0u;
layout(constant_id = 15) const uint kWeightD = 0u;
layout(constant_id = 16) const int kScoreTop = 0;           // the score rectangle
layout(constant_id = 17) const int kScoreBottom = 0;
layout(constant_id = 18) const int kScoreLeft = 0;
layout(constant_id = 19) const int kScoreRight = 0;
layout(constant_id = 20) const int kNearestEnd = 0;         // decoupling rounds to nearest left of this
layout(constant_id = 21) const int kCubeH = 0;              // masked cube shifts (h, v, d)
layout(constant_id = 22) const int kCubeV = 0;
layout(constant_id = 23) const int kCubeD = 0;
layout(constant_id = 24) const int kDenSquare = 0;          // energy shifts at scales 1..3
layout(constant_id = 25) const int kDenCube = 0;
// The enhancement gain limit: an integer (kGainInt > 0) or limit_m·2^limit_e.
layout(constant_id = 26) const int kGainInt = 100;
layout(constant_id = 27) const uint kGainMantLo = 0u;
layout(constant_id = 28) const uint kGainMantHi = 0u;
layout(constant_id = 29) const int kGainExp = 0;

#ifdef ADM_NARROW
const int kTH = 16;
#else
const int kTH = 8;
#endif
const int kTW = 32;
const int kThreads = 256;
const int kPer = kTW * kTH / kThreads;  // interior samples per thread, in one row
const int kRowThreads = kTW / kPer;     // threads per tile row
const int kBW = kTW + 2, kBH = kTH + 2;  // band positions with the masking margin
const int kInCols = 2 * kBW + 2, kInRows = 2 * kBH + 2;
const int kHalo = 2 * kBW + 2 * kTH;

const int kOW = (kInW + 1) / 2, kOH = (kInH + 1) / 2;  // this scale's bands
const int kTilesX = (kOW + kTW - 1) / kTW;
const int kScoreRows = kScoreBottom - kScoreTop;
const int kQuantities = 9;  // energy h v d, DLM h v d, AIM h v d

// Shared memory, in 32-bit words: the input tile, the vertical pass, the
// masker's neighbour sums; the first two hold the per-thread sums at the end.
#ifdef ADM_NARROW
const int kInWords = kInRows * kInCols;        // reference | distorted << 16
const int kVtWords = kBH * kInCols * 2;        // per picture: low | high << 16
#else
const int kInWords = 2 * kInRows * kInCols;    // reference, then distorted
const int kVtWords = kBH * kInCols * 4;        // low ref, high ref, low dis, high dis
#endif
const int kNWords = kBH * kBW * 2;             // DLM, AIM
const int kIn = 0, kVt = kInWords, kN = kInWords + kVtWords;
const int kRedWords = kQuantities * kThreads * 2;
const int kSmemWords = max(kN + kNWords, kRedWords);
shared uint smem[kSmemWords];

layout(std430, set = 0, binding = 0) readonly buffer Planes8 { uint8_t v[]; } planes8;
layout(std430, set = 0, binding = 0) readonly buffer Planes16 { uint16_t v[]; } planes16;
layout(std430, set = 0, binding = 0) readonly buffer Planes32 { uint v[]; } planes32;
// The low-low bands between scales (16 bits after scale 0, 32 after) and the
// edge slots: the region of the input's bands through this scale's own
// (adm_vk.cpp), offsets counted from its start.
layout(std430, set = 0, binding = 1) buffer Bands16 { int16_t v[]; } bands16;
layout(std430, set = 0, binding = 1) buffer Bands32 { int v[]; } bands32;
layout(std430, set = 0, binding = 2) writeonly buffer Partials { uint64_t v[]; } partials;

layout(push_constant) uniform Params {
    uint in_ref, in_dis, in_stride;  // input planes, in samples of their type
    uint out_ref, out_dis;           // low-low bands written for the next scale
    uint part_base;                  // this scale's first partial
} p;

// ------------------------------------------------------------- helpers --

int mirror(int k, int n)
{
    return k < 0 ? -k : (k >= n ? 2 * n - k - 1 : k);
}

int sext16(int v) { return bitfieldExtract(v, 0, 16); }
int sext16(uint v) { return bitfieldExtract(int(v), 0, 16); }

int input_sample(uint at)
{
#ifdef ADM_NARROW
    return kSampleBytes == 1u ? int(planes8.v[at]) : int(planes16.v[at]);
#else
    return kSampleBytes == 2u ? int(bands16.v[at]) : bands32.v[at];
#endif
}

// Low and high vertical pass of one column from four input samples.
#ifdef ADM_NARROW
ivec2 vertical(int u0, int u1, int u2, int u3)
{
    // Modulo 2^32, as the CPU's 32-bit arithmetic (deep input wraps before the
    // offset brings the low pass back).
    const uint l = uint(kAdmDwtLo[0]) * uint(u0) + uint(kAdmDwtLo[1]) * uint(u1) + uint(kAdmDwtLo[2]) * uint(u2) +
                   uint(kAdmDwtLo[3]) * uint(u3) - kVOffset;
    const uint h = uint(kAdmDwtHi[0]) * uint(u0) + uint(kAdmDwtHi[1]) * uint(u1) + uint(kAdmDwtHi[2]) * uint(u2) +
                   uint(kAdmDwtHi[3]) * uint(u3);
    return ivec2(sext16(int(l + kVRound) >> kVShift), sext16(int(h + kVRound) >> kVShift));
}
#else
int narrow(int64_t acc, int shift)
{
    const int64_t round = shift == 0 ? 0l : (1l << (shift - 1));
    return int(uint(uint64_t(acc + round) >> shift));
}

ivec2 vertical(int u0, int u1, int u2, int u3)
{
    const int64_t l = int64_t(kAdmDwtLo[0]) * u0 + int64_t(kAdmDwtLo[1]) * u1 + int64_t(kAdmDwtLo[2]) * u2 +
                      int64_t(kAdmDwtLo[3]) * u3;
    const int64_t h = int64_t(kAdmDwtHi[0]) * u0 + int64_t(kAdmDwtHi[1]) * u1 + int64_t(kAdmDwtHi[2]) * u2 +
                      int64_t(kAdmDwtHi[3]) * u3;
    return ivec2(narrow(l, kVShift), narrow(h, kVShift));
}
#endif

// The vertical pass at band row `row`, input column `col`, from the plane in
// global memory (the right edge's out-of-row reads, rarely).
ivec2 vertical_global(uint plane, int row, int col)
{
    int u[4];
    [[unroll]] for (int k = 0; k < 4; k++)
        u[k] = input_sample(plane + uint(mirror(2 * row - 1 + k, kInH)) * p.in_stride + uint(col));
    return vertical(u[0], u[1], u[2], u[3]);
}

// ------------------------------------------------------------- wavelet --

// Band row of tile row ly (0 is the margin above): mirrored at the band edges;
// rows past the band's mirror are never read and only kept in range.
int band_row(int y0, int ly)
{
    return clamp(mirror(y0 - 1 + ly, kOH), max(y0 - 1, 0), kOH - 1);
}

void load_tile(int y0, int x0, uint tid)
{
    const int rbase = 2 * y0 - 3, cbase = 2 * x0 - 3;
    for (int e = int(tid); e < kInRows * kInCols; e += kThreads) {
        const int r = e / kInCols, c = e - r * kInCols;
        const uint at = uint(clamp(mirror(rbase + r, kInH), 0, kInH - 1)) * p.in_stride +
                        uint(clamp(mirror(cbase + c, kInW), 0, kInW - 1));
        const int ref = input_sample(p.in_ref + at), dis = input_sample(p.in_dis + at);
#ifdef ADM_NARROW
        smem[kIn + e] = uint(ref) | (uint(dis) << 16);
#else
        smem[kIn + e] = uint(ref);
        smem[kIn + kInRows * kInCols + e] = uint(dis);
#endif
    }
}

// The same for 8- and 16-bit samples where the tile needs no mirror: whole
// words of both pictures, where the planes and rows start on words. x0 is a
// multiple of kTW, so the words start at column 2 x0 - 4, one before cbase.
const int kWordSamples = 4 / int(kSampleBytes);
const int kWordBits = 32 / kWordSamples;
const int kLoadWords = (1 + kInCols + kWordSamples - 1) / kWordSamples;

bool words_inside(int y0, int x0)
{
    const int rbase = 2 * y0 - 3, first = 2 * x0 - 4;
    return kSampleBytes < 4u && (p.in_ref | p.in_dis | p.in_stride) % uint(kWordSamples) == 0u && rbase >= 0 &&
           rbase + kInRows <= kInH && first >= 0 && first + kWordSamples * kLoadWords <= kInW;
}

uint input_word(uint at)
{
#ifdef ADM_NARROW
    return planes32.v[at];
#else
    return uint(bands32.v[at]);
#endif
}

void load_tile_words(int y0, int x0, uint tid)
{
    const int rbase = 2 * y0 - 3, first = 2 * x0 - 4;
    const uint n = uint(kWordSamples);
    for (int e = int(tid); e < kInRows * kLoadWords; e += kThreads) {
        const int r = e / kLoadWords, word = e - r * kLoadWords;
        const uint at = (uint(rbase + r) * p.in_stride + uint(first)) / n + uint(word);
        const uint a = input_word(p.in_ref / n + at), b = input_word(p.in_dis / n + at);
        [[unroll]] for (int k = 0; k < kWordSamples; k++) {
            const int c = kWordSamples * word + k - 1, bit = kWordBits * k;
            if (c < 0 || c >= kInCols) continue;
#ifdef ADM_NARROW
            smem[kIn + r * kInCols + c] =
                bitfieldExtract(a, bit, kWordBits) | (bitfieldExtract(b, bit, kWordBits) << 16);
#else
            smem[kIn + r * kInCols + c] = uint(bitfieldExtract(int(a), bit, kWordBits));
            smem[kIn + kInRows * kInCols + r * kInCols + c] = uint(bitfieldExtract(int(b), bit, kWordBits));
#endif
        }
    }
}

// The vertical pass of the tile: every loaded column at every band row.
void vertical_pass(int y0, int x0, uint tid)
{
    const int rbase = 2 * y0 - 3, cbase = 2 * x0 - 3;
    for (int item = int(tid); item < kBH * kInCols; item += kThreads) {
        const int ly = item / kInCols, lc = item - ly * kInCols;
        const int row = band_row(y0, ly);
        const int c = cbase + lc;
        ivec2 ref, dis;  // (low, high)
        if (kEdgeReadsOn && c >= kInW && c <= kInW + 1) {
            // Past the row: the CPU's intermediate rows lie back to back, so the
            // low pass continues into the high pass's first columns, and the
            // high pass into what follows it.
            const int e = c - kInW;
            const ivec2 r0 = vertical_global(p.in_ref, row, e), d0 = vertical_global(p.in_dis, row, e);
#ifdef ADM_NARROW
            ref = ivec2(r0.y, 0);  // [lo | hi] per picture; past hi: never written
            dis = ivec2(d0.y, 0);
#else
            ref = ivec2(r0.y, d0.x);  // [lo_ref | hi_ref | lo_dis | hi_dis]
            dis = ivec2(d0.y, kStale >= 0 ? bands32.v[kStale + e] : 0);
#endif
        } else {
            const int lr = 2 * row - 1 - rbase;
            uint s[4];
            [[unroll]] for (int k = 0; k < 4; k++) s[k] = smem[kIn + (lr + k) * kInCols + lc];
#ifdef ADM_NARROW
            ref = vertical(int(s[0] & 0xffffu), int(s[1] & 0xffffu), int(s[2] & 0xffffu), int(s[3] & 0xffffu));
            dis = vertical(int(s[0] >> 16), int(s[1] >> 16), int(s[2] >> 16), int(s[3] >> 16));
#else
            ref = vertical(int(s[0]), int(s[1]), int(s[2]), int(s[3]));
            uint t[4];
            [[unroll]] for (int k = 0; k < 4; k++) t[k] = smem[kIn + kInRows * kInCols + (lr + k) * kInCols + lc];
            dis = vertical(int(t[0]), int(t[1]), int(t[2]), int(t[3]));
#endif
        }
        const int at = ly * kInCols + lc;
#ifdef ADM_NARROW
        smem[kVt + 2 * at] = (uint(ref.x) & 0xffffu) | (uint(ref.y) << 16);
        smem[kVt + 2 * at + 1] = (uint(dis.x) & 0xffffu) | (uint(dis.y) << 16);
#else
        smem[kVt + 4 * at] = uint(ref.x);
        smem[kVt + 4 * at + 1] = uint(ref.y);
        smem[kVt + 4 * at + 2] = uint(dis.x);
        smem[kVt + 4 * at + 3] = uint(dis.y);
#endif
    }
}

// The four bands of both pictures at one band position: [0] a, [1] h, [2] v,
// [3] d (the orientation index o is [1 + o]).
struct Bands {
    int ref[4];
    int dis[4];
};

Bands horizontal(int ly, int col0)
{
    Bands b;
#ifdef ADM_NARROW
    // Per picture, columns col0 .. col0 + 3 of the vertical pass; 32-bit sums.
    [[unroll]] for (int pic = 0; pic < 2; pic++) {
        const int round = 1 << (kAdmDwt0HorizontalShift - 1);
        int sa = round, sv = round, sh = round, sd = round;
        [[unroll]] for (int k = 0; k < 4; k++) {
            const uint w = smem[kVt + 2 * (ly * kInCols + col0 + k) + pic];
            const int lo = sext16(w), hi = int(w) >> 16;
            sa += kAdmDwtLo[k] * lo;
            sv += kAdmDwtHi[k] * lo;
            sh += kAdmDwtLo[k] * hi;
            sd += kAdmDwtHi[k] * hi;
        }
        const int a = sext16(sa >> kAdmDwt0HorizontalShift), v = sext16(sv >> kAdmDwt0HorizontalShift);
        const int h = sext16(sh >> kAdmDwt0HorizontalShift), d = sext16(sd >> kAdmDwt0HorizontalShift);
        if (pic == 0) {
            b.ref[0] = a, b.ref[1] = h, b.ref[2] = v, b.ref[3] = d;
        } else {
            b.dis[0] = a, b.dis[1] = h, b.dis[2] = v, b.dis[3] = d;
        }
    }
#else
    [[unroll]] for (int pic = 0; pic < 2; pic++) {
        int64_t sa = 0l, sv = 0l, sh = 0l, sd = 0l;
        [[unroll]] for (int k = 0; k < 4; k++) {
            const int at = kVt + 4 * (ly * kInCols + col0 + k) + 2 * pic;
            const int64_t lo = int64_t(int(smem[at])), hi = int64_t(int(smem[at + 1]));
            sa += kAdmDwtLo[k] * lo;
            sv += kAdmDwtHi[k] * lo;
            sh += kAdmDwtLo[k] * hi;
            sd += kAdmDwtHi[k] * hi;
        }
        const int a = narrow(sa, kHShift), v = narrow(sv, kHShift), h = narrow(sh, kHShift), d = narrow(sd, kHShift);
        if (pic == 0) {
            b.ref[0] = a, b.ref[1] = h, b.ref[2] = v, b.ref[3] = d;
        } else {
            b.dis[0] = a, b.dis[1] = h, b.dis[2] = v, b.dis[3] = d;
        }
    }
#endif
    return b;
}

// ---------------------------------------------------------- decoupling --

// 2^30 / m for m in [0, 32768] (0 for 0), the CPU's reciprocal table.
int reciprocal(uint m)
{
    return m == 0u ? 0 : int((1u << kAdmReciprocalShift) / m);
}

// The enhanced restored value's magnitude: |double(rst) · limit|, rounded.
uint64_t enhanced_magnitude(uint64_t rst, bool nearest)
{
    if (kGainInt > 0) return rst * uint(kGainInt);  // exact: no rounding at all
    const uint64_t m = (uint64_t(kGainMantHi) << 32) | uint64_t(kGainMantLo);
    return adm_enhanced_magnitude(rst, nearest, m, kGainExp);
}

// The dot products in 64 bits. At scale 0 the CPU forms them in 32 bits, but
// 16-bit band values stay below 2^15 * 54822 / 2^16 in magnitude (the sum of
// the taps' magnitudes is 54822), so its sums never wrap and are the same
// numbers. (Widening 32-bit sums instead would also meet the llvmpipe sign
// test trouble noted in decouple().)
bool one_degree(int oh, int ov, int th, int tv)
{
    const int64_t dot = int64_t(oh) * th + int64_t(ov) * tv;
    const int64_t oo = int64_t(oh) * oh + int64_t(ov) * ov, tt = int64_t(th) * th + int64_t(tv) * tv;
    return adm_within_one_degree(dot, oo, tt, AdmFloat(uint64_t(kAdmCos1DegSqMantissa), kAdmCos1DegSqExponent));
}

// Splits the distorted coefficient t into the restored r = k o and the
// additive a = t - r (adm_kernels.h: decouple16_one, decouple_one).
ivec2 decouple(int o, int t, bool enhance, bool nearest)
{
#ifdef ADM_NARROW
    const int rec = o < 0 ? -reciprocal(uint(-o)) : reciprocal(uint(o));
    const int64_t x = int64_t(rec) * t + (1l << (kAdmRatioShift - 1));
    const int k = int(clamp(x >> kAdmRatioShift, 0l, int64_t(kAdmRatioOne)));
    int r = (k * o + (1 << (kAdmRatioShift - 1))) >> kAdmRatioShift;
    if (enhance && k > 0 && o != 0) {
        // Signs are tested in 32 bits: some Mesa llvmpipe versions get sign
        // tests of 32-bit values widened to 64 wrong.
        const int e = int(min(enhanced_magnitude(uint64_t(abs(r)), nearest), uint64_t(0x7fffffff)));
        r = o > 0 ? min(r < 0 ? -e : e, t) : max(r < 0 ? -e : e, t);
    }
    return ivec2(sext16(r), sext16(t - r));
#else
    const uint mag = o < 0 ? 0u - uint(o) : uint(o);
    int shift = 0;
    uint m = mag;
    if (mag >= uint(kAdmReciprocalRange)) {
        shift = findMSB(mag) - 14;  // keep 15 significant bits, rounded
        m = (mag + (1u << (shift - 1))) >> shift;
    }
    const int64_t num = int64_t(reciprocal(m)) * t * (o < 0 ? -1 : 1);
    int64_t k = (num + (1l << (kAdmRatioShift - 1 + shift))) >> (kAdmRatioShift + shift);
    if (o == 0) k = int64_t(kAdmRatioOne);
    k = clamp(k, 0l, int64_t(kAdmRatioOne));
    int64_t r = (k * o + (1l << (kAdmRatioShift - 1))) >> kAdmRatioShift;
    if (enhance && k > 0l && o != 0) {
        const uint64_t m = enhanced_magnitude(r < 0l ? uint64_t(-r) : uint64_t(r), nearest);
        const int64_t e = r < 0l ? -int64_t(m) : int64_t(m);
        r = o > 0 ? min(e, int64_t(t)) : max(e, int64_t(t));
    }
    return ivec2(int(r), int(int64_t(t) - r));
#endif
}

// ------------------------------------------------------------- masking --

uint weight(int o) { return o == 0 ? kWeightH : (o == 1 ? kWeightV : kWeightD); }
int cube_shift(int o) { return o == 0 ? kCubeH : (o == 1 ? kCubeV : kCubeD); }

// CSF-weighted masker coefficient; its neighbour (|c| / 30) and centre
// (|c| / 15) contributions.
#ifdef ADM_NARROW
int csf(int x, int o)
{
    return sext16(int(uint(int(weight(o)) * x) + uint(kAdmCsf0Round[o])) >> kAdmCsf0Shift[o]);
}
int neighbour(int c) { return sext16((kAdmOneBy30Q17 * abs(c) + (1 << (kAdmMask0Shift - 1))) >> kAdmMask0Shift); }
int centre(int c) { return sext16((kAdmOneBy15Q17 * abs(c) + (1 << (kAdmMask0Shift - 1))) >> kAdmMask0Shift); }
#else
int csf(int x, int o)
{
    return int((int64_t(weight(o)) * x + int64_t(kAdmCsfRound)) >> kAdmCsfShift);
}
int64_t mag64(int c) { return c < 0 ? -int64_t(c) : int64_t(c); }
int neighbour(int c) { return int((int64_t(kAdmOneBy30Q32) * mag64(c) + int64_t(kAdmMaskRound)) >> kAdmMaskShift); }
int centre(int c) { return int((int64_t(kAdmOneBy15Q32) * mag64(c) + int64_t(kAdmMaskRound)) >> kAdmMaskShift); }
#endif

// The masked signal's cube (adm_kernels.h: Cube16, Cube32).
int64_t masked_cube(int s, int thr, int o)
{
    const int cube = cube_shift(o);
    const int64_t cube_round = cube == 0 ? 0l : (1l << (cube - 1));
#ifdef ADM_NARROW
    const int pr = int(weight(o)) * s;
    int x = int(uint(pr < 0 ? -pr : pr) - (uint(thr) << kAdmCm0ThresholdShift[o]));
    x = max(x, 0);
    const int sq = kAdmCm0SquareShift[o];
    const int x2 = int((int64_t(x) * x + (1l << (sq - 1))) >> sq);
#else
    int x = int((int64_t(weight(o)) * s + int64_t(kAdmCsfRound)) >> kAdmCsfShift);
    x = int((x < 0 ? 0u - uint(x) : uint(x)) - uint(thr));
    x = max(x, 0);
    const int x2 = int((int64_t(x) * x + (1l << (kAdmCmSquareShift - 1))) >> kAdmCmSquareShift);
#endif
    return (int64_t(x2) * x + cube_round) >> cube;
}

// The reference's energy term (adm_kernels.h: energy_row16, energy_row32).
uint64_t energy(int x)
{
#ifdef ADM_NARROW
    const uint m = uint(abs(x));
    return uint64_t(m * m) * m;
#else
    const uint64_t m = uint64_t(x < 0 ? 0u - uint(x) : uint(x));
    const uint64_t cube_round = kDenCube == 0 ? 0ul : (1ul << (kDenCube - 1));
    return ((((m * m + (1ul << kDenSquare)) >> kDenSquare) * m) + cube_round) >> kDenCube;
#endif
}

// ---------------------------------------------------------------- main --

// What a thread keeps of one interior position between the passes.
struct Interior {
    int r[3], a[3];   // decoupled signal
    int c_dlm, c_aim;  // the masker's centre sums
};

// Horizontal pass, decoupling and masker sums at tile position (ly, lx).
// Stores the neighbour sums; returns the rest in `keep`, and the low-low band
// and the reference's detail in `b`.
void position(int y0, int x0, int ly, int lx, out Bands b, out Interior keep)
{
    const int gx = x0 - 1 + lx;
    const int col = mirror(gx, kOW);
    b = horizontal(ly, 2 * (col - x0) + 2);
    if (!kScore) return;
    const bool enhance = one_degree(b.ref[1], b.ref[2], b.dis[1], b.dis[2]);
    const bool nearest = col < kNearestEnd;
    int n_dlm = 0, n_aim = 0;
    keep.c_dlm = 0;
    keep.c_aim = 0;
    [[unroll]] for (int o = 0; o < 3; o++) {
        const ivec2 ra = decouple(b.ref[1 + o], b.dis[1 + o], enhance, nearest);
        keep.r[o] = ra.x;
        keep.a[o] = ra.y;
        const int ca = csf(ra.y, o);
        n_dlm += neighbour(ca);
        keep.c_dlm += centre(ca);
        if (kAim) {
            const int cr = csf(ra.x, o);
            n_aim += neighbour(cr);
            keep.c_aim += centre(cr);
        }
    }
    const int at = kN + 2 * (ly * kBW + lx);
    smem[at] = uint(n_dlm);
    smem[at + 1] = uint(n_aim);
}

int threshold(int ly, int lx, int which, int centre_sum)
{
    int s = 0;
    [[unroll]] for (int dy = -1; dy <= 1; dy++)
        [[unroll]] for (int dx = -1; dx <= 1; dx++) s += int(smem[kN + 2 * ((ly + dy) * kBW + lx + dx) + which]);
    return s - int(smem[kN + 2 * (ly * kBW + lx) + which]) + centre_sum;
}

void store_red(int q, uint tid, uint64_t v)
{
    const uvec2 w = unpackUint2x32(v);
    smem[2 * (q * kThreads + int(tid))] = w.x;
    smem[2 * (q * kThreads + int(tid)) + 1] = w.y;
}

uint64_t load_red(int q, int t)
{
    return packUint2x32(uvec2(smem[2 * (q * kThreads + t)], smem[2 * (q * kThreads + t) + 1]));
}

void main()
{
    const uint tid = gl_LocalInvocationID.x;
    const int x0 = int(gl_WorkGroupID.x) * kTW, y0 = int(gl_WorkGroupID.y) * kTH;
    if (words_inside(y0, x0)) load_tile_words(y0, x0, tid);
    else load_tile(y0, x0, tid);
    barrier();
    vertical_pass(y0, x0, tid);
    barrier();

    if (kEdgeOut >= 0 && x0 == 0 && y0 <= kOH - 1 && kOH - 1 < y0 + kTH && tid < 4u) {
        // The distorted low pass of the last band row at input columns 0..3.
        const int at = (kOH - 1 - y0 + 1) * kInCols + int(tid) + 3;
#ifndef ADM_NARROW
        bands32.v[kEdgeOut + int(tid)] = int(smem[kVt + 4 * at + 2]);
#endif
    }

    // This thread's interior positions: one tile row, kPer adjacent columns.
    const int row = int(tid) / kRowThreads;
    const int col0 = (int(tid) - row * kRowThreads) * kPer;
    const int gy = y0 + row;
    Interior keep[kPer];
    uint64_t den[3] = uint64_t[3](0ul, 0ul, 0ul);
    const bool score_row = gy >= kScoreTop && gy < kScoreBottom;
    [[unroll]] for (int i = 0; i < kPer; i++) {
        const int gx = x0 + col0 + i;
        if (gy > kOH || gx > kOW) continue;  // never read, not even mirrored
        Bands b;
        position(y0, x0, row + 1, col0 + i + 1, b, keep[i]);
        if (gy >= kOH || gx >= kOW) continue;
        if (kWriteLowLow) {
            const uint at = uint(gy) * uint(kOW) + uint(gx);
#ifdef ADM_NARROW
            bands16.v[p.out_ref + at] = int16_t(b.ref[0]);
            bands16.v[p.out_dis + at] = int16_t(b.dis[0]);
#else
            bands32.v[p.out_ref + at] = b.ref[0];
            bands32.v[p.out_dis + at] = b.dis[0];
#endif
        }
        if (kScore && score_row && gx >= kScoreLeft && gx < kScoreRight)
            [[unroll]] for (int o = 0; o < 3; o++) den[o] += energy(b.ref[1 + o]);
    }
    if (!kScore) return;
    // The margin, for the masking window.
    if (int(tid) < kHalo) {
        int ly, lx;
        const int h = int(tid);
        if (h < kBW) {
            ly = 0, lx = h;
        } else if (h < 2 * kBW) {
            ly = kBH - 1, lx = h - kBW;
        } else if (h < 2 * kBW + kTH) {
            ly = 1 + h - 2 * kBW, lx = 0;
        } else {
            ly = 1 + h - 2 * kBW - kTH, lx = kBW - 1;
        }
        if (y0 - 1 + ly <= kOH && x0 - 1 + lx <= kOW) {
            Bands b;
            Interior unused;
            position(y0, x0, ly, lx, b, unused);
        }
    }
    barrier();

    int64_t num[3] = int64_t[3](0l, 0l, 0l), aim[3] = int64_t[3](0l, 0l, 0l);
    if (score_row) {
        [[unroll]] for (int i = 0; i < kPer; i++) {
            const int gx = x0 + col0 + i;
            if (gx < kScoreLeft || gx >= kScoreRight) continue;
            const int ly = row + 1, lx = col0 + i + 1;
            const int thr = threshold(ly, lx, 0, keep[i].c_dlm);
            [[unroll]] for (int o = 0; o < 3; o++) num[o] += masked_cube(keep[i].r[o], thr, o);
            if (kAim) {
                const int thr_aim = threshold(ly, lx, 1, keep[i].c_aim);
                [[unroll]] for (int o = 0; o < 3; o++) aim[o] += masked_cube(keep[i].a[o], thr_aim, o);
            }
        }
    }
    // The shared tile and vertical pass are free since the barrier above.
    [[unroll]] for (int o = 0; o < 3; o++) {
        store_red(o, tid, den[o]);
        store_red(3 + o, tid, uint64_t(num[o]));
        store_red(6 + o, tid, uint64_t(aim[o]));
    }
    barrier();

    // One thread per quantity and tile row adds the row's threads.
    if (int(tid) < kQuantities * kTH) {
        const int q = int(tid) / kTH, r = int(tid) - q * kTH;
        const int y = y0 + r;
        if (y >= kScoreTop && y < kScoreBottom) {
            uint64_t s = 0ul;
            for (int t = r * kRowThreads; t < (r + 1) * kRowThreads; t++) s += load_red(q, t);
            const uint at = p.part_base + uint((q * kScoreRows + y - kScoreTop) * kTilesX) + gl_WorkGroupID.x;
            partials.v[at] = s;
        }
    }
}
