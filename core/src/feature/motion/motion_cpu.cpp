// Placeholder until the CPU motion lands: registering it fails cleanly.
#include "feature/motion/motion.h"

namespace vmaf {

static std::unique_ptr<Extractor> create(const FeatureOptions &) { return nullptr; }

const ExtractorInfo kMotionExtractor = {"motion", {}, {}, 0, create};

}  // namespace vmaf
