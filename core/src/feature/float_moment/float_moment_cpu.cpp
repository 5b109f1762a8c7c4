// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_moment on the CPU: mean and mean square of each luma plane, as float
// on the 8-bit scale, summed in double.
#include "feature/float_moment/float_moment.h"

#include "feature/common/float_picture.h"
#include "feature/float_moment/float_moment_tables.h"

namespace vmaf {

namespace {

constexpr const char *kProvided[] = {float_moment::kRef1st, float_moment::kDis1st,
                                     float_moment::kRef2nd, float_moment::kDis2nd};

struct Moments {
    double first, second;
};

Moments moments(const FloatPlane &p)
{
    double s1 = 0.0, s2 = 0.0;
    for (float v : p.data) {
        s1 = float_moment::add_1st(s1, v);
        s2 = float_moment::add_2nd(s2, v);
    }
    return {float_moment::mean(s1, int(p.w), int(p.h)), float_moment::mean(s2, int(p.w), int(p.h))};
}

class FloatMomentCpu final : public Extractor {
public:
    int init(const FrameFormat &) override { return 0; }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index,
                ScoreSink &out) override
    {
        plane_.assign(ref, 0, 0.0f);
        const Moments r = moments(plane_);
        plane_.assign(dist, 0, 0.0f);
        const Moments d = moments(plane_);
        if (int err = out.append(float_moment::kRef1st, index, r.first)) return err;
        if (int err = out.append(float_moment::kDis1st, index, d.first)) return err;
        if (int err = out.append(float_moment::kRef2nd, index, r.second)) return err;
        return out.append(float_moment::kDis2nd, index, d.second);
    }

private:
    FloatPlane plane_;
};

std::unique_ptr<Extractor> create(const FeatureOptions &)
{
    return std::make_unique<FloatMomentCpu>();
}

}  // namespace

const ExtractorInfo kFloatMomentExtractor = {"float_moment", kProvided, {}, 0, create};

}  // namespace vmaf
