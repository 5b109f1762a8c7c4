// SPDX-License-Identifier: BSD-2-Clause-Patent
// float_psnr on the CPU: luma as float on the 8-bit scale, squared errors in
// float summed in double, libvmaf's per-depth peak and cap.
#include "feature/float_psnr/float_psnr.h"

#include <cerrno>

#include "feature/common/float_picture.h"
#include "feature/float_psnr/float_psnr_tables.h"
#include "util/log.h"

namespace vmaf {

namespace {

constexpr const char *kProvided[] = {float_psnr::kName};

class FloatPsnrCpu final : public Extractor {
public:
    int init(const FrameFormat &fmt) override
    {
        if (!float_psnr::peak_for(fmt.bpc, &peak_)) {
            log(VMAF_LOG_LEVEL_ERROR, "float_psnr: unsupported bit depth %u (8, 10, 12 or 16)\n",
                fmt.bpc);
            return -EINVAL;
        }
        return 0;
    }

    int extract(const VmafPicture &ref, const VmafPicture &dist, unsigned index,
                ScoreSink &out) override
    {
        ref_.assign(ref, 0, 0.0f);
        dis_.assign(dist, 0, 0.0f);
        double noise = 0.0;
        const std::size_t n = ref_.data.size();
        for (std::size_t i = 0; i < n; i++)
            noise = float_psnr::add_squared_error(noise, ref_.data[i], dis_.data[i]);
        const double score = float_psnr::from_noise(noise, int(ref_.w), int(ref_.h), peak_);
        return out.append(float_psnr::kName, index, score);
    }

private:
    float_psnr::Peak peak_{};
    FloatPlane ref_, dis_;
};

std::unique_ptr<Extractor> create(const FeatureOptions &)
{
    return std::make_unique<FloatPsnrCpu>();
}

}  // namespace

const ExtractorInfo kFloatPsnrExtractor = {"float_psnr", kProvided, {}, 0, create};

}  // namespace vmaf
