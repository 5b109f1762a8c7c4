// SPDX-License-Identifier: BSD-2-Clause-Patent
// For the shader headers that C++ host tests also compile (adm_exact.glsl,
// vif_gain.glsl): GLSL builds a struct with its constructor syntax, S(a, b);
// C++ compilers before parenthesized aggregate initialisation (clang 16) need a
// constructor for it. In GLSL the macro is empty.
#ifndef CXX_CONSTRUCTORS_GLSL
#define CXX_CONSTRUCTORS_GLSL

#ifdef __cplusplus
#define CXX_CONSTRUCTOR2(S, T1, a, T2, b) \
    S() = default;                      \
    S(T1 a##_, T2 b##_) : a(a##_), b(b##_) {}
#else
#define CXX_CONSTRUCTOR2(S, T1, a, T2, b)
#endif

#endif
