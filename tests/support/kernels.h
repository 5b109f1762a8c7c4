// SPDX-License-Identifier: BSD-2-Clause-Patent
// Test helper: an extractor's portable and best (AVX2 where the machine has
// it) CPU kernels, which must give the same bits.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "feature/extractor.h"
#include "golden.h"
#include "options.h"
#include "pictures.h"
#include "sink.h"
#include "util/simd.h"

namespace vmaf::test {

// The reference's and the distorted's frames.
using FramePairs = std::pair<std::vector<VmafPicture>, std::vector<VmafPicture>>;

// Golden pair `name`'s frames (tests/data/NAME_ref.y4m and NAME_dis.y4m).
inline FramePairs golden_frames(const std::string &name)
{
    return {load_y4m(data_dir() + "/" + name + "_ref.y4m"), load_y4m(data_dir() + "/" + name + "_dis.y4m")};
}

// One frame pair of 4:4:4 8-bit w x h pictures, hashed() with seeds 4 and 5.
inline FramePairs hashed_pair(unsigned w, unsigned h)
{
    return {{make_picture(VMAF_PIX_FMT_YUV444P, 8, w, h, hashed(4))},
            {make_picture(VMAF_PIX_FMT_YUV444P, 8, w, h, hashed(5))}};
}

// Every score of `create(options, Kernels::Portable)` equals that of
// `create(options, Kernels::Best)` on each input, with libjxl_fma=1 and 0.
// `create` makes a CPU extractor of `info`'s options. Frees the inputs.
template <typename Create>
void check_kernels_agree(const ExtractorInfo &info, Create create, std::vector<FramePairs> inputs)
{
    const auto run = [&](const FramePairs &in, const Dict &opts, Kernels which) {
        auto ex = create(options_for(info, opts), which);
        REQUIRE(ex->init(format_of(in.first[0])) == 0);
        MapSink sink;
        for (unsigned i = 0; i < in.first.size(); i++) REQUIRE(ex->extract(in.first[i], in.second[i], i, sink) == 0);
        return sink;
    };
    for (auto &in : inputs) {
        for (const char *fma : {"1", "0"}) {
            const MapSink portable = run(in, {{"libjxl_fma", fma}}, Kernels::Portable);
            const MapSink best = run(in, {{"libjxl_fma", fma}}, Kernels::Best);
            INFO(in.first[0].w[0] << "x" << in.first[0].h[0] << " libjxl_fma=" << fma);
            CHECK(!portable.scores.empty());
            CHECK(best.scores == portable.scores);
        }
        unref_all(in.first);
        unref_all(in.second);
    }
}

}  // namespace vmaf::test
