// SPDX-License-Identifier: BSD-2-Clause-Patent
// butteraugli_tables.glsl: the Malta filters' lines for the Vulkan twin, from
// butteraugli_tables.h: for each of the 32 lines (the 16 of the high-frequency
// filter, then the 16 of the low-frequency one) its number of pixels and their
// offsets (dy, dx) from the centre.
#include <cstdio>

#include "feature/butteraugli/butteraugli_tables.h"

namespace {

void lines(const char *name, const vmaf::butteraugli::MaltaLine (&a)[16], const vmaf::butteraugli::MaltaLine (&b)[16])
{
    const vmaf::butteraugli::MaltaLine *all[32];
    for (int i = 0; i < 16; i++) {
        all[i] = &a[i];
        all[16 + i] = &b[i];
    }
    std::printf("const int %sN[32] = int[32](", name);
    for (int i = 0; i < 32; i++) std::printf("%s%d", i ? ", " : "", all[i]->n);
    std::printf(");\n");
    for (int axis = 0; axis < 2; axis++) {
        std::printf("const int %s%s[288] = int[288](", name, axis ? "Dx" : "Dy");
        for (int i = 0; i < 32; i++)
            for (int j = 0; j < 9; j++) std::printf("%s%d", i || j ? ", " : "", j < all[i]->n ? all[i]->d[j][axis] : 0);
        std::printf(");\n");
    }
}

}  // namespace

int main()
{
    using namespace vmaf::butteraugli;
    std::printf("// Generated at build time from core/src/feature/butteraugli/butteraugli_tables.h: do not edit.\n");
    std::printf("#ifndef BUTTERAUGLI_TABLES_GLSL\n#define BUTTERAUGLI_TABLES_GLSL\n\n");
    lines("kMalta", kMaltaHf, kMaltaLf);
    std::printf("\n#endif\n");
    return 0;
}
