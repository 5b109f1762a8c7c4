// SPDX-License-Identifier: BSD-2-Clause-Patent
// Run-time instruction-set dispatch of the CPU kernels. A kernel is written once
// as a VMAF_INLINE template and inlined into one function per target (generic,
// AVX2, AVX-512), which the extractor picks at start-up; every copy does the
// same arithmetic (meson.build turns off the fusing of a * b + c into FMA), so
// they agree to the bit.
#pragma once

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VMAF_X86 1
#else
#define VMAF_X86 0
#endif

#define VMAF_INLINE inline __attribute__((always_inline))

// The target of the 512-bit builds.
#define VMAF_TARGET_AVX512 "avx512f,avx512bw,avx512vl,avx512dq,prefer-vector-width=512"

// A region of definitions all built for target t (a string literal), for
// kernels written once and compiled per instruction set; end it with
// VMAF_END_TARGET.
#define VMAF_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
// Clang has no "#pragma GCC target"; its attribute region does the same for the
// functions defined inside. It knows no prefer-vector-width target option.
#define VMAF_BEGIN_TARGET(t) \
    VMAF_PRAGMA(clang attribute push(__attribute__((target(t))), apply_to = function))
#define VMAF_END_TARGET _Pragma("clang attribute pop")
#undef VMAF_TARGET_AVX512
#define VMAF_TARGET_AVX512 "avx512f,avx512bw,avx512vl,avx512dq"
#else
#define VMAF_BEGIN_TARGET(t) _Pragma("GCC push_options") VMAF_PRAGMA(GCC target(t))
#define VMAF_END_TARGET _Pragma("GCC pop_options")
#endif

namespace vmaf {

// Which build of its CPU kernels an extractor instance runs: the fastest the
// processor supports (what the registry's extractors create), the portable
// one, or the AVX2 one (the portable one where the processor lacks AVX2), so
// that tests on an AVX-512 machine also run it. All give identical scores;
// tests compare them and benchmarks time them. Features with SIMD kernels take
// it in their create_cpu().
enum class Kernels { Best, Portable, Avx2 };

#if VMAF_X86
inline bool cpu_has_avx2() { return __builtin_cpu_supports("avx2"); }
inline bool cpu_has_avx512()
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
}
#endif

}  // namespace vmaf
