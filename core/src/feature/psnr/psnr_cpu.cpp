// Placeholder until the CPU psnr lands: registering it fails cleanly.
#include "feature/psnr/psnr.h"

namespace vmaf {

static std::unique_ptr<Extractor> create(const FeatureOptions &) { return nullptr; }

const ExtractorInfo kPsnrExtractor = {"psnr", {}, {}, 0, create};

}  // namespace vmaf
