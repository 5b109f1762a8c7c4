// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "output/writer.h"

#include <cerrno>

#include "output/score_table.h"

namespace vmaf {

std::string render_output(VmafOutputFormat fmt, const FeatureCollector &fc, const OutputInfo &info)
{
    const auto table = output::ScoreTable::from(fc, info.subsample);
    switch (fmt) {
    case VMAF_OUTPUT_FORMAT_XML: return output::render_xml(table, fc, info);
    case VMAF_OUTPUT_FORMAT_JSON: return output::render_json(table, fc, info);
    case VMAF_OUTPUT_FORMAT_CSV: return output::render_csv(table);
    case VMAF_OUTPUT_FORMAT_SUB: return output::render_sub(table);
    default: return {};
    }
}

int write_output(std::FILE *f, VmafOutputFormat fmt, const FeatureCollector &fc,
                 const OutputInfo &info)
{
    if (!f) return -EINVAL;
    if (fmt <= VMAF_OUTPUT_FORMAT_NONE || fmt > VMAF_OUTPUT_FORMAT_SUB) return -EINVAL;
    const std::string doc = render_output(fmt, fc, info);
    if (std::fwrite(doc.data(), 1, doc.size(), f) != doc.size() || std::fflush(f) != 0)
        return -EIO;
    return 0;
}

}  // namespace vmaf
