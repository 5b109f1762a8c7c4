// Placeholder until the CPU vif lands: registering it fails cleanly.
#include "feature/vif/vif.h"

namespace vmaf {

static std::unique_ptr<Extractor> create(const FeatureOptions &) { return nullptr; }

const ExtractorInfo kVifExtractor = {"vif", {}, {}, 0, create};

}  // namespace vmaf
