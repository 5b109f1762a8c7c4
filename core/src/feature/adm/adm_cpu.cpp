// Placeholder until the CPU adm lands: registering it fails cleanly.
#include "feature/adm/adm.h"

namespace vmaf {

static std::unique_ptr<Extractor> create(const FeatureOptions &) { return nullptr; }

const ExtractorInfo kAdmExtractor = {"adm", {}, {}, 0, create};

}  // namespace vmaf
