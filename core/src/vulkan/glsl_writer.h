// SPDX-License-Identifier: BSD-2-Clause-Patent
// Writes C++ table values as GLSL constants. Each tables/<feature>.cpp is a small
// native program, run at build time, that includes the feature's <feature>_tables.h
// and prints <feature>_tables.glsl with this: kernels include that header, so the
// numbers they use are the very ones the CPU code uses.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

namespace vmaf::glsl {

class Writer {
public:
    // `guard` names the include guard; `source` is the table header, for the banner.
    Writer(const char *guard, const char *source) : guard_(guard)
    {
        std::printf("// Generated at build time from %s: do not edit.\n", source);
        std::printf("#ifndef %s\n#define %s\n\n", guard, guard);
    }
    ~Writer() { std::printf("\n#endif  // %s\n", guard_.c_str()); }

    void constant(const char *name, int32_t v) { std::printf("const int %s = %" PRId32 ";\n", name, v); }
    void constant(const char *name, uint32_t v) { std::printf("const uint %s = %" PRIu32 "u;\n", name, v); }
    void constant(const char *name, double v) { std::printf("const double %s = %.17g;\n", name, v); }

    void array(const char *name, std::span<const int32_t> v) { emit(name, "int", v, ""); }
    void array(const char *name, std::span<const uint32_t> v) { emit(name, "uint", v, "u"); }

private:
    template <typename T>
    void emit(const char *name, const char *type, std::span<const T> v, const char *suffix)
    {
        std::printf("const %s %s[%zu] = %s[%zu](", type, name, v.size(), type, v.size());
        for (size_t i = 0; i < v.size(); i++)
            std::printf("%s%lld%s", i ? ", " : "", static_cast<long long>(v[i]), suffix);
        std::printf(");\n");
    }

    std::string guard_;
};

}  // namespace vmaf::glsl
