// ssimulacra2: the score of identical frames, and the errors for bad options
// and too small pictures.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "feature/ssimulacra2/ssimulacra2.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "options.h"
#include "pictures.h"
#include "run.h"
#include "sink.h"

using namespace vmaf;
using namespace vmaf::test;

namespace {

// One picture pair scored by the extractor itself.
struct Scored {
    int err;
    double value;
};

Scored score_once(const Dict &opts, const VmafPicture &ref, const VmafPicture &dis)
{
    auto ex = kSsimulacra2Extractor.create(options_for(kSsimulacra2Extractor, opts));
    Scored s{ex->init(format_of(ref)), NAN};
    if (s.err) return s;
    MapSink sink;
    s.err = ex->extract(ref, dis, 0, sink);
    if (!s.err) s.err = sink.get("ssimulacra2", 0, &s.value);
    return s;
}

unsigned pattern(unsigned pl, unsigned x, unsigned y, unsigned seed)
{
    const unsigned h = (x * 73856093u) ^ (y * 19349663u) ^ (pl * 83492791u) ^ (seed * 2654435761u);
    return pl ? 96 + (h >> 7) % 64 : 32 + ((x * 5 + y * 3) % 160) + (h >> 9) % 32;
}

}  // namespace

TEST_CASE("ssimulacra2 of identical frames is 100", "[ssimulacra2]")
{
    for (VmafPixelFormat fmt : {VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV444P}) {
        const auto gen = [](unsigned pl, unsigned x, unsigned y) { return pattern(pl, x, y, 1); };
        VmafPicture a = make_picture(fmt, 8, 37, 29, gen), b = make_picture(fmt, 8, 37, 29, gen);
        const Scored s = score_once({}, a, b);
        CHECK(s.err == 0);
        CHECK(s.value == 100.0);
        VmafPicture c = make_picture(fmt, 8, 37, 29, [](unsigned pl, unsigned x, unsigned y) {
            return pattern(pl, x, y, 2);
        });
        const Scored d = score_once({}, a, c);
        CHECK(d.err == 0);
        CHECK(d.value < 100.0);
        vmaf_picture_unref(&a);
        vmaf_picture_unref(&b);
        vmaf_picture_unref(&c);
    }
}

TEST_CASE("ssimulacra2 rejects bad options and pictures below 8x8", "[ssimulacra2]")
{
    FeatureOptions o;
    std::string err;
    CHECK(FeatureOptions::parse(kSsimulacra2Extractor.options, {{"matrix", "bt470"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kSsimulacra2Extractor.options, {{"range", "tv"}}, &o, &err) == -EINVAL);
    CHECK(FeatureOptions::parse(kSsimulacra2Extractor.options, {{"no_such_option", "1"}}, &o, &err) == -EINVAL);
    CHECK(use_with("ssimulacra2", {{"matrix", "bt470"}}) < 0);
    CHECK(use_with("ssimulacra2", {{"matrix", "bt2020"}, {"range", "full"}}) == 0);

    const auto gen = [](unsigned pl, unsigned x, unsigned y) { return pattern(pl, x, y, 3); };
    for (const auto &[w, h] : {std::pair{7u, 8u}, std::pair{8u, 7u}, std::pair{1u, 1u}}) {
        VmafPicture a = make_picture(VMAF_PIX_FMT_YUV420P, 8, w, h, gen);
        CHECK(score_once({}, a, a).err == -EINVAL);
        vmaf_picture_unref(&a);
    }
    // 8x8 is libjxl's smallest: two scales (8x8 and 4x4), scored.
    VmafPicture a = make_picture(VMAF_PIX_FMT_YUV420P, 8, 8, 8, gen);
    const Scored s = score_once({}, a, a);
    CHECK(s.err == 0);
    CHECK(s.value == 100.0);
    vmaf_picture_unref(&a);
    VmafPicture g = make_picture(VMAF_PIX_FMT_YUV400P, 8, 16, 16, gen);
    CHECK(score_once({}, g, g).err == -EINVAL);
    vmaf_picture_unref(&g);
}
