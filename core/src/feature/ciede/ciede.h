// ciede: libvmaf's CIEDE2000 colour difference (ciede2000 = 45 - 20 log10(mean dE00)).
#pragma once

#include <vector>

#include "feature/extractor.h"

namespace vmaf {

extern const ExtractorInfo kCiedeExtractor;

namespace ciede {

// The linear-light red of every pair of samples (Y, V) and the blue of every
// (Y, U) at bpc bits (8 to kMaxLinearTableBpc), as the CPU's YUV -> Lab
// conversion computes them (the C library's pow): red at [Y << bpc | V], blue
// at [linear_table_side(bpc) + (Y << bpc | U)]. Built on first use (1 MiB at 8
// bits, 16 MiB at 10); the CPU extractor and its GPU twin both read it.
const std::vector<double> &linear_rb_table(unsigned bpc);

}  // namespace ciede

}  // namespace vmaf
