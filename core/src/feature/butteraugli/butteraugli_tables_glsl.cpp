// SPDX-License-Identifier: BSD-2-Clause-Patent
// butteraugli_tables.glsl: the Malta filters for the Vulkan twin, from the
// lines in butteraugli_tables.h: malta_unit_hf() and malta_unit_lf(), each
// line's loads and sums written out (no table indexed at run time).
#include <cstdio>

#include "feature/butteraugli/butteraugli_tables.h"

namespace {

using vmaf::butteraugli::MaltaLine;

// libjxl's Sum() of a line's 5, 7 or 9 values (L(i) the i-th), grouped as it is.
void line_sum(const MaltaLine &l)
{
    const auto v = [&l](int i) {
        std::printf("L(%d, %d)", l.d[i][0], l.d[i][1]);
    };
    const auto add = [](auto a, auto b) {
        std::printf("(");
        a();
        std::printf(" + ");
        b();
        std::printf(")");
    };
    const auto at = [&v](int i) { return [&v, i] { v(i); }; };
    if (l.n == 5) {
        add([&] { add(at(0), at(1)); }, [&] { add(at(2), [&] { add(at(3), at(4)); }); });
    } else if (l.n == 7) {
        add([&] { add(at(0), at(1)); },
            [&] { add(at(2), [&] { add([&] { add(at(3), at(4)); }, [&] { add(at(5), at(6)); }); }); });
    } else {
        add([&] {
            add([&] { add([&] { add(at(0), at(1)); }, [&] { add(at(2), at(3)); }); },
                [&] { add([&] { add(at(4), at(5)); }, [&] { add(at(6), at(7)); }); });
        },
            at(8));
    }
}

// MaltaUnit written out: the squares of the 16 lines' sums, the first a
// product, the others added by madd() (the kernel's), L(dy, dx) the kernel's
// load of the map at (dy, dx) from the centre.
void unit(const char *name, const MaltaLine (&lines)[16])
{
    std::printf("float %s(uint at, int xs)\n{\n    precise float s, r;\n", name);
    for (int i = 0; i < 16; i++) {
        std::printf("    s = ");
        line_sum(lines[i]);
        std::printf(";\n");
        std::printf(i == 0 ? "    r = s * s;\n" : "    r = madd(s, s, r);\n");
    }
    std::printf("    return r;\n}\n");
}

}  // namespace

int main()
{
    using namespace vmaf::butteraugli;
    std::printf("// Generated at build time from core/src/feature/butteraugli/butteraugli_tables.h: do not edit.\n");
    std::printf("#ifndef BUTTERAUGLI_TABLES_GLSL\n#define BUTTERAUGLI_TABLES_GLSL\n\n");
    // The functions use the kernel's madd() and L(): only where it asks.
    std::printf("#ifdef BUTTERAUGLI_MALTA_UNITS\n");
    unit("malta_unit_hf", kMaltaHf);
    unit("malta_unit_lf", kMaltaLf);
    std::printf("#endif\n");
    std::printf("\n#endif\n");
    return 0;
}
